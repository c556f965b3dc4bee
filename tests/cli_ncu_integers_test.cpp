// The GPU model's Nsight Compute counters: counts (".sum") are whole numbers in the JSON report
// (4718592, not 4718592.0) and in CSV; rates stay decimal.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "apps/cachesim/sweep_results.hpp"
#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

using test::run_cachesim;

const std::string kRun = "simulate --preset h200 --workload matmul --size 128x128 --depth 128 --block 128 --sms 8";

TEST(CliNcuIntegers, JsonCountsAreIntegers) {
    const auto r = run_cachesim(kRun + " --format json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    int counts = 0;
    for (const auto& [name, value] : j.at("ncu").items()) {
        if (name.ends_with(".sum")) {
            EXPECT_TRUE(value.is_number_unsigned()) << name << " = " << value.dump();
            ++counts;
        } else {
            EXPECT_TRUE(value.is_number_float()) << name;
        }
    }
    EXPECT_EQ(counts, 10);
    // A 128x128x128 matmul loads A and B once per multiply-add: 2 * 128^3 loads of 4 bytes, 32 lanes
    // per request.
    EXPECT_EQ(j.at("ncu").at("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum").get<std::uint64_t>(),
              2ull * 128 * 128 * 128 / 32);
    const std::string text = r.out;
    EXPECT_EQ(text.find(".sum\": 131072.0"), std::string::npos);
}

TEST(CliNcuIntegers, CsvCountsHaveNoDecimals) {
    const auto r = run_cachesim(kRun + " --format csv");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto rows = cli::parse_csv(r.out);
    ASSERT_EQ(rows.size(), 2u);
    ASSERT_EQ(rows[0].size(), rows[1].size());
    int counts = 0;
    for (std::size_t c = 0; c < rows[0].size(); ++c)
        if (rows[0][c].ends_with(".sum")) {
            EXPECT_EQ(rows[1][c].find_first_not_of("0123456789"), std::string::npos) << rows[0][c] << " = " << rows[1][c];
            ++counts;
        }
    EXPECT_EQ(counts, 10);
}

}  // namespace
}  // namespace cachesim
