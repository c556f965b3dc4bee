// cachesim sweep end to end: rows equal simulate's CSV rows, parallel equals serial, the heat
// map is a PNG, bad input exits 2 before anything is written.
#include <gtest/gtest.h>

#include <filesystem>

#include "apps/cachesim/sweep_results.hpp"
#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

using test::run_cachesim;

const std::string kSweep =
    "sweep -q --size 48x32 --stencil 3x3 --schedule linear,column:4,tiled:8x4 --l1-size 512..2K*2 --l1-line 32 "
    "--l1-ways 4 --l2-size 8K --l2-ways 8";

std::string path(const std::string& name) { return (test::temp_dir() / name).string(); }

TEST(CliSweep, EachRowEqualsSimulateCsvForThatConfiguration) {
    const auto r = run_cachesim(kSweep);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto rows = cli::parse_csv(r.out);
    ASSERT_EQ(rows.size(), 1u + 9u);
    EXPECT_EQ(rows[0][0], "sweep_config");
    for (std::size_t i : {std::size_t{1}, std::size_t{5}, std::size_t{9}}) {
        const auto simulate = run_cachesim("simulate --format csv " + rows[i][0]);
        ASSERT_EQ(simulate.exit_code, 0) << simulate.err;
        const auto expected = cli::parse_csv(simulate.out);
        ASSERT_EQ(expected.size(), 2u);
        EXPECT_EQ(std::vector<std::string>(rows[0].begin() + 1, rows[0].end()), expected[0]);
        EXPECT_EQ(std::vector<std::string>(rows[i].begin() + 1, rows[i].end()), expected[1]) << rows[i][0];
    }
    // The options by name, not in the order the sweep gave them, each value as the run reads it
    // (8K is 8 * 1024 = 8192 bytes), so that every spelling of one configuration gives one row.
    EXPECT_EQ(rows[1][0], "--l1-line=32 --l1-size=512 --l1-ways=4 --l2-size=8192 --l2-ways=8 --schedule=linear "
                          "--size=48x32 --stencil=3x3");
}

TEST(CliSweep, ParallelOutputIsIdenticalToSerial) {
    const auto serial = run_cachesim(kSweep + " --l1-policy random,lru --jobs 1");
    const auto parallel = run_cachesim(kSweep + " --l1-policy random,lru --jobs 4");
    ASSERT_EQ(serial.exit_code, 0) << serial.err;
    EXPECT_EQ(serial.out, parallel.out);
}

TEST(CliSweep, WritesCsvAndHeatMapAtomically) {
    const std::string csv = path("sweep.csv"), png = path("sweep.png");
    const auto r = run_cachesim(kSweep + " -o " + csv + " --plot " + png + " --plot-value l2_hits");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(cli::parse_csv(test::read_file(csv)).size(), 10u);
    const std::string image = test::read_file(png);
    ASSERT_GT(image.size(), 8u);
    EXPECT_EQ(image.substr(1, 3), "PNG");
    EXPECT_FALSE(std::filesystem::exists(csv + ".partial"));
}

TEST(CliSweep, BadInputExitsTwoBeforeWritingAnything) {
    const std::string csv = path("bad.csv");
    for (const std::string& args :
         {"sweep --l1-size 1K..512 -o " + csv, "sweep --schedule linear,column:0 -o " + csv,
          "sweep --l1-colour red -o " + csv, "sweep --l1-ways 3 --l1-size 1K,2K -o " + csv,
          "sweep --l1-size 1K,2K --plot " + path("p.png") + " --plot-x schedule -o " + csv,
          "sweep --l1-size 1K,2K --plot " + path("p.png") + " --plot-value model -o " + csv}) {
        const auto r = run_cachesim(args);
        EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
        EXPECT_NE(r.err.find("error"), std::string::npos) << r.err;
    }
    EXPECT_FALSE(std::filesystem::exists(csv));
}

}  // namespace
}  // namespace cachesim
