// The L2 request coalescer: identical read requests (a line and the same sectors of it) from
// several SMs (of one TPC, or any) within a window of rounds after the first make one L2 lookup,
// up to a number of SMs per lookup (l1probe's finding on the H200). The table on its own, then small launches worked by hand.
#include <gtest/gtest.h>

#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "sim/gpu/request_coalescer.hpp"
#include "tests/gpu_test_util.hpp"

namespace cachesim {
namespace {

using test::matmul;

TEST(RequestCoalescer, OffWithoutWindows) {
    RequestCoalescer c;
    c.reset(0, 0, 4, 4);
    EXPECT_FALSE(c.enabled());
    c.reset(5, 0, 1, 4);  // one requester per lookup: nothing can join
    EXPECT_FALSE(c.enabled());
}

TEST(RequestCoalescer, JoinsWithinTheWindowOfTheOutcome) {
    RequestCoalescer c;
    c.reset(10, 100, 8, 4);
    ASSERT_TRUE(c.enabled());
    EXPECT_FALSE(c.merge(7, 0xf, 0));  // nothing open yet
    c.open(7, 0xf, 0, /*l2_hit=*/true);
    EXPECT_TRUE(c.merge(7, 0xf, 9));    // last round of the hit window
    EXPECT_FALSE(c.merge(7, 0xf, 10));  // closed
    EXPECT_FALSE(c.merge(8, 0xf, 5));   // another line
    c.open(8, 0x1, 20, /*l2_hit=*/false);
    EXPECT_TRUE(c.merge(8, 0x1, 119));  // the miss window is longer
    EXPECT_FALSE(c.merge(8, 0x1, 120));
}

// As on the H200 (l1probe's cross_sm_shape cases): only a request for the same sectors joins.
TEST(RequestCoalescer, OnlyIdenticalRequestsJoin) {
    RequestCoalescer c;
    c.reset(10, 10, 8, 4);
    c.open(3, 0xf, 0, true);     // 128 B
    EXPECT_FALSE(c.merge(3, 0x1, 1));  // 32 B of it
    c.open(5, 0x3, 0, true);     // 64 B
    EXPECT_FALSE(c.merge(5, 0x6, 1));  // an overlapping 64 B
    EXPECT_FALSE(c.merge(5, 0xc, 1));  // the other 64 B
    EXPECT_TRUE(c.merge(5, 0x3, 1));
    c.open(5, 0xc, 2, true);     // both shapes open at once
    EXPECT_TRUE(c.merge(5, 0xc, 3));
    EXPECT_TRUE(c.merge(5, 0x3, 3));
}

TEST(RequestCoalescer, OneLookupServesAtMostMaxRequesters) {
    RequestCoalescer c;
    c.reset(10, 10, 3, 4);
    c.open(42, 1, 0, true);
    EXPECT_TRUE(c.merge(42, 1, 1));
    EXPECT_TRUE(c.merge(42, 1, 1));
    EXPECT_FALSE(c.merge(42, 1, 1));  // three SMs served: the fourth looks up on its own
    c.open(42, 1, 1, true);           // ... and opens a fresh entry
    EXPECT_TRUE(c.merge(42, 1, 2));
}

TEST(RequestCoalescer, ManyLinesAtOnceNeverMergeWrongly) {
    // More open lines than the table has ways for some sets: a dropped entry can lose a merge,
    // but a request never joins another line's entry.
    RequestCoalescer c;
    c.reset(1000, 1000, 4, 1);  // 1024 sets of 4 ways
    for (std::uint64_t s = 0; s < 20000; ++s) c.open(s * 3, 1, 0, true);
    for (std::uint64_t s = 0; s < 20000; ++s) EXPECT_FALSE(c.merge(s * 3 + 1, 1, 1));
    int merged = 0;
    for (std::uint64_t s = 19000; s < 20000; ++s) merged += c.merge(s * 3, 1, 1);
    EXPECT_GT(merged, 0);
}

// Four SMs, one single-warp block each, one L2 of one partition, no L1: matmul 32x4 of depth 1
// (row r on SM r). In round 0 every SM reads A[r][0]: all four words lie in sector 0 of line 0.
// In round 1 every SM reads B[0][0..31]: the same four sectors.
GpuConfig four_sms(std::uint32_t hit_rounds, std::uint32_t miss_rounds, std::uint32_t requesters,
                   CoalesceScope scope = CoalesceScope::all) {
    GpuConfig c = with_sms(find_gpu_preset("h200")->config, 4);
    c.block = 32;
    c.max_blocks_per_sm = 1;
    c.l1.size_bytes = 0;
    c.l1_auto = false;
    c.l2_partitions = 1;
    c.dram_fetch_bytes = 32;
    c.l2_coalesce_hit_rounds = hit_rounds;
    c.l2_coalesce_miss_rounds = miss_rounds;
    c.l2_coalesce_requesters = requesters;
    c.l2_coalesce_scope = scope;
    return c;
}

TEST(GpuRequestCoalescing, OffEverySmLooksUp) {
    const GpuResult r = simulate_gpu_model(matmul(32, 4, 1), four_sms(0, 0, 4));
    EXPECT_EQ(r.ncu.l2_sectors_tex_read, 4u * (1 + 4));
    EXPECT_EQ(r.ncu.l2_sectors_tex_read_hit, 3u * (1 + 4));  // SM 0 misses, SMs 1..3 hit its fill
    EXPECT_EQ(r.ncu.l2_sectors_coalesced, 0u);
}

TEST(GpuRequestCoalescing, SameRoundReadsShareOneLookup) {
    const GpuResult r = simulate_gpu_model(matmul(32, 4, 1), four_sms(1, 1, 4));
    // SM 0's lookups miss (DRAM); SMs 1..3 join them in the same round.
    EXPECT_EQ(r.ncu.l2_sectors_tex_read, 1u + 4u);
    EXPECT_EQ(r.ncu.l2_sectors_tex_read_hit, 0u);
    EXPECT_EQ(r.ncu.l2_sectors_coalesced, 3u * (1 + 4));
    EXPECT_EQ(r.ncu.dram_bytes_read, 5u * 32);
    // L1 misses (every sector: no L1) = L2 tex reads + coalesced reads.
    EXPECT_EQ(r.load_sectors, r.ncu.l2_sectors_tex_read + r.ncu.l2_sectors_coalesced);
}

TEST(GpuRequestCoalescing, CapStartsAFreshLookup) {
    // Two SMs per lookup: SM 1 joins SM 0's miss; SM 2 looks up (a hit: the fill is in) and SM 3
    // joins it.
    const GpuResult r = simulate_gpu_model(matmul(32, 4, 1), four_sms(1, 1, 2));
    EXPECT_EQ(r.ncu.l2_sectors_tex_read, 2u * (1 + 4));
    EXPECT_EQ(r.ncu.l2_sectors_tex_read_hit, 1u + 4u);
    EXPECT_EQ(r.ncu.l2_sectors_coalesced, 2u * (1 + 4));
}

TEST(GpuRequestCoalescing, OnlyTheMissWindowOpen) {
    // A hit opens no window: with 3 requesters per lookup SMs 1, 2 join SM 0's miss, SM 3 hits
    // on its own and nobody is left to join it.
    const GpuResult r = simulate_gpu_model(matmul(32, 4, 1), four_sms(0, 1, 3));
    EXPECT_EQ(r.ncu.l2_sectors_tex_read, 2u * (1 + 4));
    EXPECT_EQ(r.ncu.l2_sectors_tex_read_hit, 1u + 4u);
    EXPECT_EQ(r.ncu.l2_sectors_coalesced, 2u * (1 + 4));
}

// Block b runs on SM b, so each scope splits the four into the same two groups:
// tpc: SMs 0, 1 form one TPC and SMs 2, 3 another; pairs: blocks 0, 1 form one dispatch pair and
// 2, 3 another; neighbours: block 2 is two blocks away from block 0 but next to block 3. Either
// way SM 1 joins SM 0's miss, SM 2 looks up on its own (a hit: the fill is in) and SM 3 joins it.
TEST(GpuRequestCoalescing, ScopesSplitFourSmsIntoTwoGroups) {
    for (CoalesceScope scope : {CoalesceScope::tpc, CoalesceScope::pairs, CoalesceScope::neighbours}) {
        const GpuResult r = simulate_gpu_model(matmul(32, 4, 1), four_sms(1, 1, 4, scope));
        EXPECT_EQ(r.ncu.l2_sectors_tex_read, 2u * (1 + 4)) << coalesce_scope_name(scope);
        EXPECT_EQ(r.ncu.l2_sectors_tex_read_hit, 1u + 4u) << coalesce_scope_name(scope);
        EXPECT_EQ(r.ncu.l2_sectors_coalesced, 2u * (1 + 4)) << coalesce_scope_name(scope);
    }
}

TEST(GpuRequestCoalescing, TwoBlocksAreOnePair) {
    // A launch of two blocks (0 and 1) is one pair: block 1 joins block 0.
    const GpuResult two = simulate_gpu_model(matmul(32, 2, 1), four_sms(1, 1, 4, CoalesceScope::pairs));
    EXPECT_EQ(two.ncu.l2_sectors_tex_read, 1u + 4u);
    EXPECT_EQ(two.ncu.l2_sectors_coalesced, 1u + 4u);
}

TEST(RequestCoalescer, NeighbourGroupsShare) {
    RequestCoalescer c;
    c.reset(10, 10, 4, 4);
    c.set_neighbours(true);
    c.open(9, 0xf, 0, true, /*group=*/5);
    EXPECT_FALSE(c.merge(9, 0xf, 1, 7));
    EXPECT_FALSE(c.merge(9, 0xf, 1, 3));
    EXPECT_TRUE(c.merge(9, 0xf, 1, 6));
    EXPECT_TRUE(c.merge(9, 0xf, 1, 4));
    EXPECT_TRUE(c.merge(9, 0xf, 1, 5));
}

TEST(RequestCoalescer, GroupsDoNotShare) {
    RequestCoalescer c;
    c.reset(10, 10, 4, 4);
    c.open(9, 0xf, 0, true, /*group=*/0);
    EXPECT_FALSE(c.merge(9, 0xf, 1, 1));
    EXPECT_TRUE(c.merge(9, 0xf, 1, 0));
    c.open(9, 0xf, 1, true, 1);  // both groups' entries open at once
    EXPECT_TRUE(c.merge(9, 0xf, 2, 1));
    EXPECT_TRUE(c.merge(9, 0xf, 2, 0));
}

// Only the h200 preset, whose coalescer was measured (l1probe), has it on: between the SMs of a
// dispatch pair, with the measured windows. The others leave it off (within TPCs if switched on).
// Measured on the H200; the h100 preset shares the H200's Hopper configuration.
TEST(GpuRequestCoalescing, OnlyTheHopperPresetsCoalesce) {
    for (const GpuPreset& p : gpu_presets()) {
        const bool measured = p.name == "h200" || p.name == "h100";
        EXPECT_EQ(p.config.l2_coalesce_hit_rounds, measured ? 50u : 0u) << p.name;
        EXPECT_EQ(p.config.l2_coalesce_miss_rounds, measured ? 200u : 0u) << p.name;
        EXPECT_EQ(p.config.l2_coalesce_scope, measured ? CoalesceScope::pairs : CoalesceScope::tpc) << p.name;
    }
}

}  // namespace
}  // namespace cachesim
