// Blocks start up to a few turns late (GpuConfig::block_start_skip): the skip's draw, the round
// robin passing a late warp over on its own, and a hand-worked issue order on one SM.
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>
#include <vector>

#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "sim/gpu/loose_round_robin.hpp"
#include "tests/gpu_issue_order.hpp"
#include "tests/gpu_test_util.hpp"

namespace cachesim {
namespace {

using test::Issued;

std::vector<Issued> issue_order(const WorkloadSpec& spec, const GpuConfig& c) {
    return test::issued(test::issue_log_on_one_sm(spec, c));
}

GpuConfig base() {
    GpuConfig c = find_gpu_preset("h200")->config;
    c.block_start_skip = 0;
    return c;
}

// Three warps, the middle one with two turns to skip: each pass over it uses one up, and the
// others go on meanwhile: 0 2 | 0 2 | 0 1 2.
TEST(GpuBlockStartSkip, TheRoundRobinPassesALateWarpOver) {
    std::vector<WarpSlot> w(3);
    for (WarpSlot& s : w) s.lanes = 32;
    w[1].skip = 2;
    std::uint32_t last = 2;
    std::vector<std::uint32_t> order;
    for (int i = 0; i < 7; ++i) order.push_back(pick_round_robin(w.data(), 3, last));
    const std::vector<std::uint32_t> want = {0, 2, 0, 2, 0, 1, 2};
    EXPECT_EQ(order, want);
    EXPECT_EQ(w[1].skip, 0u);
}

// Empty slots are passed over without using anything up.
TEST(GpuBlockStartSkip, EmptySlotsAreNotTurns) {
    std::vector<WarpSlot> w(4);
    w[1].lanes = w[3].lanes = 32;
    w[0].skip = 5;  // empty: its skip is never touched
    std::uint32_t last = 3;
    std::vector<std::uint32_t> order;
    for (int i = 0; i < 4; ++i) order.push_back(pick_round_robin(w.data(), 4, last));
    const std::vector<std::uint32_t> want = {1, 3, 1, 3};
    EXPECT_EQ(order, want);
    EXPECT_EQ(w[0].skip, 5u);
}

// The skip is drawn per block, uniform over 0..N, and the same for every warp of the block.
TEST(GpuBlockStartSkip, BlockStartSkipsAreUniformPerBlock) {
    GpuConfig c = base();
    EXPECT_EQ(block_start_skip_turns(c, 5), 0u);  // 0: no skip
    c.block_start_skip = 3;
    std::vector<std::uint32_t> count(4, 0);
    for (std::uint64_t block = 0; block < 40000; ++block) {
        const std::uint32_t j = block_start_skip_turns(c, block);
        ASSERT_LE(j, 3u);
        ++count[j];
    }
    for (std::uint32_t n : count) EXPECT_NEAR(n, 10000.0, 400.0);
    GpuConfig other = c;
    other.seed = c.seed + 1;
    std::uint32_t differ = 0;
    for (std::uint64_t block = 0; block < 100; ++block)
        differ += block_start_skip_turns(c, block) != block_start_skip_turns(other, block);
    EXPECT_GT(differ, 50u);  // another seed, other draws
}

// Two blocks of one warp on one SM, the second drawn to skip one turn: it is passed over once,
// so the first block's warp issues twice in a row at the start, and then they alternate.
TEST(GpuBlockStartSkip, ASkippingBlockIsPassedOverOnItsFirstTurns) {
    GpuConfig c = base();
    c.block = 32;
    c.max_blocks_per_sm = 2;
    c.issue_burst = 1;
    c.block_start_skip = 1;
    for (c.seed = 1; !(block_start_skip_turns(c, 0) == 0 && block_start_skip_turns(c, 1) == 1); ++c.seed)
        ASSERT_LT(c.seed, 1000u);
    const WorkloadSpec spec = test::stencil(64, 1, 1);  // two warps, 2 requests each
    const std::vector<Issued> want = {{0, 0, 0}, {0, 0, 1}, {1, 0, 0}, {1, 0, 1}};
    EXPECT_EQ(issue_order(spec, c), want);
    c.block_start_skip = 0;  // both start at once and alternate
    const std::vector<Issued> together = {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}, {1, 0, 1}};
    EXPECT_EQ(issue_order(spec, c), together);
}

}  // namespace
}  // namespace cachesim
