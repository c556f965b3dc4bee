// The lock step on several threads (RunControl::threads): the SMs of a chunk run in parallel and
// the L2 replays a chunk while they run the next, yet every counter is the same as on one thread,
// for launches that span several chunks, refill blocks all along and exercise each scheduler.
// (gpu_sliced_l2_test.cpp: the L2's slices on 1, 2, 3 and 8 threads.)
#include <gtest/gtest.h>

#include <vector>

#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "tests/gpu_same_result.hpp"
#include "tests/gpu_test_util.hpp"

namespace cachesim {
namespace {

using test::expect_same;
using test::expect_same_on_threads;

void expect_same_on_1_2_3_threads(const WorkloadSpec& spec, const GpuConfig& config) {
    expect_same_on_threads(spec, config, {2u, 3u});
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

// The batches of SMs run side by side: none on one thread; on two, a launch whose blocks are all
// resident from the start and that ends within one chunk is one batch of every SM (no refill).
// With refills planned ahead (the preset's timing) a chunk is one batch whatever the refills;
// where they cannot be (greedy then oldest), an SM whose block finished waits for the others.
TEST(GpuThreads, BatchesCountTheSmsRunSideBySide) {
    GpuConfig c = h200(8);
    c.block = 256;
    const WorkloadSpec one_block_each = test::stencil(64, 32, 3);  // 2,048 threads: 8 blocks of 256, one per SM
    RunControl two;
    two.threads = 2;
    const GpuResult parallel = simulate_gpu_model(one_block_each, c, two);
    EXPECT_EQ(parallel.blocks, 8u);
    EXPECT_EQ(parallel.sm_batches, 1u);
    EXPECT_EQ(parallel.sm_batch_runs, 8u);
    const GpuResult serial = simulate_gpu_model(one_block_each, c);
    EXPECT_EQ(serial.sm_batches, 0u);
    EXPECT_EQ(serial.sm_batch_runs, 0u);
    // Refills: more blocks than SMs (128 of 256 threads), within one chunk.
    const WorkloadSpec refilling = test::stencil(256, 128, 3);
    const GpuResult planned = simulate_gpu_model(refilling, c, two);
    ASSERT_GT(planned.blocks, 8u * gpu_occupancy(c).blocks_per_sm);
    ASSERT_LT(planned.rounds, 16384u);
    EXPECT_EQ(planned.sm_batches, 1u);
    EXPECT_EQ(planned.sm_batch_runs, 8u);
    // Unplanned: later batches hold the SMs whose block finished.
    c.scheduler = WarpScheduler::gto;
    const GpuResult refilled = simulate_gpu_model(refilling, c, two);
    EXPECT_GT(refilled.sm_batches, 1u);
    EXPECT_GE(refilled.sm_batch_runs, refilled.sm_batches);
    EXPECT_LE(refilled.sm_batch_runs, refilled.sm_batches * 8);
}

}  // namespace
}  // namespace cachesim
