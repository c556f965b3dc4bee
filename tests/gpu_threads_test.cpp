// The lock step on several threads (RunControl::threads): the SMs of a chunk run in parallel and
// the L2 replays a chunk while they run the next, yet every counter is the same as on one thread,
// for launches that span several chunks, refill blocks all along and exercise each scheduler.
#include <gtest/gtest.h>

#include <vector>

#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "tests/gpu_test_util.hpp"

namespace cachesim {
namespace {

void expect_same_levels(const LevelStats& a, const LevelStats& b) {
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.reads, b.reads);
    EXPECT_EQ(a.read_hits, b.read_hits);
    EXPECT_EQ(a.read_misses, b.read_misses);
    EXPECT_EQ(a.writes, b.writes);
    EXPECT_EQ(a.write_hits, b.write_hits);
    EXPECT_EQ(a.write_misses, b.write_misses);
    EXPECT_EQ(a.writes_forwarded, b.writes_forwarded);
    EXPECT_EQ(a.evictions, b.evictions);
    EXPECT_EQ(a.writebacks, b.writebacks);
    EXPECT_EQ(a.bytes_from_below, b.bytes_from_below);
    EXPECT_EQ(a.bytes_to_below, b.bytes_to_below);
    ASSERT_EQ(a.per_array.size(), b.per_array.size());
    for (std::size_t i = 0; i < a.per_array.size(); ++i) {
        EXPECT_EQ(a.per_array[i].reads, b.per_array[i].reads);
        EXPECT_EQ(a.per_array[i].read_misses, b.per_array[i].read_misses);
        EXPECT_EQ(a.per_array[i].writes, b.per_array[i].writes);
        EXPECT_EQ(a.per_array[i].write_misses, b.per_array[i].write_misses);
    }
}

void expect_same(const GpuResult& a, const GpuResult& b) {
    EXPECT_EQ(a.rounds, b.rounds);
    EXPECT_EQ(a.blocks, b.blocks);
    EXPECT_EQ(a.warps, b.warps);
    EXPECT_EQ(a.load_requests, b.load_requests);
    EXPECT_EQ(a.store_requests, b.store_requests);
    EXPECT_EQ(a.load_sectors, b.load_sectors);
    EXPECT_EQ(a.store_sectors, b.store_sectors);
    EXPECT_EQ(a.ncu.metrics(), b.ncu.metrics());
    EXPECT_EQ(a.result.reads, b.result.reads);
    EXPECT_EQ(a.result.writes, b.result.writes);
    EXPECT_EQ(a.result.accesses, b.result.accesses);
    EXPECT_EQ(a.result.steps, b.result.steps);
    EXPECT_EQ(a.result.memory_bytes_read, b.result.memory_bytes_read);
    EXPECT_EQ(a.result.memory_bytes_written, b.result.memory_bytes_written);
    ASSERT_EQ(a.result.levels.size(), b.result.levels.size());
    for (std::size_t i = 0; i < a.result.levels.size(); ++i) expect_same_levels(a.result.levels[i], b.result.levels[i]);
}

void expect_same_on_1_2_3_threads(const WorkloadSpec& spec, const GpuConfig& config) {
    RunControl control;
    const GpuResult one = simulate_gpu_model(spec, config, control);
    ASSERT_GT(one.rounds, 3u * 16384) << "should span several chunks";
    ASSERT_GT(one.blocks, 4u * config.sms) << "should refill blocks";
    for (std::uint32_t threads : {2u, 3u}) {
        SCOPED_TRACE(threads);
        control.threads = threads;
        expect_same(one, simulate_gpu_model(spec, config, control));
    }
}

GpuConfig h200(std::uint32_t sms) { return with_sms(find_gpu_preset("h200")->config, sms); }

// The preset as it is: loose round robin with rate spread, bursts and block start skips, two
// partitions filled at home, the request coalescer grouping by block pairs.
TEST(GpuThreads, StencilWithThePresetsScheduler) {
    GpuConfig c = h200(12);
    c.block_start_skip = 3;
    expect_same_on_1_2_3_threads(test::stencil(1024, 1024, 5), c);
}

TEST(GpuThreads, MatmulWithThePresetsScheduler) {
    expect_same_on_1_2_3_threads(test::matmul(256, 256, 256), h200(8));
}

// Greedy then oldest, blocks in fill order refilled by SM index, coalescing among neighbours,
// near fill with interleaved partitions, a small L1 that evicts.
TEST(GpuThreads, StencilWithGreedyThenOldest) {
    GpuConfig c = h200(4);
    c.scheduler = WarpScheduler::gto;
    c.cta_order = CtaOrder::fill;
    c.cta_refill = CtaRefill::sm_order;
    c.l2_coalesce_scope = CoalesceScope::neighbours;
    c.partition_fill = PartitionFill::near;
    c.partition_map = PartitionMap::interleaved;
    c.l1_auto = false;
    c.l1.size_bytes = 16 * 1024;
    expect_same_on_1_2_3_threads(test::stencil(1024, 768, 3, "column:32"), c);
}

// Plain loose round robin, no spread, no bursts, no request coalescer, one partition.
TEST(GpuThreads, MatmulWithPlainRoundRobin) {
    GpuConfig c = h200(6);
    c.warp_rate_spread = 0;
    c.issue_burst = 1;
    c.block_start_skip = 0;
    c.l2_coalesce_hit_rounds = c.l2_coalesce_miss_rounds = 0;
    c.l2_partitions = 1;
    c.block = 64;
    expect_same_on_1_2_3_threads(test::matmul(192, 160, 192, "zigzag:32"), c);
}

// More threads than SMs: the extra ones have nothing to do.
TEST(GpuThreads, MoreThreadsThanSms) {
    GpuConfig c = h200(2);
    const WorkloadSpec spec = test::stencil(256, 64, 3);
    RunControl control;
    const GpuResult one = simulate_gpu_model(spec, c, control);
    control.threads = 5;
    expect_same(one, simulate_gpu_model(spec, c, control));
}

}  // namespace
}  // namespace cachesim
