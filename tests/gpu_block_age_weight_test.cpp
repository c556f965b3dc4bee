// Older blocks first (GpuConfig::block_age_weight): the weights' fixed point, each warp's rate as
// its draw times weight^(older live blocks on its SM), ranks moving up as older blocks finish, the
// turns shared in proportion, "auto" by what limits the compiled loop, and the same counters on
// several threads.
#include <gtest/gtest.h>

#include <cmath>

#include "sim/gpu/block_age_weight.hpp"
#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "sim/gpu/issue_scheduler.hpp"
#include "sim/gpu/loop_issue_cost.hpp"
#include "sim/gpu/warp_rate.hpp"
#include "sim/gpu/warp_slots.hpp"
#include "sim/thread_model.hpp"
#include "tests/gpu_same_result.hpp"
#include "tests/gpu_test_util.hpp"

namespace cachesim {
namespace {

constexpr std::uint64_t kOne = 1ull << 32;

TEST(GpuBlockAgeWeight, WeightsArePowersInFixedPoint) {
    BlockAgeWeights weights;
    weights.configure(0.5, 3);
    ASSERT_TRUE(weights.on());
    EXPECT_EQ(weights.apply(kOne, 0), kOne);
    EXPECT_EQ(weights.apply(kOne, 1), kOne / 2);
    EXPECT_EQ(weights.apply(kOne, 3), kOne / 8);
    EXPECT_EQ(weights.apply(kOne / 4, 2), kOne / 16);
    EXPECT_EQ(weights.apply(3, 3), 1u);  // never 0: every warp still moves
    weights.configure(1, 3);
    EXPECT_FALSE(weights.on());
}

// One SM holding three blocks of one warp each; rates kept for life, no skips, one request a turn.
GpuConfig three_resident(double weight) {
    GpuConfig c = with_sms(find_gpu_preset("h200")->config, 1);
    c.block = 32;
    c.max_blocks_per_sm = 3;
    c.warp_rate_redraw = 0;
    c.block_start_skip = 0;
    c.issue_burst = 1;
    c.block_age_weight = weight;
    return c;
}

// The expected rate: the draw (warp_issue_credit) times weight^rank, worked out here in doubles.
std::uint64_t expected_rate(const GpuConfig& c, std::uint64_t block, std::uint32_t rank) {
    const double draw = static_cast<double>(warp_issue_credit(c, block, 0));
    return static_cast<std::uint64_t>(std::floor(draw * std::pow(c.block_age_weight, rank)));
}

TEST(GpuBlockAgeWeight, RatesFallWithTheOlderBlocksAndRiseWhenTheyFinish) {
    const GpuConfig c = three_resident(0.5);
    const WorkloadSpec spec = test::stencil(32, 5, 3);  // 5 blocks of one warp, 10 requests each
    const GpuOccupancy occupancy = gpu_occupancy(c);
    ASSERT_EQ(occupancy.blocks_per_sm, 3u);
    WarpSlots slots(spec, c, 3);
    IssueScheduler scheduler(c, occupancy, slots, 5, 1, c.block_age_weight);
    scheduler.first_wave();
    for (std::uint32_t s = 0; s < 3; ++s) {
        ASSERT_EQ(slots[s].block, s);
        EXPECT_EQ(slots[s].rate, expected_rate(c, s, s)) << "block " << s;
    }
    std::size_t freed = 0;  // run until a block finishes
    for (bool finished = false; !finished;) {
        freed = scheduler.pick(0);
        finished = scheduler.retire(0, freed, false);
    }
    for (std::size_t s = 0; s < 3; ++s) {  // the others' ranks: their older blocks still live
        if (s == freed) continue;
        std::uint32_t older = 0;
        for (std::size_t o = 0; o < 3; ++o) older += o != freed && slots[o].block < slots[s].block;
        EXPECT_EQ(slots[s].rate, expected_rate(c, slots[s].block, older)) << "block " << slots[s].block;
    }
    scheduler.dispatch_next(0);
    EXPECT_EQ(slots[freed].block, 3u);
    EXPECT_EQ(slots[freed].rate, expected_rate(c, 3, 2));  // the youngest of three
}

// A warp's share of the SM's turns is its rate's share: with rates near 1 and weight 0.5, the
// older of two blocks issues two requests for each of the younger's.
TEST(GpuBlockAgeWeight, TurnsAreSharedInProportion) {
    GpuConfig c = three_resident(0.5);
    c.warp_rate_spread = 1e-6;  // rates within a millionth of 1
    c.max_blocks_per_sm = 2;
    const WorkloadSpec spec = test::stencil(32, 2, 15);  // 2 blocks of one warp, 226 requests each
    const GpuOccupancy occupancy = gpu_occupancy(c);
    WarpSlots slots(spec, c, 2);
    IssueScheduler scheduler(c, occupancy, slots, 2, 1, c.block_age_weight);
    scheduler.first_wave();
    std::uint32_t issued[2] = {0, 0};
    for (int round = 0; round < 150; ++round) {
        const std::size_t slot = scheduler.pick(0);
        ++issued[slots[slot].block];
        scheduler.retire(0, slot, false);
    }
    EXPECT_NEAR(issued[0], 100, 1);
    EXPECT_NEAR(issued[1], 50, 1);
}

TEST(GpuBlockAgeWeight, AutoWeighsLoopsAPipeLimits) {
    GpuConfig c = find_gpu_preset("h200")->config;
    EXPECT_EQ(c.block_age_weight, kBlockAgeWeightAuto);
    const WorkloadSpec matmul = test::matmul(64, 64, 64), stencil9 = test::stencil(64, 64, 9),
                       stencil3 = test::stencil(64, 64, 3);
    c.compilation = KernelCompilation::index64;  // issue-bound loops
    EXPECT_EQ(block_age_weight_for(c, &matmul), 1.0);
    EXPECT_EQ(block_age_weight_for(c, &stencil9), 1.0);
    c.compilation = KernelCompilation::index32;  // the 32-bit multiply-adds on the fmaheavy pipe
    EXPECT_EQ(block_age_weight_for(c, &matmul), kPipeBoundBlockAgeWeight);
    EXPECT_EQ(block_age_weight_for(c, &stencil9), kPipeBoundBlockAgeWeight);
    EXPECT_EQ(block_age_weight_for(c, &stencil3), 1.0);
    c.compilation = KernelCompilation::unroll1;
    EXPECT_EQ(block_age_weight_for(c, &matmul), 1.0);
    EXPECT_EQ(block_age_weight_for(c, nullptr), 1.0);  // a recorded kernel: its loop is not measured
    c.block_age_weight = 0.7;
    EXPECT_EQ(block_age_weight_for(c, &matmul), 0.7);
    EXPECT_EQ(find_gpu_preset("v100")->config.block_age_weight, 1.0);
}

TEST(GpuBlockAgeWeight, OutOfRangeIsRefused) {
    GpuConfig c = find_gpu_preset("h200")->config;
    for (double bad : {-0.5, 1.5}) {
        c.block_age_weight = bad;
        EXPECT_THROW(validate(c), SimulationError) << bad;
    }
    c.block_age_weight = 1;
    EXPECT_NO_THROW(validate(c));
}

// The weights change the picks, which the run on several threads plans ahead: the same counters.
TEST(GpuBlockAgeWeight, SameCountersOnSeveralThreads) {
    GpuConfig c = with_sms(find_gpu_preset("h200")->config, 6);
    c.block_age_weight = 0.8;
    test::expect_same_on_threads(test::matmul(256, 192, 256), c, {2u, 3u});
}

// Older blocks first change when sharers meet, never what is accessed.
TEST(GpuBlockAgeWeight, ChangesHitsNotAccesses) {
    GpuConfig c = with_sms(find_gpu_preset("h200")->config, 4);
    const WorkloadSpec spec = test::matmul(256, 256, 256);
    c.block_age_weight = 1;
    const GpuResult plain = simulate_gpu_model(spec, c, RunControl{});
    c.block_age_weight = 0.8;
    const GpuResult aged = simulate_gpu_model(spec, c, RunControl{});
    EXPECT_EQ(plain.ncu.l1_sectors_ld, aged.ncu.l1_sectors_ld);
    EXPECT_EQ(plain.ncu.l1_requests_ld, aged.ncu.l1_requests_ld);
    EXPECT_NE(plain.ncu.l1_sectors_ld_hit, aged.ncu.l1_sectors_ld_hit);
}

}  // namespace
}  // namespace cachesim
