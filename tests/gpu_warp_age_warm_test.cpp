// Where a block's data comes from picks its age weights (GpuConfig::warp_age_warm_group,
// warp_age_warm_weight): a block that reads from DRAM (by the pass's table, else the first wave
// of a launch whose L2 starts cold) takes the group and weight of warp_age_group /
// warp_age_weight; every other block, and every block of a warm start, reads from the L2 and takes
// the warm ones. "auto" by what limits the loop; the
// same counters on several threads; off by default.
#include <gtest/gtest.h>

#include <cmath>

#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "sim/gpu/issue_scheduler.hpp"
#include "sim/gpu/loop_issue_cost.hpp"
#include "sim/gpu/warp_rate.hpp"
#include "sim/gpu/warp_slots.hpp"
#include "tests/csv_table.hpp"
#include "tests/gpu_same_result.hpp"
#include "tests/gpu_test_util.hpp"

namespace cachesim {
namespace {

// One SM holding three blocks of one warp on one scheduler, rates kept for life, no skips, one
// request a turn; every older warp weighs: 0.5 from DRAM, 0.25 from the L2 (powers of two, so
// that the expected rates below are exact).
GpuConfig one_sm() {
    GpuConfig c = with_sms(find_gpu_preset("h200")->config, 1);
    c.block = 32;
    c.max_blocks_per_sm = 3;
    c.warp_rate_redraw = 0;
    c.block_start_skip = 0;
    c.issue_burst = 1;
    c.schedulers_per_sm = 1;
    c.warp_age_weight = 0.5;
    c.warp_age_group = 1;
    c.warp_age_warm_weight = 0.25;
    c.warp_age_warm_group = 1;
    return c;
}

// The draw (warp_issue_credit) times weight^behind, worked out in doubles.
std::uint64_t expected_rate(const GpuConfig& c, std::uint64_t block, double weight, std::uint32_t behind) {
    const double draw = static_cast<double>(warp_issue_credit(c, block, 0));
    return static_cast<std::uint64_t>(std::floor(draw * std::pow(weight, behind)));
}

// The SM's warp slots and its scheduler after the first wave: `blocks` blocks of one warp, 10
// requests each.
struct OneSm {
    OneSm(const GpuConfig& c, std::uint64_t blocks)
        : spec(test::stencil(32, static_cast<std::uint32_t>(blocks), 3)),
          slots(spec, c, 3),
          scheduler(c, gpu_occupancy(c), slots, blocks, 1, c.warp_age_weight, 0, c.warp_age_warm_weight) {
        scheduler.first_wave();
    }
    WorkloadSpec spec;
    WarpSlots slots;
    IssueScheduler scheduler;
};

// Runs the SM until a block finishes; returns its slot.
std::size_t run_until_a_block_ends(IssueScheduler& scheduler) {
    for (;;) {
        const std::size_t slot = scheduler.pick(0);
        if (scheduler.retire(0, slot, false)) return slot;
    }
}

// Cold start: blocks 0-2 (the first wave) rank 0, 1, 2 at 0.5 per rank; block 3, dispatched
// once one of them ends, is the youngest of three (rank 2) at 0.25 per rank, while the first
// wave's survivors keep the cold weight at their new ranks.
TEST(GpuWarpAgeWarm, LaterBlocksTakeTheWarmWeight) {
    const GpuConfig c = one_sm();
    OneSm sm(c, 5);
    WarpSlots& slots = sm.slots;
    IssueScheduler& scheduler = sm.scheduler;
    for (std::uint32_t s = 0; s < 3; ++s) EXPECT_EQ(slots[s].rate, expected_rate(c, s, 0.5, s)) << s;
    const std::size_t freed = run_until_a_block_ends(scheduler);
    for (std::size_t s = 0; s < 3; ++s) {
        if (s == freed) continue;
        std::uint32_t older = 0;
        for (std::size_t o = 0; o < 3; ++o) older += o != freed && slots[o].block < slots[s].block;
        EXPECT_EQ(slots[s].rate, expected_rate(c, slots[s].block, 0.5, older)) << "block " << slots[s].block;
    }
    scheduler.dispatch_next(0);
    ASSERT_EQ(slots[freed].block, 3u);
    EXPECT_EQ(slots[freed].rate, expected_rate(c, 3, 0.25, 2));
}

// A warm start's measured pass: its first wave reads from the L2 too.
TEST(GpuWarpAgeWarm, AWarmStartsFirstWaveTakesTheWarmWeight) {
    GpuConfig c = one_sm();
    c.pass_l2_warm = true;
    OneSm sm(c, 5);
    for (std::uint32_t s = 0; s < 3; ++s) EXPECT_EQ(sm.slots[s].rate, expected_rate(c, s, 0.25, s)) << s;
}

// The warm group is its own: with a warm group of 2 the youngest of three later blocks is one
// rank past it (0.25), where the cold group of 1 would put it two (0.0625).
TEST(GpuWarpAgeWarm, TheWarmGroupIsItsOwn) {
    GpuConfig c = one_sm();
    c.warp_age_warm_group = 2;
    c.pass_l2_warm = true;
    OneSm sm(c, 3);
    EXPECT_EQ(sm.slots[0].rate, expected_rate(c, 0, 0.25, 0));
    EXPECT_EQ(sm.slots[1].rate, expected_rate(c, 1, 0.25, 0));
    EXPECT_EQ(sm.slots[2].rate, expected_rate(c, 2, 0.25, 1));
}

// A pass's table of the blocks that read from DRAM (GpuConfig::pass_dram_blocks) decides instead
// of the first wave: a first-wave block it names as reading from the L2 takes the warm weight, and
// a later block it names as reading from DRAM the cold one.
TEST(GpuWarpAgeWarm, ThePassTableOfDramBlocksDecides) {
    GpuConfig c = one_sm();
    const std::vector<std::uint8_t> dram = {1, 0, 1, 1, 0};
    c.pass_dram_blocks = &dram;
    OneSm sm(c, 5);
    EXPECT_EQ(sm.slots[0].rate, expected_rate(c, 0, 0.5, 0));
    EXPECT_EQ(sm.slots[1].rate, expected_rate(c, 1, 0.25, 1));
    EXPECT_EQ(sm.slots[2].rate, expected_rate(c, 2, 0.5, 2));
    const std::size_t freed = run_until_a_block_ends(sm.scheduler);
    sm.scheduler.dispatch_next(0);
    ASSERT_EQ(sm.slots[freed].block, 3u);
    EXPECT_EQ(sm.slots[freed].rate, expected_rate(c, 3, 0.5, 2));
}

// Without a warm group every block takes the one weight, whatever warp_age_warm_weight says.
TEST(GpuWarpAgeWarm, NoWarmGroupLeavesTheOneWeight) {
    GpuConfig c = one_sm();
    c.warp_age_warm_group = 0;
    c.pass_l2_warm = true;
    OneSm sm(c, 5);
    for (std::uint32_t s = 0; s < 3; ++s) EXPECT_EQ(sm.slots[s].rate, expected_rate(c, s, 0.5, s)) << s;
    const std::size_t freed = run_until_a_block_ends(sm.scheduler);
    sm.scheduler.dispatch_next(0);
    EXPECT_EQ(sm.slots[freed].rate, expected_rate(c, 3, 0.5, 2));
}

// "auto": the weight the knee probe started warm gave (scripts/warp_age_measure.py's summary row)
// for a loop a pipe limits, 1 for any other; the presets leave the split off.
TEST(GpuWarpAgeWarm, AutoIsTheMeasuredWarmWeightForLoopsAPipeLimits) {
    const test::CsvTable measured =
        test::CsvTable::from_file(test::h200_data("issue_cost/warp_age_measure_warm_index32.csv"));
    const std::vector<std::size_t> all = measured.where({{"launch", "all"}});
    ASSERT_EQ(all.size(), 1u);
    EXPECT_NEAR(kPipeBoundWarmWarpAgeWeight, measured.number(all[0], "weight"), 5e-4);  // 3 decimals
    GpuConfig c = find_gpu_preset("h200")->config;
    EXPECT_EQ(c.warp_age_warm_group, 0u);
    EXPECT_EQ(c.warp_age_warm_weight, kWarpAgeWeightAuto);
    const WorkloadSpec matmul = test::matmul(64, 64, 64);
    c.compilation = KernelCompilation::index32;
    EXPECT_EQ(warp_age_warm_weight_for(c, &matmul), kPipeBoundWarmWarpAgeWeight);
    c.compilation = KernelCompilation::index64;
    EXPECT_EQ(warp_age_warm_weight_for(c, &matmul), 1.0);
    EXPECT_EQ(warp_age_warm_weight_for(c, nullptr), 1.0);
    c.warp_age_warm_weight = 0.7;
    EXPECT_EQ(warp_age_warm_weight_for(c, &matmul), 0.7);
}

TEST(GpuWarpAgeWarm, OutOfRangeIsRefused) {
    GpuConfig c = find_gpu_preset("h200")->config;
    c.warp_age_warm_group = 65;
    EXPECT_THROW(validate(c), SimulationError);
    c.warp_age_warm_group = 6;
    EXPECT_NO_THROW(validate(c));
    for (double bad : {-0.5, 1.5}) {
        c.warp_age_warm_weight = bad;
        EXPECT_THROW(validate(c), SimulationError) << bad;
    }
}

// The split changes the picks, which the run on several threads plans ahead (the plan's pass
// knows whether its L2 starts warm): the same counters, cold and warm.
TEST(GpuWarpAgeWarm, SameCountersOnSeveralThreads) {
    GpuConfig c = with_sms(find_gpu_preset("h200")->config, 6);
    c.warp_age_weight = 0.8;
    c.warp_age_warm_weight = 0.6;
    c.warp_age_warm_group = 2;
    test::expect_same_on_threads(test::matmul(256, 192, 256), c, {2u, 3u});
    c.l2_start = L2Start::warm;
    test::expect_same_on_threads(test::matmul(256, 192, 256), c, {2u});
}

// Reading from the L2 changes when sharers meet: hits, never accesses.
TEST(GpuWarpAgeWarm, ChangesHitsNotAccesses) {
    GpuConfig c = with_sms(find_gpu_preset("h200")->config, 4);
    c.warp_age_weight = 0.8;
    const WorkloadSpec spec = test::matmul(256, 256, 256);
    const GpuResult one = simulate_gpu_model(spec, c, RunControl{});
    c.warp_age_warm_weight = 0.5;
    c.warp_age_warm_group = 2;
    test::expect_other_hits_same_accesses(one, simulate_gpu_model(spec, c, RunControl{}));
}

}  // namespace
}  // namespace cachesim
