// What a warp's age rank counts (GpuConfig::warp_age_rank): the live warps of older blocks on its
// own scheduler, or on its SM per scheduler (rounded down), which gives a block's warps one rank.
// Worked out by hand for one SM of 4 schedulers holding three blocks of 96 threads (3 warps):
// block j's warps sit in slots 3j..3j+2, on schedulers slot mod 4, so block 0 is on schedulers
// 0-2, block 1 on 3, 0, 1 and block 2 on 2, 3, 0.
#include <gtest/gtest.h>

#include <cmath>

#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "sim/gpu/issue_scheduler.hpp"
#include "sim/gpu/warp_rate.hpp"
#include "sim/gpu/warp_slots.hpp"
#include "tests/gpu_same_result.hpp"
#include "tests/gpu_test_util.hpp"

namespace cachesim {
namespace {

// Rates kept for life, no skips, one request a turn; every older rank weighs 0.5 (a power of
// two, so that the expected rates are exact).
GpuConfig one_sm(WarpAgeRank rank) {
    GpuConfig c = with_sms(find_gpu_preset("h200")->config, 1);
    c.block = 96;
    c.max_blocks_per_sm = 3;
    c.warp_rate_redraw = 0;
    c.block_start_skip = 0;
    c.issue_burst = 1;
    c.schedulers_per_sm = 4;
    c.warp_age_weight = 0.5;
    c.warp_age_group = 1;
    c.warp_age_rank = rank;
    return c;
}

// Warp w of `block`'s draw (warp_issue_credit) times 0.5^rank, worked out in doubles.
std::uint64_t expected_rate(const GpuConfig& c, std::uint64_t block, std::uint32_t warp, std::uint32_t rank) {
    const double draw = static_cast<double>(warp_issue_credit(c, block, warp));
    return static_cast<std::uint64_t>(std::floor(draw * std::pow(0.5, rank)));
}

// A stencil of 96 columns: one row a block, 10 requests a warp.
struct OneSm {
    // warm_age_weight: that of blocks that read from the L2 (with GpuConfig::warp_age_warm_group).
    explicit OneSm(const GpuConfig& c, double warm_age_weight = 1)
        : spec(test::stencil(96, 3, 3)),
          slots(spec, c, 9),
          scheduler(c, gpu_occupancy(c), slots, 3, 1, c.warp_age_weight, 0, warm_age_weight) {
        scheduler.first_wave();
    }
    // Ends the warp in `slot` (its remaining requests, none missing).
    void finish(std::size_t slot) {
        while (slots[slot].live()) scheduler.retire(0, slot, false);
    }
    void expect_ranks(const GpuConfig& c, const std::uint32_t (&ranks)[9]) const {
        for (std::size_t s = 0; s < 9; ++s) {
            if (slots[s].live()) EXPECT_EQ(slots[s].rate, expected_rate(c, s / 3, s % 3, ranks[s])) << "slot " << s;
        }
    }
    WorkloadSpec spec;
    WarpSlots slots;
    IssueScheduler scheduler;
};

// By scheduler: block 1's warp on scheduler 3 has no older warp beside it, those on 0 and 1 one
// each; block 2's on 2 and 3 one, on 0 two (blocks 0 and 1). When block 0's warp 0 (scheduler 0)
// ends, only the warps on scheduler 0 move up.
TEST(GpuWarpAgeRank, BySchedulerABlocksWarpsTakeDifferentRanks) {
    const GpuConfig c = one_sm(WarpAgeRank::scheduler);
    OneSm sm(c);
    sm.expect_ranks(c, {0, 0, 0, 0, 1, 1, 1, 1, 2});
    sm.finish(0);
    sm.expect_ranks(c, {0, 0, 0, 0, 0, 1, 1, 1, 1});
}

// By block: block 1 has 3 older warps on the SM (3 / 4 = rank 0), block 2 six (rank 1), every warp
// of a block alike. Block 0's warps ending one by one leave block 2 five, then four older warps
// (rank 1), then three (rank 0).
TEST(GpuWarpAgeRank, ByBlockABlocksWarpsShareOneRank) {
    const GpuConfig c = one_sm(WarpAgeRank::block);
    OneSm sm(c);
    sm.expect_ranks(c, {0, 0, 0, 0, 0, 0, 1, 1, 1});
    sm.finish(0);
    sm.expect_ranks(c, {0, 0, 0, 0, 0, 0, 1, 1, 1});
    sm.finish(1);
    sm.expect_ranks(c, {0, 0, 0, 0, 0, 0, 1, 1, 1});
    sm.finish(2);
    sm.expect_ranks(c, {0, 0, 0, 0, 0, 0, 0, 0, 0});
}

// One rank a block with the warm step: the blocks read from the L2 (a warm start), the warm group
// is 1 with weight 0.5 and the step 0.25, so a warp runs at 0.5^(block rank) * 0.25^(its
// scheduler's older warps less the block rank). Block 1 (rank 0) has no older warp on scheduler 3
// and one on 0 and 1; block 2 (rank 1) one on 2 and 3 and two on 0. Block 0's warps ending one by
// one leave block 1's warp on scheduler 1 a step behind, then none; and block 2, once it is rank
// 0, its warps on 3 and 0 a step behind (block 1's warps there).
TEST(GpuWarpAgeRank, WarmStepPartsABlocksWarpsByTheirSchedulers) {
    GpuConfig c = one_sm(WarpAgeRank::block);
    c.warp_age_weight = 1;
    c.warp_age_warm_group = 1;
    c.warp_age_warm_step = 0.25;
    c.pass_l2_warm = true;
    OneSm sm(c, 0.5);
    const auto expect = [&](const std::uint32_t (&ranks)[9], const std::uint32_t (&offsets)[9]) {
        for (std::size_t s = 0; s < 9; ++s) {
            if (!sm.slots[s].live()) continue;
            const double draw = static_cast<double>(warp_issue_credit(c, s / 3, s % 3));
            const double paced = draw * std::pow(0.5, ranks[s]) * std::pow(0.25, offsets[s]);
            EXPECT_EQ(sm.slots[s].rate, static_cast<std::uint64_t>(std::floor(paced))) << "slot " << s;
        }
    };
    expect({0, 0, 0, 0, 0, 0, 1, 1, 1}, {0, 0, 0, 0, 1, 1, 0, 0, 1});
    sm.finish(0);
    expect({0, 0, 0, 0, 0, 0, 1, 1, 1}, {0, 0, 0, 0, 0, 1, 0, 0, 0});
    sm.finish(1);
    expect({0, 0, 0, 0, 0, 0, 1, 1, 1}, {0, 0, 0, 0, 0, 0, 0, 0, 0});
    sm.finish(2);
    expect({0, 0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0, 1, 1});
}

// The step leaves blocks that read from DRAM (a cold start's first wave) one pace a block.
TEST(GpuWarpAgeRank, WarmStepLeavesDramBlocksWhole) {
    GpuConfig c = one_sm(WarpAgeRank::block);
    c.warp_age_warm_group = 1;
    c.warp_age_warm_step = 0.25;
    OneSm sm(c, 0.5);
    sm.expect_ranks(c, {0, 0, 0, 0, 0, 0, 1, 1, 1});
}

// Blocks of 128 threads put one warp on each scheduler: both counts give block j rank j.
TEST(GpuWarpAgeRank, EvenBlocksRankAlikeEitherWay) {
    for (WarpAgeRank rank : {WarpAgeRank::scheduler, WarpAgeRank::block}) {
        GpuConfig c = one_sm(rank);
        c.block = 128;
        const WorkloadSpec spec = test::stencil(128, 3, 3);
        WarpSlots slots(spec, c, 12);
        IssueScheduler scheduler(c, gpu_occupancy(c), slots, 3, 1, c.warp_age_weight);
        scheduler.first_wave();
        for (std::size_t s = 0; s < 12; ++s)
            EXPECT_EQ(slots[s].rate, expected_rate(c, s / 4, s % 4, s / 4)) << "slot " << s;
    }
}

// The rank changes the picks, which the run on several threads plans ahead: the same counters.
TEST(GpuWarpAgeRank, SameCountersOnSeveralThreads) {
    GpuConfig c = with_sms(find_gpu_preset("h200")->config, 6);
    c.block = 96;
    c.warp_age_weight = 0.8;
    c.warp_age_rank = WarpAgeRank::block;
    test::expect_same_on_threads(test::matmul(192, 192, 256), c, {2u, 3u});
}

}  // namespace
}  // namespace cachesim
