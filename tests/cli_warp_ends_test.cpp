// cachesim simulate --warp-ends: when each warp's last data arrived under cycle timing, worked out
// by hand for one warp; the round of each warp's last request in rounds, by hand for two warps;
// one row per warp of a launch; and bad input (exit code 2, no file).
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
// A3 420-430, B3 430-530; the store waits for nothing. The preset's first wave starts
// with the turn of the TPCs at SMs 124-131, before the first row: block 0 runs on SM 124.
TEST(CliWarpEnds, OneWarpEndsWhenItsLastLoadArrives) {
    const std::string path = (temp_dir() / "one_warp_ends.csv").string();
    const auto r = run_cachesim("simulate --preset h200 --workload matmul --size 32x1 --depth 4 --block 32 "
                                "--timing cycles --issue-burst 1 --lat-l1-miss 100 --lat-l1-hit 10 --warp-ends " +
                                path);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(read_file(path), "block,warp,sm,slot,end_cycle\n0,0,124,0,530\n");
}

// Rounds: two warps of one block on SM 124 (the first wave starts there), in lock step (no rate
// spread, no start skip), one request a turn. Each makes 2 x 4 loads and a store, 9 requests,
// alternating: warp 0 in rounds 0, 2, ..., 16 and warp 1 in rounds 1, 3, ..., 17, so they end
// after rounds 16 and 17.
TEST(CliWarpEnds, RoundsEndAfterTheLastRequest) {
    const std::string path = (temp_dir() / "rounds_ends.csv").string();
    const auto r = run_cachesim("simulate --preset h200 --workload matmul --size 64x1 --depth 4 --block 64 "
                                "--warp-rate-spread 0 --block-start-skip 0 --issue-burst 1 --warp-ends " + path);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(read_file(path), "block,warp,sm,slot,end_round\n0,0,124,0,17\n0,1,124,1,18\n");
    // With bursts of a loop iteration (32 requests, more than a warp has), warp 0 issues all 9 first.
    const auto burst = run_cachesim("simulate --preset h200 --workload matmul --size 64x1 --depth 4 --block 64 "
                                    "--warp-rate-spread 0 --block-start-skip 0 --issue-burst 32 --threads 2 "
                                    "--warp-ends " + path);
    ASSERT_EQ(burst.exit_code, 0) << burst.err;
    EXPECT_EQ(read_file(path), "block,warp,sm,slot,end_round\n0,0,124,0,9\n0,1,124,1,18\n");
}

// The same warp with --lat-dram 300: nothing was read before, and the launch is shorter than a
// chunk of cycles, so every L1 miss comes from DRAM. A0 0-300, B0 300-600, A1 600-610, B1 610-910,
// A2 910-920, B2 920-1220, A3 1220-1230, B3 1230-1530.
TEST(CliWarpEnds, ColdMissesWaitForDram) {
    const std::string path = (temp_dir() / "dram_ends.csv").string();
    const auto r = run_cachesim("simulate --preset h200 --workload matmul --size 32x1 --depth 4 --block 32 "
                                "--timing cycles --issue-burst 1 --lat-l1-miss 100 --lat-l1-hit 10 --lat-dram 300 "
                                "--warp-ends " + path);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(read_file(path), "block,warp,sm,slot,end_cycle\n0,0,124,0,1530\n");
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
    // a measured timeline of the 32x2 launch: its ends are measured, not the model's
    const std::string timeline = (temp_dir() / "ends_timeline.csv").string();
    std::ofstream(timeline) << "kernel,width,height,stencil_w,stencil_h,depth,schedule,block_size,launch,block,warp,"
                               "sm,slot,start_ns,end_ns\nmatmul,32,2,0,0,4,linear,32,0,0,0,0,0,0,90\n"
                               "matmul,32,2,0,0,4,linear,32,0,1,0,0,1,0,90\n";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"simulate --preset h200 --workload matmul --size 32x2 --depth 4 --block 32 --warp-times " + timeline +
             " --warp-ends " + path,
         "--warp-times"},
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
