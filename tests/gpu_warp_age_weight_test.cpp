// Older warps first (GpuConfig::warp_age_weight): the weights' fixed point, each warp's rate as
// its draw times weight^(older live warps on its scheduler), ranks moving up as older warps
// finish, the turns shared in proportion, "auto" by what limits the compiled loop, and the same
// counters on several threads.
#include <gtest/gtest.h>

#include <cmath>

#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "sim/gpu/issue_scheduler.hpp"
#include "sim/gpu/loop_issue_cost.hpp"
#include "sim/gpu/warp_age_weight.hpp"
#include "sim/gpu/warp_rate.hpp"
#include "sim/gpu/warp_slots.hpp"
#include "sim/thread_model.hpp"
#include "tests/csv_table.hpp"
#include "tests/gpu_same_result.hpp"
#include "tests/gpu_test_util.hpp"

namespace cachesim {
namespace {

constexpr std::uint64_t kOne = 1ull << 32;

TEST(GpuWarpAgeWeight, WeightsArePowersInFixedPoint) {
    WarpAgeWeights weights;
    weights.configure(0.5, 1, 3);
    ASSERT_TRUE(weights.on());
    EXPECT_EQ(weights.apply(kOne, 0), kOne);
    EXPECT_EQ(weights.apply(kOne, 1), kOne / 2);
    EXPECT_EQ(weights.apply(kOne, 3), kOne / 8);
    EXPECT_EQ(weights.apply(kOne / 4, 2), kOne / 16);
    EXPECT_EQ(weights.apply(3, 3), 1u);  // never 0: every warp still moves
    weights.configure(1, 1, 3);
    EXPECT_FALSE(weights.on());
}

// A group of the three oldest: ranks 0-2 at their drawn rates, rank 3 at the weight, rank 4 at
// its square; a group holding every rank weighs none.
TEST(GpuWarpAgeWeight, AGroupOfTheOldestKeepsItsRates) {
    WarpAgeWeights weights;
    weights.configure(0.5, 3, 4);
    ASSERT_TRUE(weights.on());
    for (std::uint32_t rank : {0u, 1u, 2u}) EXPECT_EQ(weights.apply(kOne, rank), kOne) << rank;
    EXPECT_EQ(weights.apply(kOne, 3), kOne / 2);
    EXPECT_EQ(weights.apply(kOne, 4), kOne / 4);
    weights.configure(0.5, 5, 4);
    EXPECT_FALSE(weights.on());
}

// One SM holding `resident` blocks of `block` threads; rates kept for life, no skips, one request
// a turn, `schedulers` warp schedulers, every older warp weighing.
GpuConfig one_sm(double weight, std::uint32_t block, std::uint32_t resident, std::uint32_t schedulers) {
    GpuConfig c = with_sms(find_gpu_preset("h200")->config, 1);
    c.block = block;
    c.max_blocks_per_sm = resident;
    c.warp_rate_redraw = 0;
    c.block_start_skip = 0;
    c.issue_burst = 1;
    c.schedulers_per_sm = schedulers;
    c.warp_age_weight = weight;
    c.warp_age_group = 1;  // every older warp weighs; the group has its own test
    return c;
}

// The expected rate: the draw (warp_issue_credit) times weight^behind, where `behind` is the
// warp's rank past the group (its rank when the group is 1), worked out here in doubles (the
// weights are powers of two, so exactly).
std::uint64_t expected_rate(const GpuConfig& c, std::uint64_t block, std::uint32_t warp, std::uint32_t behind) {
    const double draw = static_cast<double>(warp_issue_credit(c, block, warp));
    return static_cast<std::uint64_t>(std::floor(draw * std::pow(c.warp_age_weight, behind)));
}

// One scheduler: the rank is the number of older live warps on the SM.
TEST(GpuWarpAgeWeight, RatesFallWithTheOlderWarpsAndRiseWhenTheyFinish) {
    const GpuConfig c = one_sm(0.5, 32, 3, 1);
    const WorkloadSpec spec = test::stencil(32, 5, 3);  // 5 blocks of one warp, 10 requests each
    const GpuOccupancy occupancy = gpu_occupancy(c);
    ASSERT_EQ(occupancy.blocks_per_sm, 3u);
    WarpSlots slots(spec, c, 3);
    IssueScheduler scheduler(c, occupancy, slots, 5, 1, c.warp_age_weight);
    scheduler.first_wave();
    for (std::uint32_t s = 0; s < 3; ++s) {
        ASSERT_EQ(slots[s].block, s);
        EXPECT_EQ(slots[s].rate, expected_rate(c, s, 0, s)) << "block " << s;
    }
    std::size_t freed = 0;  // run until a warp (its block) finishes
    for (bool finished = false; !finished;) {
        freed = scheduler.pick(0);
        finished = scheduler.retire(0, freed, false);
    }
    for (std::size_t s = 0; s < 3; ++s) {  // the others' ranks: their older warps still live
        if (s == freed) continue;
        std::uint32_t older = 0;
        for (std::size_t o = 0; o < 3; ++o) older += o != freed && slots[o].block < slots[s].block;
        EXPECT_EQ(slots[s].rate, expected_rate(c, slots[s].block, 0, older)) << "block " << slots[s].block;
    }
    scheduler.dispatch_next(0);
    EXPECT_EQ(slots[freed].block, 3u);
    EXPECT_EQ(slots[freed].rate, expected_rate(c, 3, 0, 2));  // the youngest of three
}

// A group of two: the two oldest warps at their draws, the third at the weight; when the oldest
// finishes, the third moves into the group and the block dispatched in its place is the one left out.
TEST(GpuWarpAgeWeight, TheGroupTakesInTheNextOldestWhenOneFinishes) {
    GpuConfig c = one_sm(0.5, 32, 3, 1);
    c.warp_age_group = 2;
    const WorkloadSpec spec = test::stencil(32, 5, 3);
    WarpSlots slots(spec, c, 3);
    IssueScheduler scheduler(c, gpu_occupancy(c), slots, 5, 1, c.warp_age_weight);
    scheduler.first_wave();
    EXPECT_EQ(slots[0].rate, expected_rate(c, 0, 0, 0));
    EXPECT_EQ(slots[1].rate, expected_rate(c, 1, 0, 0));
    EXPECT_EQ(slots[2].rate, expected_rate(c, 2, 0, 1));
    std::size_t freed = 0;
    for (bool finished = false; !finished;) {
        freed = scheduler.pick(0);
        finished = scheduler.retire(0, freed, false);
    }
    for (std::size_t s = 0; s < 3; ++s) {
        if (s == freed) continue;
        EXPECT_EQ(slots[s].rate, expected_rate(c, slots[s].block, 0, 0)) << "block " << slots[s].block;
    }
    scheduler.dispatch_next(0);
    EXPECT_EQ(slots[freed].rate, expected_rate(c, 3, 0, 1));
}

// Two schedulers and blocks of two warps: warp slots 0 and 2 share scheduler 0, 1 and 3 scheduler
// 1, so each warp of the second block has one older warp on its scheduler, whatever the other's.
TEST(GpuWarpAgeWeight, RanksCountTheWarpsOfTheSameScheduler) {
    const GpuConfig c = one_sm(0.5, 64, 2, 2);
    const WorkloadSpec spec = test::stencil(64, 2, 3);  // 2 blocks of two warps
    const GpuOccupancy occupancy = gpu_occupancy(c);
    WarpSlots slots(spec, c, 4);
    IssueScheduler scheduler(c, occupancy, slots, 2, 1, c.warp_age_weight);
    scheduler.first_wave();
    EXPECT_EQ(slots[0].rate, expected_rate(c, 0, 0, 0));
    EXPECT_EQ(slots[1].rate, expected_rate(c, 0, 1, 0));
    EXPECT_EQ(slots[2].rate, expected_rate(c, 1, 0, 1));
    EXPECT_EQ(slots[3].rate, expected_rate(c, 1, 1, 1));
}

// One scheduler and blocks of two warps: a block's warps keep one pace (on the H200 a block's
// warps end within a microsecond of each other, stragglers too: tests/data/h200/issue_cost/
// knee_ends_index32.csv.gz, 768x768 at block 256), so the rank counts the older blocks' warps
// only: block 0's two warps rank 0, block 1's both rank 2 (not 0, 1, 2 and 3); when one of block
// 0's warps finishes, block 1's warps move up to rank 1 together.
TEST(GpuWarpAgeWeight, ABlocksWarpsShareTheirRank) {
    const GpuConfig c = one_sm(0.5, 64, 2, 1);
    const WorkloadSpec spec = test::stencil(64, 3, 3);  // 3 blocks of two warps
    const GpuOccupancy occupancy = gpu_occupancy(c);
    ASSERT_EQ(occupancy.blocks_per_sm, 2u);
    WarpSlots slots(spec, c, 4);
    IssueScheduler scheduler(c, occupancy, slots, 3, 1, c.warp_age_weight);
    scheduler.first_wave();
    EXPECT_EQ(slots[0].rate, expected_rate(c, 0, 0, 0));
    EXPECT_EQ(slots[1].rate, expected_rate(c, 0, 1, 0));
    EXPECT_EQ(slots[2].rate, expected_rate(c, 1, 0, 2));
    EXPECT_EQ(slots[3].rate, expected_rate(c, 1, 1, 2));
    std::size_t freed = 0;  // run until the first warp finishes (block 0's, the faster block)
    while (true) {
        freed = scheduler.pick(0);
        if (slots[freed].k + 1 == slots[freed].requests) break;
        scheduler.retire(0, freed, false);
    }
    ASSERT_LT(freed, 2u);
    scheduler.retire(0, freed, false);
    EXPECT_EQ(slots[2].rate, expected_rate(c, 1, 0, 1));
    EXPECT_EQ(slots[3].rate, expected_rate(c, 1, 1, 1));
}

// A warp's share of the SM's turns is its rate's share: with rates near 1 and weight 0.5, the
// older of two warps on one scheduler issues two requests for each of the younger's.
TEST(GpuWarpAgeWeight, TurnsAreSharedInProportion) {
    GpuConfig c = one_sm(0.5, 32, 2, 1);
    c.warp_rate_spread = 1e-6;  // rates within a millionth of 1
    const WorkloadSpec spec = test::stencil(32, 2, 15);  // 2 blocks of one warp, 226 requests each
    const GpuOccupancy occupancy = gpu_occupancy(c);
    WarpSlots slots(spec, c, 2);
    IssueScheduler scheduler(c, occupancy, slots, 2, 1, c.warp_age_weight);
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

TEST(GpuWarpAgeWeight, AutoWeighsLoopsAPipeLimits) {
    GpuConfig c = find_gpu_preset("h200")->config;
    EXPECT_EQ(c.warp_age_weight, kWarpAgeWeightAuto);
    const WorkloadSpec matmul = test::matmul(64, 64, 64), stencil9 = test::stencil(64, 64, 9),
                       stencil3 = test::stencil(64, 64, 3);
    c.compilation = KernelCompilation::index64;  // issue-bound loops
    EXPECT_EQ(warp_age_weight_for(c, &matmul), 1.0);
    EXPECT_EQ(warp_age_weight_for(c, &stencil9), 1.0);
    c.compilation = KernelCompilation::index32;  // the 32-bit multiply-adds on the fmaheavy pipe
    EXPECT_EQ(warp_age_weight_for(c, &matmul), kPipeBoundWarpAgeWeight);
    EXPECT_EQ(warp_age_weight_for(c, &stencil9), kPipeBoundWarpAgeWeight);
    EXPECT_EQ(warp_age_weight_for(c, &stencil3), 1.0);
    c.compilation = KernelCompilation::unroll1;
    EXPECT_EQ(warp_age_weight_for(c, &matmul), 1.0);
    EXPECT_EQ(warp_age_weight_for(c, nullptr), 1.0);  // a recorded kernel: its loop is not measured
    c.warp_age_weight = 0.7;
    EXPECT_EQ(warp_age_weight_for(c, &matmul), 0.7);
    EXPECT_EQ(find_gpu_preset("v100")->config.warp_age_weight, 1.0);
}

// The presets' group and weight are what scripts/warp_age_measure.py found in the chip's warp
// ends (its summary row), not values chosen elsewhere.
TEST(GpuWarpAgeWeight, PresetsTakeTheMeasuredGroupAndWeight) {
    const test::CsvTable measured = test::CsvTable::from_file(test::h200_data("issue_cost/warp_age_measure.csv"));
    const std::vector<std::size_t> all = measured.where({{"launch", "all"}});
    ASSERT_EQ(all.size(), 1u);
    for (const char* preset : {"h200", "h100"}) {
        const GpuConfig c = find_gpu_preset(preset)->config;
        EXPECT_EQ(c.warp_age_group, static_cast<std::uint32_t>(measured.number(all[0], "group"))) << preset;
        EXPECT_EQ(c.warp_age_weight, kWarpAgeWeightAuto) << preset;
    }
    EXPECT_NEAR(kPipeBoundWarpAgeWeight, measured.number(all[0], "weight"), 5e-4);  // the CSV's 3 decimals
    EXPECT_EQ(find_gpu_preset("v100")->config.warp_age_group, 1u);
}

TEST(GpuWarpAgeWeight, OutOfRangeIsRefused) {
    GpuConfig c = find_gpu_preset("h200")->config;
    for (double bad : {-0.5, 1.5}) {
        c.warp_age_weight = bad;
        EXPECT_THROW(validate(c), SimulationError) << bad;
    }
    c.warp_age_weight = 1;
    EXPECT_NO_THROW(validate(c));
    for (std::uint32_t bad : {0u, 65u}) {
        c.warp_age_group = bad;
        EXPECT_THROW(validate(c), SimulationError) << bad;
    }
    c.warp_age_group = 1;
    c.schedulers_per_sm = 0;
    EXPECT_THROW(validate(c), SimulationError);
}

// The weights change the picks, which the run on several threads plans ahead: the same counters.
TEST(GpuWarpAgeWeight, SameCountersOnSeveralThreads) {
    GpuConfig c = with_sms(find_gpu_preset("h200")->config, 6);
    c.warp_age_weight = 0.8;
    test::expect_same_on_threads(test::matmul(256, 192, 256), c, {2u, 3u});
}

// Older warps first change when sharers meet, never what is accessed.
TEST(GpuWarpAgeWeight, ChangesHitsNotAccesses) {
    GpuConfig c = with_sms(find_gpu_preset("h200")->config, 4);
    const WorkloadSpec spec = test::matmul(256, 256, 256);
    c.warp_age_weight = 1;
    const GpuResult plain = simulate_gpu_model(spec, c, RunControl{});
    c.warp_age_weight = 0.8;
    test::expect_other_hits_same_accesses(plain, simulate_gpu_model(spec, c, RunControl{}));
}

}  // namespace
}  // namespace cachesim
