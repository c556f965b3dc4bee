// cachesim simulate --warp-ends: when each warp's last data arrived under cycle timing, worked out
// by hand for one warp, one row per warp of a launch, and bad input (exit code 2, no file).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

using test::run_cachesim;
using test::temp_dir;

std::string read_file(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// One warp of the matmul 32x1, depth 4, its loads one at a time (--issue-burst 1), a miss taking
// 100 cycles and a hit 10: A's row is one sector (k 0 misses, k 1-3 hit), each B row a line of
// its own (all miss). A0 0-100, B0 100-200, A1 200-210, B1 210-310, A2 310-320, B2 320-420,
// A3 420-430, B3 430-530; the store waits for nothing. The preset's first wave starts at SM 0.
TEST(CliWarpEnds, OneWarpEndsWhenItsLastLoadArrives) {
    const std::string path = (temp_dir() / "one_warp_ends.csv").string();
    const auto r = run_cachesim("simulate --preset h200 --workload matmul --size 32x1 --depth 4 --block 32 "
                                "--timing cycles --issue-burst 1 --lat-l1-miss 100 --lat-l1-hit 10 --warp-ends " +
                                path);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(read_file(path), "block,warp,sm,slot,end_cycle\n0,0,0,0,530\n");
}

// 64x4 in blocks of 64 threads: 4 blocks of 2 warps, one row each, in launch order.
TEST(CliWarpEnds, OneRowPerWarpInLaunchOrder) {
    const std::string path = (temp_dir() / "launch_ends.csv").string();
    const auto r = run_cachesim("simulate --preset h200 --workload matmul --size 64x4 --depth 8 --block 64 "
                                "--timing cycles --warp-ends " + path);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::istringstream lines(read_file(path));
    std::string line;
    std::getline(lines, line);
    EXPECT_EQ(line, "block,warp,sm,slot,end_cycle");
    int rows = 0;
    while (std::getline(lines, line)) {
        const std::string expected_ids = std::to_string(rows / 2) + "," + std::to_string(rows % 2) + ",";
        EXPECT_EQ(line.rfind(expected_ids, 0), 0u) << line;
        EXPECT_GT(std::stoull(line.substr(line.rfind(',') + 1)), 0u) << line;
        ++rows;
    }
    EXPECT_EQ(rows, 8);
}

TEST(CliWarpEnds, BadInputExitsTwoAndWritesNothing) {
    const std::string path = (temp_dir() / "never_written.csv").string();
    std::filesystem::remove(path);
    const std::string launch = " --workload matmul --size 64x4 --depth 8 --block 64 --warp-ends ";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"simulate --preset h200" + launch + path, "--timing cycles"},                      // rounds have no cycles
        {"simulate --timing cycles" + launch + path, "--model gpu"},                         // the thread model
        {"simulate --preset h200 --timing cycles" + launch + "/no/such/dir/ends.csv", "cannot write"},
    };
    for (const auto& [args, message] : cases) {
        const auto r = run_cachesim(args);
        EXPECT_EQ(r.exit_code, 2) << args;
        EXPECT_NE(r.err.find(message), std::string::npos) << args << "\n" << r.err;
    }
    EXPECT_FALSE(std::filesystem::exists(path));
}

}  // namespace
}  // namespace cachesim
