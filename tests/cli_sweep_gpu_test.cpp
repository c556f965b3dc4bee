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

}  // namespace
}  // namespace cachesim
