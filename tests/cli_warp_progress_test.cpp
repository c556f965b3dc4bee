// cachesim simulate --warp-progress: when each warp issued every N-th request, worked out by hand
// for two warps in rounds and for one warp under cycle timing; the same file on several threads;
// the end column agreeing with --warp-ends; and bad input (exit code 2, no file).
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

using test::read_file;
using test::run_cachesim;
using test::temp_dir;

const std::string kTwoWarps = "simulate --preset h200 --workload matmul --size 64x1 --depth 4 --block 64 "
                              "--warp-rate-spread 0 --block-start-skip 0 --issue-burst 1 ";

// Two warps of one block on SM 124 (the first wave starts there) in lock step, one request a
// turn: each makes 2 x 4 loads and a store, 9 requests, warp 0 in rounds 0, 2, ..., 16 and warp
// 1 in rounds 1, 3, ..., 17. Every 4th request: k 0, 4, 8 at rounds 2k + warp; every 3rd: k 0,
// 3, 6.
TEST(CliWarpProgress, RoundsOfEveryNthRequest) {
    const std::string path = (temp_dir() / "rounds_progress.csv").string();
    auto r = run_cachesim(kTwoWarps + "--warp-progress " + path + " --warp-progress-every 4");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(read_file(path), "block,warp,sm,slot,r0,r4,r8,end_round\n0,0,124,0,0,8,16,17\n0,1,124,1,1,9,17,18\n");
    r = run_cachesim(kTwoWarps + "--warp-progress " + path + " --warp-progress-every 3");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(read_file(path), "block,warp,sm,slot,r0,r3,r6,end_round\n0,0,124,0,0,6,12,17\n0,1,124,1,1,7,13,18\n");
}

// One warp of the matmul 32x1, depth 4, its loads one at a time, a miss taking 100 cycles and a
// hit 10 (as cli_warp_ends_test.cpp works out): A0 at 0, B0 at 100, A1 at 200, B1 at 210, A2 at
// 310, B2 at 320, A3 at 420, B3 at 430, and the store, which needs every load, when B3's data
// arrives at 530.
TEST(CliWarpProgress, CyclesOfEveryRequest) {
    const std::string path = (temp_dir() / "cycles_progress.csv").string();
    const auto r = run_cachesim("simulate --preset h200 --workload matmul --size 32x1 --depth 4 --block 32 "
                                "--timing cycles --issue-burst 1 --lat-l1-miss 100 --lat-l1-hit 10 "
                                "--warp-progress-every 1 --warp-progress " + path);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(read_file(path), "block,warp,sm,slot,r0,r1,r2,r3,r4,r5,r6,r7,r8,end_cycle\n"
                               "0,0,124,0,0,100,200,210,310,320,420,430,530,531\n");
}

// A launch of several waves with the preset's rates: the same file on one thread and on three,
// one row per warp, and each warp's end the one --warp-ends writes for it.
TEST(CliWarpProgress, SameOnThreadsAndEndsAgreeWithWarpEnds) {
    const std::string one = (temp_dir() / "progress_one.csv").string();
    const std::string three = (temp_dir() / "progress_three.csv").string();
    const std::string ends = (temp_dir() / "progress_ends.csv").string();
    const std::string launch = "simulate --preset h200 --sms 4 --workload matmul --size 256x64 --depth 64 --block 128 ";
    auto r = run_cachesim(launch + "--threads 1 --warp-progress " + one + " --warp-ends " + ends);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = run_cachesim(launch + "--threads 3 --warp-progress " + three);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string progress = read_file(one);
    EXPECT_EQ(progress, read_file(three));
    // 256 x 64 threads in blocks of 128: 128 blocks of 4 warps, 129 requests each (samples at 0 and 128).
    std::istringstream rows(progress), end_rows(read_file(ends));
    std::string line, end_line;
    std::getline(rows, line);
    EXPECT_EQ(line, "block,warp,sm,slot,r0,r128,end_round");
    std::getline(end_rows, end_line);
    int count = 0;
    while (std::getline(rows, line) && std::getline(end_rows, end_line)) {
        ++count;
        // block,warp,sm,slot are the same, and the end is each file's last field
        const auto fields = [](const std::string& text) {
            std::vector<std::string> out;
            std::stringstream in(text);
            for (std::string f; std::getline(in, f, ',');) out.push_back(f);
            return out;
        };
        const auto p = fields(line), e = fields(end_line);
        ASSERT_EQ(p.size(), 7u) << line;
        ASSERT_EQ(e.size(), 5u) << end_line;
        for (int i = 0; i < 4; ++i) EXPECT_EQ(p[i], e[i]) << line;
        EXPECT_EQ(p[6], e[4]) << line;
        EXPECT_LT(std::stoull(p[4]), std::stoull(p[5])) << line;
        EXPECT_LT(std::stoull(p[5]), std::stoull(p[6])) << line;
    }
    EXPECT_EQ(count, 128 * 4);
}

TEST(CliWarpProgress, BadInputLeavesNoFile) {
    const std::string path = (temp_dir() / "bad_progress.csv").string();
    std::filesystem::remove(path);
    struct Case {
        std::string args, message;
    };
    const Case cases[] = {
        {"simulate --model gpu --warp-progress-every 0 --warp-progress " + path, "--warp-progress-every must be at least 1"},
        {"simulate --warp-progress " + path, "--warp-progress records the GPU model's warps: it needs --model gpu"},
        {"simulate --model gpu --warp-progress /nonexistent/dir/p.csv", "--warp-progress /nonexistent/dir/p.csv: cannot write"},
    };
    for (const Case& c : cases) {
        const auto r = run_cachesim(c.args);
        EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.err;
        EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << "\nstderr: " << r.err;
        EXPECT_FALSE(std::filesystem::exists(path)) << c.args;
    }
}

}  // namespace
}  // namespace cachesim
