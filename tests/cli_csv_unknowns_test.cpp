// A CSV report says what the run does not know by an empty field, not by a 0 that reads as a
// count: miss classes of a run that does not classify its misses (--no-analysis, the GPU model).
// And it gives a level's ways as the level has them, as the table and JSON do.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

#include "apps/cachesim/sweep_results.hpp"
#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

using test::run_cachesim;

// The CSV's one row as column name -> value.
std::map<std::string, std::string> csv_row(const std::string& args) {
    const auto r = run_cachesim("simulate --format csv " + args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const auto rows = cli::parse_csv(r.out);
    std::map<std::string, std::string> row;
    if (rows.size() != 2 || rows[0].size() != rows[1].size()) {
        ADD_FAILURE() << r.out;
        return row;
    }
    for (std::size_t i = 0; i < rows[0].size(); ++i) row[rows[0][i]] = rows[1][i];
    return row;
}

TEST(CliCsvUnknowns, MissClassesAreEmptyWhereTheRunDoesNotClassify) {
    for (const std::string args : {"--no-analysis", "--model gpu --size 64x64 --sms 4 --block 64"}) {
        auto row = csv_row(args);
        for (const char* column : {"l1_compulsory", "l1_capacity", "l1_conflict", "l2_compulsory", "l2_capacity", "l2_conflict"}) {
            ASSERT_TRUE(row.count(column)) << column;
            EXPECT_EQ(row[column], "") << args << ": " << column;
        }
    }
    // With the analysis: the thesis stencil's compulsory misses are its input's 16 B lines
    // (16 x 16 elements of 4 B) and its output's, which are written without a read (no miss).
    auto row = csv_row("");
    EXPECT_EQ(row["l1_compulsory"], std::to_string(16 * 16 * 4 / 16));
}

TEST(CliCsvUnknowns, WaysAreTheLevelsOwn) {
    // The thesis's L1 is fully associative: 384 B of 16 B lines, 24 lines in one set.
    EXPECT_EQ(csv_row("")["l1_ways"], "24");
    // The GPU model's levels as its JSON report gives their geometry.
    const std::string gpu = "--model gpu --size 64x64 --sms 4 --block 64";
    const auto json = run_cachesim("simulate --format json " + gpu);
    ASSERT_EQ(json.exit_code, 0) << json.err;
    const auto levels = nlohmann::json::parse(json.out)["levels"];
    auto row = csv_row(gpu);
    for (const auto& level : levels) {
        const std::string prefix = level["name"] == "L1" ? "l1_" : "l2_";
        EXPECT_EQ(row[prefix + "ways"], std::to_string(level["config"]["ways"].get<std::uint64_t>())) << prefix;
        EXPECT_NE(row[prefix + "ways"], "0");
    }
}

}  // namespace
}  // namespace cachesim
