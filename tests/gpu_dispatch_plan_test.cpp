// The dispatch plan (sim/gpu/dispatch_plan.hpp): which block each SM receives when one of its blocks
// finishes, worked out by the scheduler alone. Checked by hand on a launch whose timing is plain
// arithmetic, and against the blocks a serial run's issue log shows on each SM. (That a planned run
// on several threads gives the counters of one thread: gpu_threads_test.cpp.)
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "sim/gpu/dispatch_plan.hpp"
#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "sim/gpu/warp_rate.hpp"
#include "sim/gpu/issue_burst.hpp"
#include "tests/gpu_test_util.hpp"

namespace cachesim {
namespace {

// The h200 preset on `sms` SMs for blocks of `block` threads, its rate scope and block start skip
// resolved as a run resolves them for the launch: the planner is given the configuration a run uses.
GpuConfig h200_blocks(std::uint32_t sms, std::uint32_t block) {
    GpuConfig c = with_sms(find_gpu_preset("h200")->config, sms);
    c.block = block;
    return with_rate_form(c, nullptr);
}

DispatchPlan plan_for(const WorkloadSpec& spec, const GpuConfig& c) {
    return plan_dispatch(spec, c, gpu_occupancy(c), (spec.items() + c.block - 1) / c.block, issue_burst_for(c, &spec));
}

// Two SMs of one block of 64 threads (two warps) each, plain round robin: no rates, skips or
// bursts, blocks dispatched and refilled in SM order.
GpuConfig two_sms_in_step() {
    GpuConfig c = with_sms(find_gpu_preset("h200")->config, 2);
    c.block = 64;
    c.max_blocks_per_sm = 1;
    c.cta_order = CtaOrder::round_robin;
    c.cta_refill = CtaRefill::sm_order;
    c.warp_rate_spread = 0;
    c.block_start_skip = 0;
    c.issue_burst = 1;
    return c;
}

// Two SMs holding one block of two warps each, plain round robin (no rates, skips or bursts): an SM
// issues one request a round, alternating between its two warps, so a block of R requests per warp
// finishes in round 2R n - 1 for the n-th block the SM runs. Both SMs finish together, and the
// refill in SM order gives SM 0 the lower block. Blocks 0 and 1 are the first wave.
TEST(DispatchPlan, WorkedOutByHandForTwoSmsInStep) {
    const GpuConfig c = two_sms_in_step();
    const WorkloadSpec spec = test::stencil(64, 8, 3);  // 512 threads: 8 blocks of 64
    ASSERT_EQ(gpu_occupancy(c).blocks_per_sm, 1u);
    const std::uint64_t r = spec.accesses_per_item();  // requests per warp: 9 loads and a store
    ASSERT_EQ(r, 10u);
    const DispatchPlan plan = plan_for(spec, c);
    ASSERT_EQ(plan.per_sm.size(), 2u);
    const std::uint64_t b = 2 * r;  // rounds a block takes
    // Warps take their dispatch order as age: blocks 0 and 1 hold ages 0-3, then two per block.
    const std::vector<std::vector<PlannedBlock>> expected = {
        {{b - 1, 2, 4}, {2 * b - 1, 4, 8}, {3 * b - 1, 6, 12}},
        {{b - 1, 3, 6}, {2 * b - 1, 5, 10}, {3 * b - 1, 7, 14}},
    };
    for (std::uint32_t s = 0; s < 2; ++s) {
        SCOPED_TRACE(s);
        ASSERT_EQ(plan.per_sm[s].size(), expected[s].size());
        for (std::size_t i = 0; i < expected[s].size(); ++i) {
            EXPECT_EQ(plan.per_sm[s][i].round, expected[s][i].round);
            EXPECT_EQ(plan.per_sm[s][i].block, expected[s][i].block);
            EXPECT_EQ(plan.per_sm[s][i].age, expected[s][i].age);
        }
    }
    EXPECT_EQ(plan.warps, 16u);
}

// The h200 preset (rates, start skips, bursts, the floorplan's first wave, shuffled refills) on 8
// SMs: every block of the plan runs on the SM the plan names, starts after the planned round, and
// that round is the one in which another block of that SM issued its last request. The first wave
// and the plan together hold every block once.
TEST(DispatchPlan, MatchesTheBlocksASerialRunIssues) {
    GpuConfig c = h200_blocks(8, 256);
    const WorkloadSpec spec = test::stencil(512, 256, 3);  // 512 blocks, 8 resident per SM
    ASSERT_TRUE(dispatch_plannable(c));
    std::vector<GpuIssue> log;
    c.issue_log = &log;
    const GpuResult run = simulate_gpu_model(spec, c);
    c.issue_log = nullptr;
    struct Seen {
        std::uint32_t sm = 0;
        std::uint64_t first = ~0ull, last = 0;
    };
    std::map<std::uint64_t, Seen> blocks;
    for (const GpuIssue& i : log) {
        Seen& b = blocks[i.block];
        if (b.first == ~0ull) b.sm = i.sm;
        EXPECT_EQ(b.sm, i.sm) << "block " << i.block << " ran on two SMs";
        b.first = std::min(b.first, i.round);
        b.last = std::max(b.last, i.round);
    }
    ASSERT_EQ(blocks.size(), 512u);

    const DispatchPlan plan = plan_for(spec, c);
    std::set<std::uint64_t> planned;
    std::size_t entries = 0;
    for (std::uint32_t s = 0; s < 8; ++s) {
        std::uint64_t previous = 0;
        for (const PlannedBlock& p : plan.per_sm[s]) {
            SCOPED_TRACE(p.block);
            ++entries;
            EXPECT_TRUE(planned.insert(p.block).second);
            EXPECT_GE(p.round, previous);
            previous = p.round;
            const Seen& b = blocks.at(p.block);
            EXPECT_EQ(b.sm, s);
            EXPECT_GT(b.first, p.round);
            bool freed = false;  // a block of SM s ended in that round
            for (const auto& [other, seen] : blocks) freed |= other != p.block && seen.sm == s && seen.last == p.round;
            EXPECT_TRUE(freed);
        }
    }
    const std::uint64_t first_wave = 8u * gpu_occupancy(c).blocks_per_sm;
    EXPECT_EQ(entries, 512u - first_wave);
    for (std::uint64_t block = 0; block < first_wave; ++block) EXPECT_EQ(planned.count(block), 0u);
    EXPECT_EQ(plan.warps, run.warps);
}

// Planned a stretch of rounds at a time, as the run on several threads plans it (a chunk ahead of
// the SMs), the plan is the one planned at once.
TEST(DispatchPlan, PlannedInStretchesIsPlannedAtOnce) {
    GpuConfig c = h200_blocks(8, 128);
    const WorkloadSpec spec = test::matmul(256, 128, 64);
    const GpuOccupancy occupancy = gpu_occupancy(c);
    const std::uint64_t blocks = (spec.items() + c.block - 1) / c.block;
    const DispatchPlan whole = plan_for(spec, c);
    for (std::uint64_t stretch : {1ull, 777ull, 16384ull}) {
        SCOPED_TRACE(stretch);
        DispatchPlanner planner(spec, c, occupancy, blocks, issue_burst_for(c, &spec));
        DispatchPlan pieces;
        std::size_t drained = 0;  // entries drained before the stretch that planned them ended
        for (std::uint64_t end = stretch; drained < blocks - 8u * occupancy.blocks_per_sm; end += stretch) {
            planner.advance(end);
            planner.drain_into(pieces);
            drained = 0;
            for (const std::vector<PlannedBlock>& sm : pieces.per_sm)
                for (const PlannedBlock& p : sm) {
                    EXPECT_LT(p.round, end);
                    ++drained;
                }
            ASSERT_LT(end, 100000000ull) << "never planned through";
        }
        ASSERT_EQ(pieces.per_sm.size(), whole.per_sm.size());
        for (std::size_t s = 0; s < whole.per_sm.size(); ++s) {
            ASSERT_EQ(pieces.per_sm[s].size(), whole.per_sm[s].size());
            for (std::size_t i = 0; i < whole.per_sm[s].size(); ++i) {
                EXPECT_EQ(pieces.per_sm[s][i].round, whole.per_sm[s][i].round);
                EXPECT_EQ(pieces.per_sm[s][i].block, whole.per_sm[s][i].block);
                EXPECT_EQ(pieces.per_sm[s][i].age, whole.per_sm[s][i].age);
            }
        }
        EXPECT_EQ(pieces.warps, whole.warps);
    }
}

// The picks the planner keeps for the SMs to follow, worked out by hand: two SMs of one block of two
// warps each under plain round robin issue from their warps 0 and 1 by turns, round after round,
// across the chunks and the refills.
TEST(DispatchPlan, KeptPicksWorkedOutByHand) {
    const GpuConfig c = two_sms_in_step();
    const WorkloadSpec spec = test::stencil(64, 8, 3);  // 8 blocks of 64 threads, 10 requests a warp
    const GpuOccupancy occupancy = gpu_occupancy(c);
    DispatchPlanner planner(spec, c, occupancy, 8, issue_burst_for(c, &spec));
    EXPECT_FALSE(planner.keep_picks(12));  // not a power of two
    ASSERT_TRUE(planner.keep_picks(16));
    // Each SM runs 4 blocks of 20 rounds: 80 rounds, 5 chunks.
    for (std::uint64_t start = 0; start < 80; start += 16) {
        planner.advance(start + 16);
        for (std::uint32_t s = 0; s < 2; ++s)
            for (std::uint64_t r = 0; r < 16; ++r) EXPECT_EQ(planner.picks(start, s)[r], (start + r) % 2) << s << " " << start + r;
    }
}

// The picks kept against a serial run's issue log (h200 preset: rates drawn afresh, start skips,
// bursts, shuffled refills): in every round an SM issues, the planner picked a warp of the same
// index in its block, and each block keeps one residency slot (pick / warps per block) while it runs,
// which no other block on the SM holds meanwhile.
TEST(DispatchPlan, KeptPicksAreTheWarpsASerialRunIssues) {
    GpuConfig c = h200_blocks(8, 256);
    const WorkloadSpec spec = test::stencil(512, 256, 3);
    std::vector<GpuIssue> log;
    c.issue_log = &log;
    simulate_gpu_model(spec, c);
    c.issue_log = nullptr;
    ASSERT_FALSE(log.empty());
    // (the serial run logs a chunk SM by SM)
    std::stable_sort(log.begin(), log.end(), [](const GpuIssue& a, const GpuIssue& b) { return a.round < b.round; });
    const GpuOccupancy occupancy = gpu_occupancy(c);
    const std::uint32_t per_block = occupancy.warps_per_block;
    DispatchPlanner planner(spec, c, occupancy, (spec.items() + c.block - 1) / c.block, issue_burst_for(c, &spec));
    constexpr std::uint32_t kChunk = 1024;
    ASSERT_TRUE(planner.keep_picks(kChunk));
    std::map<std::pair<std::uint32_t, std::uint64_t>, std::uint32_t> block_slot;  // (SM, block) -> residency slot
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::pair<std::uint64_t, std::uint64_t>> holder;  // (SM, slot) -> (block, last round)
    std::map<std::pair<std::uint32_t, std::uint64_t>, std::uint64_t> last_round;  // (SM, block) -> its last round
    for (const GpuIssue& i : log) {
        std::uint64_t& last = last_round[{i.sm, i.block}];
        last = std::max(last, i.round);
    }
    std::size_t at = 0, checked = 0;
    for (std::uint64_t start = 0; at < log.size(); start += kChunk) {
        planner.advance(start + kChunk);
        for (; at < log.size() && log[at].round < start + kChunk; ++at) {
            const GpuIssue& i = log[at];
            const std::uint32_t pick = planner.picks(start, i.sm)[i.round - start];
            ASSERT_EQ(pick % per_block, i.warp) << "SM " << i.sm << " round " << i.round;
            const std::uint32_t slot = pick / per_block;
            auto [it, fresh] = block_slot.try_emplace({i.sm, i.block}, slot);
            ASSERT_EQ(it->second, slot) << "block " << i.block << " moved";
            if (fresh) {
                auto h = holder.find({i.sm, slot});
                if (h != holder.end()) {
                    ASSERT_LT(h->second.second, i.round) << "slot " << slot << " held twice";
                }
                holder[{i.sm, slot}] = {i.block, last_round[{i.sm, i.block}]};
            }
            ++checked;
        }
    }
    EXPECT_EQ(checked, log.size());
}

// Where a warp's turn depends on its hits, nothing can be planned ahead.
TEST(DispatchPlan, OnlyTimingThatIgnoresTheCachesIsPlanned) {
    GpuConfig c = find_gpu_preset("h200")->config;
    EXPECT_TRUE(dispatch_plannable(c));
    c.scheduler = WarpScheduler::gto;  // a warp that missed is passed over
    EXPECT_FALSE(dispatch_plannable(c));
    c.scheduler = WarpScheduler::lrr;
    c.timing = IssueTiming::cycles;  // warps wait for their data
    EXPECT_FALSE(dispatch_plannable(c));
}

}  // namespace
}  // namespace cachesim
