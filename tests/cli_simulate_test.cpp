// cachesim simulate end to end: the default scenario, formats, presets, config files, outputs.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>

#include "tests/cli_util.hpp"
#include "tests/stencil_reference.hpp"

namespace cachesim {
namespace {

using test::run_cachesim;

TEST(CliSimulate, DefaultIsThesisTable31) {
    // The misses of the textbook LRU model replaying the stencil's loads from their definition.
    const std::string misses = std::to_string(test::thesis_table31_read_misses());
    const auto r = run_cachesim("simulate");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("12,544"), std::string::npos) << r.out;  // 16 * 16 items * 7 * 7 reads
    EXPECT_NE(r.out.find("misses" + std::string(16 - misses.size(), ' ') + misses), std::string::npos) << r.out;
}

TEST(CliSimulate, JsonHasTheDocumentedFields) {
    const auto r = run_cachesim("simulate --format json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["accesses"], 12800);
    ASSERT_EQ(j["levels"].size(), 1u);
    const auto& l1 = j["levels"][0];
    const std::uint64_t misses = test::thesis_table31_read_misses();
    EXPECT_EQ(l1["name"], "L1");
    EXPECT_EQ(l1["reads"], 12544);
    EXPECT_EQ(l1["read_misses"], misses);
    EXPECT_EQ(l1["misses"], misses);
    EXPECT_EQ(l1["writes"], 0);
    EXPECT_EQ(l1["accesses"], 12544);
    EXPECT_EQ(l1["hits"], 12544 - misses);
    EXPECT_NEAR(l1["hit_rate"].get<double>(), 1.0 - static_cast<double>(misses) / 12544.0, 1e-12);
    EXPECT_EQ(l1["miss_classes"]["compulsory"], 16 * 16 * 4 / 16);  // the input's 16 B lines
    EXPECT_TRUE(j.contains("seconds"));
    EXPECT_TRUE(j.contains("accesses_per_second"));
}

TEST(CliSimulate, ExplicitOptionsOverrideThePreset) {
    const auto r = run_cachesim("simulate --preset thesis-matmul --l1-lines 64 --format json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["workload"]["kind"], "matmul");
    EXPECT_EQ(j["levels"][0]["config"]["size_bytes"], 64 * 16);
}

TEST(CliSimulate, ConfigFileGivesTheSameOptions) {
    const auto path = test::temp_dir() / "run.cfg";
    std::ofstream(path) << "# thesis matmul with column schedule\nworkload = matmul\nschedule = column:8\nl1-size = 512\nformat = csv\n";
    const auto r = run_cachesim("simulate --config '" + path.string() + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("matmul"), std::string::npos);
    EXPECT_NE(r.out.find("column:8"), std::string::npos);
    const auto direct = run_cachesim("simulate --workload matmul --schedule column:8 --l1-size 512 --format csv");
    EXPECT_EQ(r.out, direct.out);
}

TEST(CliSimulate, OutputFileIsWrittenWhole) {
    const auto path = test::temp_dir() / "report.json";
    const auto r = run_cachesim("simulate --format json -o '" + path.string() + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(r.out.empty());
    EXPECT_NO_THROW(nlohmann::json::parse(test::read_file(path)));
}

TEST(CliSimulate, CsvHasStableColumns) {
    const auto r = run_cachesim("simulate --format csv --l2-size 4K --l2-ways 4");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto newline = r.out.find('\n');
    const std::string header = r.out.substr(0, newline);
    EXPECT_EQ(header.rfind("model,workload,width,height,", 0), 0u) << header;
    EXPECT_NE(header.find("l1_read_misses"), std::string::npos);
    EXPECT_NE(header.find("l2_hit_rate"), std::string::npos);
}

TEST(CliSimulate, HelpOnEverySubcommand) {
    EXPECT_EQ(run_cachesim("--help").exit_code, 0);
    const auto r = run_cachesim("simulate --help");
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_NE(r.out.find("--l1-policy"), std::string::npos);
}

TEST(CliSimulate, ReplaysDinTrace) {
    const auto path = test::temp_dir() / "small.din";
    std::ofstream(path) << "0 0\n0 40\n0 0\n0 80\n0 40\n";
    const auto r = run_cachesim("simulate --trace '" + path.string() +
                                "' --trace-format din --l1-size 128 --l1-line 64 --format json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["levels"][0]["read_misses"], 4);  // 0 m, 40 m, 0 h, 80 m (evicts 40), 40 m
}

}  // namespace
}  // namespace cachesim
