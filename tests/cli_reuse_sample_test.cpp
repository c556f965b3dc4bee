// cachesim simulate --reuse-sample: the outputs say that the analysis is sampled and at what rate
// (table, json, csv), the exact default says it is not, and bad rates are refused with exit 2.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

using test::run_cachesim;

TEST(CliReuseSample, JsonSaysSampledAndTheRate) {
    const auto exact = run_cachesim("simulate --format json");
    ASSERT_EQ(exact.exit_code, 0) << exact.err;
    const auto e = nlohmann::json::parse(exact.out)["levels"][0];
    EXPECT_EQ(e["reuse_distance"]["sample_rate"], 0.0);
    EXPECT_EQ(e["miss_classes"]["estimated"], false);

    const auto sampled = run_cachesim("simulate --reuse-sample 0.5 --format json");
    ASSERT_EQ(sampled.exit_code, 0) << sampled.err;
    const auto s = nlohmann::json::parse(sampled.out)["levels"][0];
    EXPECT_EQ(s["reuse_distance"]["sample_rate"], 0.5);
    EXPECT_EQ(s["miss_classes"]["estimated"], true);
    EXPECT_EQ(s["misses"], e["misses"]);  // the cache itself is simulated in full
}

TEST(CliReuseSample, TableAndCsvSayIt) {
    const auto table = run_cachesim("simulate --reuse-sample 0.25 --show-reuse");
    ASSERT_EQ(table.exit_code, 0) << table.err;
    EXPECT_NE(table.out.find("miss classes (estimated: lines sampled at rate 0.25)"), std::string::npos) << table.out;
    EXPECT_NE(table.out.find("reuse distance (distinct lines between uses) (estimated: lines sampled at rate 0.25)"),
              std::string::npos) << table.out;
    const auto plain = run_cachesim("simulate --show-reuse");
    EXPECT_EQ(plain.out.find("estimated"), std::string::npos) << plain.out;

    const auto csv = run_cachesim("simulate --reuse-sample 0.25 --format csv");
    ASSERT_EQ(csv.exit_code, 0) << csv.err;
    const std::string header = csv.out.substr(0, csv.out.find('\n'));
    const std::string row = csv.out.substr(csv.out.find('\n') + 1);
    std::size_t column = 0, at = 0;
    for (std::size_t next; (next = header.find(',', at)) != std::string::npos && header.substr(at, next - at) != "reuse_sample"; at = next + 1)
        ++column;
    ASSERT_NE(header.find("reuse_sample"), std::string::npos) << header;
    std::size_t field = 0;
    for (std::size_t i = 0; i < column; ++i) field = row.find(',', field) + 1;
    EXPECT_EQ(row.substr(field, row.find_first_of(",\n", field) - field), "0.25");
}

TEST(CliReuseSample, BadRatesAreRefused) {
    for (const char* rate : {"0", "-0.1", "1.5", "abc", "0.01x", "nan", ""}) {
        const auto r = run_cachesim(std::string("simulate --reuse-sample '") + rate + "'");
        EXPECT_EQ(r.exit_code, 2) << rate;
        EXPECT_NE(r.err.find("--reuse-sample"), std::string::npos) << rate << ": " << r.err;
        EXPECT_TRUE(r.out.empty()) << rate;
    }
    const auto off = run_cachesim("simulate --no-analysis --reuse-sample 0.1");
    EXPECT_EQ(off.exit_code, 2);
    EXPECT_NE(off.err.find("--no-analysis"), std::string::npos) << off.err;
    const auto gpu = run_cachesim("simulate --model gpu --reuse-sample 0.1");
    EXPECT_EQ(gpu.exit_code, 2);
    EXPECT_NE(gpu.err.find("--reuse-sample"), std::string::npos) << gpu.err;
}

}  // namespace
}  // namespace cachesim
