// The GPU model on small launches worked by hand, the two-partition L2, the sector-count identity
// at a reduced size, and equivalences (fast lane addresses vs Workload::access, chunked vs
// round-by-round execution).
#include <gtest/gtest.h>

#include <map>

#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "tests/gpu_test_util.hpp"

namespace cachesim {
namespace {

using test::matmul;
using test::stencil;

// A small GPU: `sms` SMs, blocks of 32, one partition, 32 B DRAM reads, big caches, no request
// coalescing (tests/gpu_request_coalescing_test.cpp has it).
GpuConfig small_gpu(std::uint32_t sms, std::uint32_t blocks_per_sm) {
    GpuConfig c = with_sms(find_gpu_preset("h200")->config, sms);
    c.block = 32;
    c.max_blocks_per_sm = blocks_per_sm;
    c.l2_partitions = 1;
    c.dram_fetch_bytes = 32;
    c.l2_coalesce_hit_rounds = c.l2_coalesce_miss_rounds = 0;
    c.issue_burst = 1;  // one request per turn (gpu_issue_burst_test.cpp has the bursts)
    c.block_start_skip = 0;
    c.warp_rate_spread = 0;  // lock step (gpu_warp_rate_spread_test.cpp has the rates)
    c.miss_wait_turns = 0;   // a miss delays no warp (gpu_miss_wait_test.cpp has the waits)
    return c;
}

// Worked by hand. matmul 64x1, depth 2, blocks of 32 threads (one warp each), one SM holding both
// blocks. A = 2 floats at 0, B = 2x64 floats at 4096, C = 64 floats at 8192. Each warp's requests:
// k0 A[0], k1 B row 0, k2 A[1], k3 B row 1, k4 store C. LRR alternates the two warps.
TEST(GpuModel, SmallLaunchWorkedByHand) {
    GpuConfig c = small_gpu(1, 2);
    std::vector<GpuIssue> log;
    c.issue_log = &log;
    const GpuResult r = simulate_gpu_model(matmul(64, 1, 2), c);
    // Order: w0 k0, w1 k0, w0 k1, w1 k1, ... one request per round.
    ASSERT_EQ(log.size(), 10u);
    for (std::uint32_t i = 0; i < 10; ++i) {
        EXPECT_EQ(log[i].round, i);
        EXPECT_EQ(log[i].block, i % 2);
        EXPECT_EQ(log[i].k, i / 2);
    }
    EXPECT_EQ(r.rounds, 10u);
    EXPECT_EQ(r.blocks, 2u);
    EXPECT_EQ(r.warps, 2u);
    // 8 load requests: 4 of A (one broadcast sector each) and 4 of B (4 sectors each) = 20 sectors.
    EXPECT_EQ(r.ncu.l1_requests_ld, 8u);
    EXPECT_EQ(r.ncu.l1_sectors_ld, 20u);
    // L1 hits: w1's A[0] (round 1), w0's and w1's A[1] (same sector, rounds 4 and 5).
    EXPECT_EQ(r.ncu.l1_sectors_ld_hit, 3u);
    EXPECT_DOUBLE_EQ(r.ncu.l1_hit_rate_pct(), 15.0);
    // Every miss reaches the L2 and misses there too: 1 A sector + 16 B sectors from DRAM.
    EXPECT_EQ(r.ncu.l2_sectors_tex_read, 17u);
    EXPECT_EQ(r.ncu.l2_sectors_tex_read_hit, 0u);
    EXPECT_EQ(r.ncu.dram_bytes_read, 17u * 32);
    // Stores: two warps write 128 B each, whole sectors, so the L2 allocates without fetching.
    EXPECT_EQ(r.store_requests, 2u);
    EXPECT_EQ(r.store_sectors, 8u);
    ASSERT_EQ(r.result.levels.size(), 2u);
    const LevelStats& l1 = r.result.levels[0];
    const LevelStats& l2 = r.result.levels[1];
    EXPECT_EQ(l1.name, "L1");
    EXPECT_EQ(l1.reads, 20u);
    EXPECT_EQ(l1.read_hits, 3u);
    EXPECT_EQ(l1.read_misses, 17u);
    EXPECT_EQ(l1.writes, 0u);
    EXPECT_EQ(l1.writes_forwarded, 8u);
    EXPECT_EQ(l1.bytes_from_below, 17u * 32);
    EXPECT_EQ(l1.per_array[0].reads, 4u);  // A
    EXPECT_EQ(l1.per_array[0].read_misses, 1u);
    EXPECT_EQ(l1.per_array[1].reads, 16u);  // B
    EXPECT_EQ(l1.per_array[1].read_misses, 16u);
    EXPECT_EQ(l2.reads, 17u);
    EXPECT_EQ(l2.read_misses, 17u);
    EXPECT_EQ(l2.writes, 8u);
    EXPECT_EQ(l2.write_misses, 8u);
    EXPECT_EQ(l2.evictions, 0u);
    EXPECT_EQ(r.result.memory_bytes_read, 17u * 32);
    EXPECT_EQ(r.result.memory_bytes_written, 0u);
    // Thread-level accesses: 64 threads x 5.
    EXPECT_EQ(r.result.reads, 256u);
    EXPECT_EQ(r.result.writes, 64u);
    EXPECT_EQ(r.result.accesses, 320u);
    EXPECT_EQ(r.result.steps, 64u);
}

// The same launch on two SMs (one block each): each SM has its own L1, so only the second A
// request of each SM hits; SM 1's first A request finds the sector in the L2 that SM 0's miss
// filled earlier in the same round.
TEST(GpuModel, PrivateL1sSharedL2) {
    const GpuResult r = simulate_gpu_model(matmul(64, 1, 2), small_gpu(2, 1));
    EXPECT_EQ(r.rounds, 5u);
    EXPECT_EQ(r.ncu.l1_sectors_ld, 20u);
    EXPECT_EQ(r.ncu.l1_sectors_ld_hit, 2u);
    EXPECT_EQ(r.ncu.l2_sectors_tex_read, 18u);
    EXPECT_EQ(r.ncu.l2_sectors_tex_read_hit, 1u);
    EXPECT_EQ(r.ncu.dram_bytes_read, 17u * 32);
}

// Two partitions, near fill (Ernst et al.'s description): SM 0 is attached to one half, SM 1 to the
// other. SM 1's first A request misses its near half and hits the far one (no DRAM traffic); the
// sector is copied to the near half, so its second A request (no L1 to absorb it) hits there.
TEST(GpuModel, TwoPartitionL2CopiesFarHitsToTheNearHalf) {
    GpuConfig c = small_gpu(2, 1);
    c.l1.size_bytes = 0;  // no L1: every sector goes to the L2
    c.l1_auto = false;
    const GpuResult one = simulate_gpu_model(matmul(64, 1, 2), c);
    EXPECT_EQ(one.result.levels.size(), 1u);
    EXPECT_EQ(one.ncu.l1_sectors_ld, 20u);
    EXPECT_EQ(one.ncu.l1_sectors_ld_hit, 0u);
    EXPECT_EQ(one.ncu.l2_sectors_tex_read, 20u);
    EXPECT_EQ(one.ncu.l2_sectors_tex_read_hit, 3u);  // SM 1's A[0], both A[1]
    EXPECT_EQ(one.l2_far_hits(), 0u);
    EXPECT_EQ(one.ncu.dram_bytes_read, 17u * 32);

    c.l2_partitions = 2;
    c.partition_fill = PartitionFill::near;
    for (PartitionMap map : {PartitionMap::halves, PartitionMap::interleaved}) {
        c.partition_map = map;
        const GpuResult two = simulate_gpu_model(matmul(64, 1, 2), c);
        EXPECT_EQ(two.ncu.l2_sectors_tex_read, 20u);
        EXPECT_EQ(two.ncu.l2_sectors_tex_read_hit, 2u);  // both A[1], in each SM's near half
        EXPECT_EQ(two.l2_far_hits(), 1u);                  // SM 1's A[0]
        EXPECT_EQ(two.ncu.dram_bytes_read, 17u * 32);    // the far hit costs no DRAM read
        EXPECT_EQ(two.result.levels[0].read_hits, 3u);   // served by the L2 (near or far)
    }
    // Each half holds half the capacity.
    EXPECT_EQ(l2_partition(c).size_bytes, c.l2.size_bytes / 2);
}

// Home fill: DRAM reads land in the line's home half (and a copy in the requester's half); a near
// miss asks the far half only when that is the home. A is line 0: SM 0 reads it first.
TEST(GpuModel, TwoPartitionL2HomeFill) {
    GpuConfig c = small_gpu(2, 1);
    c.l1.size_bytes = 0;
    c.l1_auto = false;
    c.l2_partitions = 2;
    c.partition_fill = PartitionFill::home;
    const GpuResult r = simulate_gpu_model(matmul(64, 1, 2), c);
    std::uint64_t far_lookups = 0, far_hits = 0, near_hits = 2;  // both A[1] reads hit near
    if (l2_home_partition(0) == 0) {
        // SM 0's miss fills its own half (the home); SM 1 misses near, finds it at home, copies.
        far_lookups += 1;
        far_hits += 1;
    } else {
        // SM 0's miss asks the home (SM 1's half), misses, DRAM fills both; SM 1 hits near.
        far_lookups += 1;
        near_hits += 1;
    }
    // B: SM 0 reads columns 0..31, SM 1 columns 32..63 (lines 32..35): each of the 16 sectors is
    // read once; a far lookup for every one homed in the other half.
    for (std::uint64_t line = 32; line < 36; ++line) {
        const std::uint32_t reader = (line % 2 == 0) ? 0 : 1;  // line 32, 34: SM 0; 33, 35: SM 1
        if (l2_home_partition(line) != reader) far_lookups += 4;
    }
    EXPECT_EQ(r.ncu.l2_sectors_tex_read, 20u);
    EXPECT_EQ(r.ncu.l2_sectors_tex_read_hit, near_hits);
    EXPECT_EQ(r.l2_far_hits(), far_hits);
    EXPECT_EQ(r.l2_far_lookups(), far_lookups);
    EXPECT_EQ(r.ncu.dram_bytes_read, 17u * 32);
}

// matmul 64x2, depth 8, one block of 32 per SM on 4 SMs: SMs 0,1 compute row 0 (A sector 0),
// SMs 2,3 row 1 (A sector 1); SMs 0,2 read B columns 0..31, SMs 1,3 columns 32..63. No L1.
// halves (SMs 0,1 | 2,3): A shared within a half, every B sector crosses: 8 rows x 8 far hits.
// interleaved (SMs 0,2 | 1,3): B shared within a half, each A sector crosses once.
TEST(GpuModel, PartitionMaps) {
    GpuConfig c = small_gpu(4, 1);
    c.l1.size_bytes = 0;
    c.l1_auto = false;
    c.l2_partitions = 2;
    c.partition_fill = PartitionFill::near;
    c.partition_map = PartitionMap::halves;
    const GpuResult halves = simulate_gpu_model(matmul(64, 2, 8), c);
    EXPECT_EQ(halves.l2_far_hits(), 64u);
    c.partition_map = PartitionMap::interleaved;
    const GpuResult inter = simulate_gpu_model(matmul(64, 2, 8), c);
    EXPECT_EQ(inter.l2_far_hits(), 2u);
    // DRAM: 2 A sectors and 8 rows x 8 B sectors, either way.
    EXPECT_EQ(halves.ncu.dram_bytes_read, 66u * 32);
    EXPECT_EQ(inter.ncu.dram_bytes_read, 66u * 32);
}

TEST(GpuModel, DramFetchGranularity) {
    GpuConfig c = small_gpu(1, 2);
    const GpuResult s32 = simulate_gpu_model(matmul(64, 1, 2), c);
    c.dram_fetch_bytes = 128;
    const GpuResult s128 = simulate_gpu_model(matmul(64, 1, 2), c);
    // A's miss now brings the whole 128 B line: 4 sectors instead of 1. B lines are read whole anyway.
    EXPECT_EQ(s128.ncu.dram_bytes_read, s32.ncu.dram_bytes_read + 3 * 32);
    EXPECT_EQ(s128.ncu.l2_sectors_tex_read, s32.ncu.l2_sectors_tex_read);
}

// Naive matmul N x N x D, linear, block 128: every warp request of A is one broadcast sector and
// of B 4 sectors (32 consecutive aligned floats), so the L1 sees N*N/32 * D * 5 sector lookups
// (167,772,160 at N = D = 1024, as Nsight Compute reports on the H200).
TEST(GpuModel, SectorCountIdentityAtReducedSize) {
    for (std::uint32_t n : {64u, 128u, 256u}) {
        GpuConfig c = find_gpu_preset("h200")->config;
        c.block = 128;
        const std::uint32_t d = n;
        const GpuResult r = simulate_gpu_model(matmul(n, n, d), c);
        const std::uint64_t warps = static_cast<std::uint64_t>(n) * n / 32;
        EXPECT_EQ(r.ncu.l1_sectors_ld, warps * d * 5) << n;
        EXPECT_EQ(r.ncu.l1_requests_ld, warps * d * 2) << n;
        EXPECT_EQ(r.warps, warps);
        EXPECT_EQ(r.blocks, static_cast<std::uint64_t>(n) * n / 128);
    }
    // The full-size formula.
    EXPECT_EQ(1024ull * 1024 / 32 * 1024 * 5, 167772160ull);
}

// Out-of-range threads do nothing: a launch of 100 threads in blocks of 64 has 4 warps, the last
// one with 4 active lanes.
TEST(GpuModel, PartialWarpsAndBlocks) {
    GpuConfig c = find_gpu_preset("h200")->config;
    c.block = 64;
    std::vector<GpuIssue> log;
    c.issue_log = &log;
    const GpuResult r = simulate_gpu_model(stencil(100, 1, 1), c);  // 1x1 box: 1 read + 1 write
    EXPECT_EQ(r.blocks, 2u);
    EXPECT_EQ(r.warps, 4u);
    EXPECT_EQ(r.result.reads, 100u);
    EXPECT_EQ(r.result.writes, 100u);
    EXPECT_EQ(r.load_requests, 4u);
    // Sectors: 32 floats = 4 sectors for the 3 full warps, 4 floats = 1 sector for the last.
    EXPECT_EQ(r.load_sectors, 13u);
    // A block size that is not a multiple of 32: blocks of 48 = a full warp and a half warp.
    c.block = 48;
    const GpuResult h = simulate_gpu_model(stencil(96, 1, 1), c);
    EXPECT_EQ(h.blocks, 2u);
    EXPECT_EQ(h.warps, 4u);
    EXPECT_EQ(h.result.reads, 96u);
}

TEST(GpuModel, FastLaneAddressesEqualWorkloadAccess) {
    const std::vector<WorkloadSpec> specs = {
        stencil(37, 29, 3, "linear"), stencil(64, 20, 5, "column:8"), stencil(50, 9, 9, "zigzag:7"),
        stencil(200, 40, 5, "linear"), stencil(160, 30, 3, "column:32"), stencil(7, 5, 9, "linear"),
        stencil(33, 33, 3, "morton"), matmul(40, 24, 17, "tiled:8x4"), matmul(64, 64, 8, "column:16")};
    for (const WorkloadSpec& spec : specs) {
        GpuConfig c = with_sms(find_gpu_preset("h200")->config, 3);
        c.block = 64;
        c.l1_auto = false;
        c.l1.size_bytes = 4096;  // small caches, so that hits and misses both happen
        c.l2.size_bytes = 16384;
        c.l2.ways = 4;
        const GpuResult fast = simulate_gpu_model(spec, c);
        c.reference_addresses = true;
        const GpuResult ref = simulate_gpu_model(spec, c);
        EXPECT_EQ(fast.ncu.metrics(), ref.ncu.metrics()) << spec.describe();
        EXPECT_EQ(fast.load_sectors, ref.load_sectors);
        EXPECT_EQ(fast.store_sectors, ref.store_sectors);
        EXPECT_EQ(fast.result.memory_bytes_written, ref.result.memory_bytes_written);
    }
}

class CountingObserver : public SimObserver {
public:
    void on_lookup(int level, std::uint64_t, bool hit, bool, std::uint16_t) override {
        ++lookups[level];
        hits[level] += hit;
    }
    void on_fill(int level, std::uint64_t line) override { ++resident[level][line]; }
    void on_evict(int level, std::uint64_t line) override {
        if (--resident[level][line] < 0) negative = true;
    }
    void on_step_end(std::uint64_t step) override {
        if (step != steps) out_of_order = true;
        ++steps;
    }
    std::uint64_t lookups[2] = {0, 0}, hits[2] = {0, 0}, steps = 0;
    std::map<std::uint64_t, std::int64_t> resident[2];
    bool negative = false, out_of_order = false;
};

// With an observer the model runs round by round; the counters must be the same, and the events
// must add up: every L1 sector lookup at level 0, every L2 lookup at level 1, one step per round,
// and fills minus evictions per line never negative (a line is in some L1 while positive).
TEST(GpuModel, ObserverSeesEveryLevelAndRound) {
    for (WarpScheduler scheduler : {WarpScheduler::lrr, WarpScheduler::gto}) {
        GpuConfig c = with_sms(find_gpu_preset("h200")->config, 5);
        c.block = 64;
        c.scheduler = scheduler;
        c.l1_auto = false;
        c.l1.size_bytes = 2048;
        c.l2.size_bytes = 32768;
        const WorkloadSpec spec = stencil(96, 40, 3, "column:16");
        const GpuResult plain = simulate_gpu_model(spec, c);
        CountingObserver observer;
        RunControl control;
        control.observer = &observer;
        const GpuResult watched = simulate_gpu_model(spec, c, control);
        EXPECT_EQ(plain.ncu.metrics(), watched.ncu.metrics());
        EXPECT_EQ(plain.rounds, watched.rounds);
        EXPECT_EQ(plain.l2_far_hits(), watched.l2_far_hits());
        EXPECT_EQ(observer.lookups[0], watched.ncu.l1_sectors_ld);
        EXPECT_EQ(observer.hits[0], watched.ncu.l1_sectors_ld_hit);
        EXPECT_EQ(observer.lookups[1], watched.result.levels[1].accesses());
        EXPECT_EQ(observer.steps, watched.rounds);
        EXPECT_FALSE(observer.out_of_order);
        EXPECT_FALSE(observer.negative);
        std::int64_t resident_lines = 0;
        for (const auto& [line, count] : observer.resident[0]) resident_lines += count;
        EXPECT_GT(resident_lines, 0);
        EXPECT_LE(resident_lines, static_cast<std::int64_t>(c.sms * 2048 / 128));
    }
}

TEST(GpuModel, ProgressAndCancel) {
    GpuConfig c = find_gpu_preset("h200")->config;
    const WorkloadSpec spec = stencil(512, 512, 3);
    double last = -1;
    bool monotone = true;
    RunControl control;
    control.progress = [&](double f) {
        if (f < last) monotone = false;
        last = f;
    };
    simulate_gpu_model(spec, c, control);
    EXPECT_TRUE(monotone);
    EXPECT_DOUBLE_EQ(last, 1.0);
    std::atomic<bool> cancel{true};
    RunControl stop;
    stop.cancel = &cancel;
    EXPECT_THROW(simulate_gpu_model(spec, c, stop), Cancelled);
}

TEST(GpuModel, SameInputsSameResult) {
    GpuConfig c = find_gpu_preset("v100")->config;  // random4 L1
    const WorkloadSpec spec = stencil(256, 256, 5, "column:32");
    const GpuResult a = simulate_gpu_model(spec, c);
    const GpuResult b = simulate_gpu_model(spec, c);
    EXPECT_EQ(a.ncu.metrics(), b.ncu.metrics());
    c.seed = 99;
    const GpuResult other = simulate_gpu_model(spec, c);
    EXPECT_EQ(other.ncu.l1_sectors_ld, a.ncu.l1_sectors_ld);  // coalescing does not depend on the seed
}

TEST(GpuModel, InvalidConfigurationsAreRefused) {
    const WorkloadSpec spec = stencil(64, 64, 3);
    GpuConfig c = find_gpu_preset("h200")->config;
    auto refused = [&](GpuConfig bad) {
        EXPECT_THROW(simulate_gpu_model(spec, bad), SimulationError);
    };
    GpuConfig b = c;
    b.block = 0;
    refused(b);
    b = c;
    b.block = 2048;
    refused(b);
    b = c;
    b.max_threads_per_sm = 128;  // a block of 256 does not fit
    refused(b);
    b = c;
    b.sms = 0;
    refused(b);
    b = c;
    b.l2_partitions = 3;
    refused(b);
    b = c;
    b.dram_fetch_bytes = 48;
    refused(b);
    b = c;
    b.l1.policy = PolicyKind::opt;
    refused(b);
    b = c;
    b.l1.policy = PolicyKind::plru;  // 1984 ways is not a power of two
    refused(b);
    b = c;
    b.l2.size_bytes = 1000;  // not whole lines per partition
    refused(b);
    b = c;
    b.smem_per_block = 300 * 1024;  // no carve-out holds it
    refused(b);
}

}  // namespace
}  // namespace cachesim
