// Replaying a launch in measured time order (GpuConfig::timeline, gpubench --warp-times): each
// warp on its measured SM, its requests spread evenly over its measured interval (or between its
// progress samples), all requests in time order. Small launches worked by hand, and the lockstep order as a special case.
#include <gtest/gtest.h>

#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "sim/observer.hpp"
#include "tests/gpu_test_util.hpp"
#include "traces/warp_times.hpp"

namespace cachesim {
namespace {

using test::matmul;
using test::stencil;

// Blocks of one warp, one L2 partition, 32 B DRAM reads, no coalescing; `l1_lines` fully
// associative LRU L1 lines per SM (0: the carve-out's).
GpuConfig gpu(std::uint32_t sms, std::uint32_t block, std::uint32_t l1_lines = 0) {
    GpuConfig c = with_sms(find_gpu_preset("h200")->config, sms);
    c.block = block;
    c.l2_partitions = 1;
    c.dram_fetch_bytes = 32;
    c.l2_coalesce_hit_rounds = c.l2_coalesce_miss_rounds = 0;
    if (l1_lines) {
        c.l1_auto = false;
        c.l1.size_bytes = l1_lines * 128u;
        c.l1.ways = 0;
    }
    return c;
}

WarpTimeline timeline(std::uint32_t block, std::vector<WarpInterval> warps) {
    WarpTimeline t;
    t.source = "test";
    t.block = block;
    t.warps_per_block = (block + 31) / 32;
    t.warps = std::move(warps);
    return t;
}

GpuResult replay(const WorkloadSpec& spec, GpuConfig c, const WarpTimeline& t) {
    c.timeline = &t;
    return simulate_gpu_model(spec, c);
}

// matmul 32x2, depth 4, blocks of 32: warp 0 computes row 0, warp 1 row 1. Each warp's requests:
// A[row][k] (one sector; both rows' A lie in sector 0 of one line) and B row k (one line, four
// sectors) for k = 0..3, then its store: 20 load sectors. Both warps read the same B lines.
const WorkloadSpec kTwoRows = matmul(32, 2, 4);

TEST(GpuMeasuredTiming, OverlappingWarpsShareTheL1) {
    // Same interval on SM 0: w0 A0, w1 A0, w0 B0, w1 B0, ... w1 finds every sector w0 just
    // fetched. Hits: w0's A at k1..3 (3), all of w1's (4 + 16). Even two L1 lines suffice.
    for (std::uint32_t lines : {0u, 2u}) {
        const GpuResult r = replay(kTwoRows, gpu(2, 32, lines), timeline(32, {{0, 0, 90}, {0, 0, 90}}));
        EXPECT_EQ(r.ncu.l1_sectors_ld, 40u) << lines;
        EXPECT_EQ(r.ncu.l1_sectors_ld_hit, 23u) << lines;
        EXPECT_EQ(r.rounds, 0u);
        EXPECT_EQ(r.warps, 2u);
    }
}

TEST(GpuMeasuredTiming, ProgressSamplesPlaceEachRequestBetweenThem) {
    // Both warps run from 0 to 90 ns, sampled at loop steps 0, 2 and 4: w0 reaches step 2 at
    // 10 ns, w1 at 80 ns. Request k of 9 sits at step 4 (k + 0.5) / 9 between the samples around
    // it: w0 at 1.1, 3.3, 5.6, 7.8, 10.0, 27.8, 45.6, 63.3, 81.1 ns; w1 at 8.9, 26.7, 44.4, 62.2,
    // 80.0, 82.2, 84.4, 86.7, 88.9 ns. Start and end alone would interleave them one for one.
    WarpTimeline t = timeline(32, {{0, 0, 90}, {1, 0, 90}});
    t.sample_steps = {0, 2, 4};
    t.samples = {0, 10, 90, 0, 80, 90};
    std::vector<GpuIssue> log;
    GpuConfig c = gpu(2, 32);
    c.issue_log = &log;
    replay(kTwoRows, c, t);
    ASSERT_EQ(log.size(), 18u);
    const std::uint64_t expected_block[18] = {0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 1, 1};
    for (std::uint64_t i = 0; i < 18; ++i) EXPECT_EQ(log[i].block, expected_block[i]) << i;
}

TEST(GpuMeasuredTiming, IssuesInTimeOrder) {
    // w1 starts 45 ns after w0; both spread 9 requests over 90 ns (one every 10 ns: w0 at 5, 15,
    // ..., 85, w1 at 50, 60, ..., 130): w0 issues its first five alone, then they alternate, then
    // w1 issues its last five alone.
    std::vector<GpuIssue> log;
    GpuConfig c = gpu(2, 32);
    c.issue_log = &log;
    replay(kTwoRows, c, timeline(32, {{0, 0, 90}, {1, 45, 135}}));
    ASSERT_EQ(log.size(), 18u);
    const std::uint64_t expected_block[18] = {0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 1, 1, 1};
    for (std::uint64_t i = 0; i < 18; ++i) {
        EXPECT_EQ(log[i].round, i);
        EXPECT_EQ(log[i].block, expected_block[i]) << i;
        EXPECT_EQ(log[i].sm, static_cast<std::uint32_t>(expected_block[i])) << i;
    }
    EXPECT_EQ(log[5].k, 0u);   // w1's first request
    EXPECT_EQ(log[17].k, 8u);  // w1's store
}

TEST(GpuMeasuredTiming, WarpsApartLoseTheirReuse) {
    // w1 starts after w0 ended. With two L1 lines only A and the last B line survive; w1 then
    // misses every B sector (LRU evicts B3 first, then each B line before it comes back).
    // Hits: w0's A at k1..3 and all four of w1's A.
    const WarpTimeline apart = timeline(32, {{0, 0, 90}, {0, 100, 190}});
    const GpuResult tiny = replay(kTwoRows, gpu(2, 32, 2), apart);
    EXPECT_EQ(tiny.ncu.l1_sectors_ld_hit, 3u + 4u);
    // The whole L1 keeps everything: the same 23 hits as in step.
    const GpuResult big = replay(kTwoRows, gpu(2, 32), apart);
    EXPECT_EQ(big.ncu.l1_sectors_ld_hit, 23u);
}

TEST(GpuMeasuredTiming, WarpsOnTwoSmsMeetInTheL2) {
    // Own L1s: 3 hits each. w0's 17 misses go to DRAM, w1's identical 17 follow and hit in L2.
    const GpuResult r = replay(kTwoRows, gpu(2, 32), timeline(32, {{0, 0, 90}, {1, 0, 90}}));
    EXPECT_EQ(r.ncu.l1_sectors_ld_hit, 6u);
    EXPECT_EQ(r.ncu.l2_sectors_tex_read, 34u);
    EXPECT_EQ(r.ncu.l2_sectors_tex_read_hit, 17u);
    EXPECT_EQ(r.ncu.dram_bytes_read, 17u * 32);
}

TEST(GpuMeasuredTiming, CoalescingWindowsCountNanoseconds) {
    // SMs 0 and 1 form a TPC. With 5 ns windows, w1's requests at the same instants as w0's join
    // them (17 coalesced, no lookup); 50 ns later (requests every 10 ns) none does.
    GpuConfig c = gpu(2, 32);
    c.l2_coalesce_hit_rounds = c.l2_coalesce_miss_rounds = 5;
    c.l2_coalesce_scope = CoalesceScope::tpc;
    const GpuResult together = replay(kTwoRows, c, timeline(32, {{0, 0, 90}, {1, 0, 90}}));
    EXPECT_EQ(together.ncu.l2_sectors_coalesced, 17u);
    EXPECT_EQ(together.ncu.l2_sectors_tex_read, 17u);
    const GpuResult later = replay(kTwoRows, c, timeline(32, {{0, 0, 90}, {1, 50, 140}}));
    EXPECT_EQ(later.ncu.l2_sectors_coalesced, 0u);
    EXPECT_EQ(later.ncu.l2_sectors_tex_read, 34u);
}

void expect_same_counters(const GpuResult& a, const GpuResult& b) {
    EXPECT_EQ(a.ncu.l1_requests_ld, b.ncu.l1_requests_ld);
    EXPECT_EQ(a.ncu.l1_sectors_ld, b.ncu.l1_sectors_ld);
    EXPECT_EQ(a.ncu.l1_sectors_ld_hit, b.ncu.l1_sectors_ld_hit);
    EXPECT_EQ(a.ncu.l2_sectors_tex_read, b.ncu.l2_sectors_tex_read);
    EXPECT_EQ(a.ncu.l2_sectors_tex_read_hit, b.ncu.l2_sectors_tex_read_hit);
    EXPECT_EQ(a.ncu.dram_bytes_read, b.ncu.dram_bytes_read);
    EXPECT_EQ(a.result.memory_bytes_written, b.result.memory_bytes_written);
}

TEST(GpuMeasuredTiming, OneIntervalForAllIsTheLockstepOrder) {
    // One warp per SM, all over the same interval: request k of every SM at the same instant,
    // SMs in index order, as the lockstep rounds replay them (block b on SM b).
    const WorkloadSpec one_per_sm = stencil(64, 4, 3);  // 8 blocks of 32
    GpuConfig c = gpu(8, 32);
    c.max_blocks_per_sm = 1;
    std::vector<WarpInterval> warps;
    for (std::uint32_t b = 0; b < 8; ++b) warps.push_back({b, 1000, 2000});
    expect_same_counters(replay(one_per_sm, c, timeline(32, warps)), simulate_gpu_model(one_per_sm, c));
    // One block of four warps on one SM: ties go by warp index, which is loose round robin.
    const WorkloadSpec one_block = stencil(32, 4, 3);
    GpuConfig single = gpu(1, 128);
    expect_same_counters(replay(one_block, single, timeline(128, {{0, 0, 9}, {0, 0, 9}, {0, 0, 9}, {0, 0, 9}})),
                         simulate_gpu_model(one_block, single));
}

// An observer sees every L1 sector lookup and one step per request, in time order.
TEST(GpuMeasuredTiming, ObserverSeesEveryRequestAsAStep) {
    struct Counter : SimObserver {
        std::uint64_t l1_lookups = 0, l1_hits = 0, steps = 0, last_step = 0;
        void on_lookup(int level, std::uint64_t, bool hit, bool, std::uint16_t) override {
            if (level != 0) return;
            ++l1_lookups;
            l1_hits += hit;
        }
        void on_step_end(std::uint64_t step) override {
            EXPECT_EQ(step, steps);
            ++steps;
            last_step = step;
        }
    } counter;
    GpuConfig c = gpu(2, 32);
    const WarpTimeline t = timeline(32, {{0, 0, 90}, {0, 0, 90}});
    c.timeline = &t;
    RunControl control;
    control.observer = &counter;
    const GpuResult r = simulate_gpu_model(kTwoRows, c, control);
    EXPECT_EQ(counter.l1_lookups, 40u);
    EXPECT_EQ(counter.l1_hits, 23u);
    EXPECT_EQ(counter.steps, 2u * 9);  // per warp 4 A loads, 4 B loads and the store
    EXPECT_EQ(r.ncu.l1_sectors_ld_hit, 23u);
}

TEST(GpuMeasuredTiming, RejectsATimelineOfAnotherLaunch) {
    const GpuConfig c = gpu(2, 32);
    auto message = [&](const WarpTimeline& t) {
        try {
            replay(kTwoRows, c, t);
        } catch (const SimulationError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_NE(message(timeline(64, {{0, 0, 9}, {0, 0, 9}})).find("blocks of 64 threads, the launch has 32"),
              std::string::npos);
    EXPECT_NE(message(timeline(32, {{0, 0, 9}})).find("1 warps, the launch has 2"), std::string::npos);
    EXPECT_NE(message(timeline(32, {{0, 0, 9}, {2, 0, 9}})).find("block 1 warp 0 ran on SM 2, the GPU has 2"),
              std::string::npos);
    EXPECT_NE(message(timeline(32, {{0, 0, 9}, {1, 9, 0}})).find("ends before it starts"), std::string::npos);
}

}  // namespace
}  // namespace cachesim
