// cachesim sweep over the GPU model: --block and the other GPU options take lists like any other
// simulate option, and each row carries its configuration's launch parameters.
#include <gtest/gtest.h>

#include "apps/cachesim/sweep_results.hpp"
#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

TEST(CliSweepGpu, BlockSizesAndSchedulesCrossProduct) {
    const auto r = test::run_cachesim(
        "sweep -q --model gpu --size 128x64 --stencil 3x3 --schedule linear,column:16 --block 64,256");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto rows = cli::parse_csv(r.out);
    ASSERT_EQ(rows.size(), 5u);
    const auto& header = rows[0];
    const std::size_t block = static_cast<std::size_t>(std::find(header.begin(), header.end(), "block") - header.begin());
    const std::size_t schedule = static_cast<std::size_t>(std::find(header.begin(), header.end(), "schedule") - header.begin());
    ASSERT_LT(block, header.size());
    EXPECT_EQ(rows[1][block], "64");
    EXPECT_EQ(rows[2][block], "256");
    EXPECT_EQ(rows[3][schedule], "column:16");
    EXPECT_EQ(rows[4][block], "256");
    // Identical whatever the thread count: no timing columns.
    const auto serial = test::run_cachesim(
        "sweep -q --jobs 1 --model gpu --size 128x64 --stencil 3x3 --schedule linear,column:16 --block 64,256");
    EXPECT_EQ(serial.out, r.out);
    const auto bad = test::run_cachesim("sweep -q --model gpu --size 128x64 --block 64,2048");
    EXPECT_EQ(bad.exit_code, 2) << bad.err;
}

// --jobs and --threads both given are obeyed, with a warning (even under -q) when they ask for more
// threads than cores; the CSV is that of one job on one thread. (The default split of the cores is
// tested in sweep_work_progress_test.cpp.)
TEST(CliSweepGpu, JobsTimesThreadsOverTheCoresIsAWarning) {
    const std::string sweep = "sweep -q --model gpu --sms 4 --size 256x128 --stencil 3x3 --block 64,128";
    const auto one = test::run_cachesim(sweep + " --jobs 1 --threads 1");
    ASSERT_EQ(one.exit_code, 0) << one.err;
    EXPECT_EQ(one.err.find("warning"), std::string::npos) << one.err;
    const auto many = test::run_cachesim(sweep + " --jobs 2 --threads 512");
    ASSERT_EQ(many.exit_code, 0) << many.err;
    EXPECT_NE(many.err.find("sweep: warning: --jobs 2 x --threads 512 = 1024 threads on"), std::string::npos)
        << many.err;
    EXPECT_EQ(many.out, one.out);
    const auto refused = test::run_cachesim(sweep + " --threads 1025");
    EXPECT_EQ(refused.exit_code, 2) << refused.err;
    EXPECT_NE(refused.err.find("--threads 1025"), std::string::npos) << refused.err;
}

}  // namespace
}  // namespace cachesim
