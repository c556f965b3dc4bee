// A launch that starts with a warm L2 (GpuConfig::l2_start warm, gpubench --warm-l2): the model
// runs the launch once unmeasured, then measures a second one with empty L1s on the L2 the first
// left. Expected values by hand: what fits the L2 is all there, what streams through an L2 too
// small for it is gone before it is read again, the L1s start as a cold launch's, and a warm start
// takes no DRAM waits under cycle timing.
#include <gtest/gtest.h>

#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "sim/observer.hpp"
#include "tests/gpu_test_util.hpp"

namespace cachesim {
namespace {

GpuConfig h200(std::uint32_t block, L2Start start) {
    GpuConfig c = find_gpu_preset("h200")->config;
    c.block = block;
    c.l2_start = start;
    return c;
}

// The 256x256 matmul at depth 256 reads A and B, 256 KiB each, and writes C: 768 KiB, far less
// than the 60 MiB L2. Cold, A and B come from DRAM once, 512 KiB; warm, every L2 read hits and
// nothing comes from DRAM. The L1s start empty either way, and the rounds have no latencies, so
// the L1 counts are the cold launch's.
TEST(GpuWarmStart, ALaunchThatFitsTheL2FindsAllOfItThere) {
    const WorkloadSpec w = test::matmul(256, 256, 256);
    const GpuResult cold = simulate_gpu_model(w, h200(128, L2Start::cold));
    const GpuResult warm = simulate_gpu_model(w, h200(128, L2Start::warm));
    EXPECT_EQ(cold.ncu.dram_bytes_read, 2u * 256 * 256 * 4);
    EXPECT_EQ(warm.ncu.dram_bytes_read, 0u);
    ASSERT_GT(warm.ncu.l2_sectors_tex_read, 0u);
    EXPECT_EQ(warm.ncu.l2_sectors_tex_read_hit, warm.ncu.l2_sectors_tex_read);
    EXPECT_EQ(warm.ncu.l2_sectors_tex_read_miss, 0u);
    EXPECT_DOUBLE_EQ(warm.l2_read_hit_rate_pct(), 100.0);
    EXPECT_EQ(warm.ncu.l1_sectors_ld, cold.ncu.l1_sectors_ld);
    EXPECT_EQ(warm.ncu.l1_sectors_ld_hit, cold.ncu.l1_sectors_ld_hit);
    EXPECT_EQ(warm.ncu.l1_requests_ld, cold.ncu.l1_requests_ld);
    EXPECT_EQ(warm.rounds, cold.rounds);
    EXPECT_EQ(warm.blocks, cold.blocks);
    EXPECT_EQ(warm.warps, cold.warps);
}

// A 1x1 stencil over 256x256 floats streams 256 KiB in and 256 KiB out through a 64 KiB L2 of one
// partition, LRU, sets by address (mod): each set takes in its lines in address order, more than
// it has ways before the sweep comes back to the lines the launch before left in it. So the warm
// launch hits as often as the cold one, never, and reads all of its input from DRAM.
TEST(GpuWarmStart, WhatStreamsThroughASmallL2IsGoneBeforeItIsReadAgain) {
    const WorkloadSpec w = test::stencil(256, 256, 1);
    for (const L2Start start : {L2Start::cold, L2Start::warm}) {
        SCOPED_TRACE(start == L2Start::warm ? "warm" : "cold");
        GpuConfig c = h200(256, start);
        c.l2_partitions = 1;
        c.l2.size_bytes = 64 << 10;
        c.l2.policy = PolicyKind::lru;
        c.l2_set_index = SetIndex::mod;
        const GpuResult r = simulate_gpu_model(w, c);
        EXPECT_EQ(r.ncu.l2_sectors_tex_read, 256u * 256 * 4 / 32);
        EXPECT_EQ(r.ncu.l2_sectors_tex_read_hit, 0u);
        EXPECT_EQ(r.ncu.dram_bytes_read, 256u * 256 * 4);
    }
}

// Cycle timing with a DRAM wait: a warm launch's misses are all L2 hits, so it runs as a cold one
// whose misses never wait for DRAM (the same cycles and L1 counts), and the cold launch with the
// wait takes longer.
TEST(GpuWarmStart, UnderCycleTimingAWarmLaunchWaitsForNoDram) {
    const WorkloadSpec w = test::matmul(256, 256, 256);
    const auto run = [&](L2Start start, std::uint32_t lat_dram) {
        GpuConfig c = h200(128, start);
        c.timing = IssueTiming::cycles;
        c.lat_dram = lat_dram;
        return simulate_gpu_model(w, c);
    };
    const GpuResult cold_no_dram = run(L2Start::cold, 0);
    const GpuResult cold_dram = run(L2Start::cold, 691);
    const GpuResult warm_dram = run(L2Start::warm, 691);
    EXPECT_GT(cold_dram.rounds, cold_no_dram.rounds);
    EXPECT_EQ(warm_dram.rounds, cold_no_dram.rounds);
    EXPECT_EQ(warm_dram.ncu.l1_sectors_ld_hit, cold_no_dram.ncu.l1_sectors_ld_hit);
    EXPECT_EQ(warm_dram.ncu.dram_bytes_read, 0u);
}

// The same results on one thread and on three (the L2 sliced), warm as cold.
TEST(GpuWarmStart, ThreadsDoNotChangeTheResult) {
    const WorkloadSpec w = test::matmul(256, 128, 512, "column:32");
    RunControl three;
    three.threads = 3;
    const GpuResult one = simulate_gpu_model(w, h200(128, L2Start::warm));
    const GpuResult more = simulate_gpu_model(w, h200(128, L2Start::warm), three);
    EXPECT_EQ(one.ncu.metrics(), more.ncu.metrics());
    EXPECT_EQ(one.rounds, more.rounds);
}

// What an observer is shown: the measured launch only. Warm, it sees L2 lookups, every one a hit,
// and no L2 fill; the L1s' fills are a cold launch's.
class CountingObserver : public SimObserver {
public:
    void on_lookup(int level, std::uint64_t, bool hit, bool, std::uint16_t) override {
        if (level == 1) ++(hit ? l2_hits : l2_misses);
    }
    void on_fill(int level, std::uint64_t) override { ++fills[level]; }
    std::uint64_t l2_hits = 0, l2_misses = 0;
    std::uint64_t fills[2] = {0, 0};
};

TEST(GpuWarmStart, AnObserverSeesTheMeasuredLaunchOnly) {
    const WorkloadSpec w = test::matmul(128, 128, 128);
    CountingObserver cold_seen, warm_seen;
    RunControl control;
    control.observer = &cold_seen;
    simulate_gpu_model(w, h200(128, L2Start::cold), control);
    control.observer = &warm_seen;
    simulate_gpu_model(w, h200(128, L2Start::warm), control);
    EXPECT_GT(cold_seen.l2_misses, 0u);
    EXPECT_GT(cold_seen.fills[1], 0u);
    EXPECT_GT(warm_seen.l2_hits, 0u);
    EXPECT_EQ(warm_seen.l2_misses, 0u);
    EXPECT_EQ(warm_seen.fills[1], 0u);
    EXPECT_EQ(warm_seen.fills[0], cold_seen.fills[0]);
}

}  // namespace
}  // namespace cachesim
