// A sweep resumed with its values spelled differently (1K and 1024, column:04 and column:4, a range
// and the list it stands for) finds its earlier rows, including those of an output that stored the
// values as they were written.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "apps/cachesim/report.hpp"
#include "apps/cachesim/sweep_results.hpp"
#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

using test::run_cachesim;

const std::string kBase = "sweep -q --size 40x24 --stencil 3x3 --l1-line 32 --l1-ways 2 ";

std::string fresh_csv(const std::string& name) {
    const std::string csv = (test::temp_dir() / name).string();
    std::filesystem::remove(csv);
    return csv;
}

TEST(CliSweepCanonicalKey, OtherSpellingsOfTheSameValuesRunNothingAgain) {
    const std::string csv = fresh_csv("canonical.csv");
    const auto first = run_cachesim(kBase + "--schedule column:04 --l1-size 1K..4K*2 -o " + csv);
    ASSERT_EQ(first.exit_code, 0) << first.err;
    // 1K..4K*2 is 1024, 2048, 4096 (each doubled), and column:04 is column:4: the same 3 rows.
    const auto again = run_cachesim("sweep --size 40x24 --stencil 3x3 --l1-line 32 --l1-ways 2 --schedule column:4 "
                                    "--l1-size 1024,2048,4096 -o " + csv);
    ASSERT_EQ(again.exit_code, 0) << again.err;
    EXPECT_NE(again.err.find("3 already done"), std::string::npos) << again.err;
    EXPECT_EQ(cli::parse_csv(test::read_file(csv)).size(), 1u + 3u);
}

TEST(CliSweepCanonicalKey, AnOutputWithValuesAsWrittenStillResumes) {
    const std::string csv = fresh_csv("as_written.csv");
    const auto first = run_cachesim(kBase + "--l1-size 8K,16K -o " + csv);
    ASSERT_EQ(first.exit_code, 0) << first.err;
    // Rewrite the stored keys as an older output spells them: 8192 bytes written 8K, 16384 written 16K.
    auto rows = cli::parse_csv(test::read_file(csv));
    ASSERT_EQ(rows.size(), 3u);
    std::string old;
    for (auto& row : rows) {
        for (const auto& [read, written] : {std::pair{"=8192", "=8K"}, std::pair{"=16384", "=16K"}}) {
            const std::size_t at = row[0].find(read);
            if (at != std::string::npos) row[0].replace(at, std::string(read).size(), written);
        }
        for (std::size_t i = 0; i < row.size(); ++i) old += (i ? "," : "") + cli::csv_field(row[i]);
        old += "\n";
    }
    ASSERT_NE(old.find("--l1-size=8K"), std::string::npos);
    std::ofstream(csv, std::ios::binary) << old;

    const auto again = run_cachesim("sweep --size 40x24 --stencil 3x3 --l1-line 32 --l1-ways 2 --l1-size 8K,16K,32K -o " + csv);
    ASSERT_EQ(again.exit_code, 0) << again.err;
    EXPECT_NE(again.err.find("2 already done"), std::string::npos) << again.err;
    EXPECT_EQ(cli::parse_csv(test::read_file(csv)).size(), 1u + 3u);  // 8K, 16K kept; 32K added
}

}  // namespace
}  // namespace cachesim
