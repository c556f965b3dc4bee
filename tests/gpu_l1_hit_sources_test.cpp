// The L1's hits counted by the warp that brought the sector (sim/gpu/l1_hit_sources.hpp), worked
// by hand where the matmul's sharing is known: the matmul one 128-column strip wide on the h200
// preset, blocks of 128 threads, each block one row of C (as in gpu_strip_sharing_test). Per
// iteration of the loop warp w of a block reads one sector of A (the row's element, the same for
// its 32 threads and for the block's other three warps) and sectors 4w..4w+3 of B's row, which
// warp w of every other block on the SM reads too. A sector of A holds 8 iterations' elements.
#include <gtest/gtest.h>

#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "tests/gpu_same_result.hpp"
#include "tests/gpu_test_util.hpp"

namespace cachesim {
namespace {

constexpr std::uint64_t kSms = 132;
constexpr std::uint32_t kDepth = 256;

GpuConfig h200(std::uint32_t block) {
    GpuConfig c = find_gpu_preset("h200")->config;
    c.block = block;
    c.count_l1_hit_sources = true;
    // The slot cycle gives every SM its block in turn, so that the counts below are per SM alike
    // (the preset's turns give SMs 124-131 more than their share of a wave).
    c.cta_order = CtaOrder::floorplan;
    return c;
}

// `blocks_per_sm` blocks of 128 threads on each SM: one wave or less.
GpuResult strip(std::uint32_t blocks_per_sm) {
    return simulate_gpu_model(test::matmul(128, static_cast<std::uint32_t>(kSms) * blocks_per_sm, kDepth, "column:128"),
                              h200(128));
}

std::uint64_t l1_read_hits(const GpuResult& r) { return r.result.levels.at(0).read_hits; }

TEST(GpuL1HitSources, TheStripAtAWaveHalfOneAndOneBlockAnSm) {
    for (const std::uint64_t blocks : {16u, 8u, 1u}) {
        SCOPED_TRACE(blocks);
        const GpuResult r = strip(static_cast<std::uint32_t>(blocks));
        const std::uint64_t per_sm_iteration = kSms * kDepth;
        // B: each of the row's 16 sectors is filled by the first of the SM's blocks to ask and
        // found by the others. A: of a block's 32 lookups of a sector over its 8 iterations, the
        // warp that filled it finds it 7 times and the other three warps 8 times each.
        EXPECT_EQ(r.l1_hit_sources.other_block, per_sm_iteration * 16 * (blocks - 1));
        EXPECT_EQ(r.l1_hit_sources.own_warp, per_sm_iteration * blocks * 7 / 8);
        EXPECT_EQ(r.l1_hit_sources.own_block, per_sm_iteration * blocks * 24 / 8);
        EXPECT_EQ(r.l1_hit_sources.total(), l1_read_hits(r));
        // Of the 20 lookups a block makes an iteration (4 warps, a sector of A and 4 of B each),
        // 16 (blocks - 1) / blocks are other blocks' sectors: 75, 70 and 0 points.
        EXPECT_DOUBLE_EQ(r.l1_hit_sources.other_block_points(r.result.levels.at(0).reads),
                         80.0 * static_cast<double>(blocks - 1) / static_cast<double>(blocks));
    }
}

TEST(GpuL1HitSources, BlocksOfOneWarpFindOnlyTheirOwnAndOtherBlocks) {
    GpuConfig c = h200(32);
    const GpuResult r = simulate_gpu_model(test::matmul(256, 256, 64), c);
    EXPECT_EQ(r.l1_hit_sources.own_block, 0u);
    EXPECT_GT(r.l1_hit_sources.own_warp, 0u);
    EXPECT_GT(r.l1_hit_sources.other_block, 0u);
    EXPECT_EQ(r.l1_hit_sources.total(), l1_read_hits(r));
}

TEST(GpuL1HitSources, AStencilUnderCycleTimingAndAWarmStartAddsUpToTheHits) {
    GpuConfig c = h200(256);
    c.timing = IssueTiming::cycles;
    const GpuResult cycles = simulate_gpu_model(test::stencil(512, 256, 5, "column:32"), c);
    EXPECT_EQ(cycles.l1_hit_sources.total(), l1_read_hits(cycles));
    c = h200(256);
    c.l2_start = L2Start::warm;
    const GpuResult warm = simulate_gpu_model(test::stencil(512, 256, 5, "column:32"), c);
    EXPECT_EQ(warm.l1_hit_sources.total(), l1_read_hits(warm));
}

TEST(GpuL1HitSources, NotCountedUnlessAsked) {
    GpuConfig c = h200(128);
    c.count_l1_hit_sources = false;
    const GpuResult r = simulate_gpu_model(test::matmul(256, 256, 64), c);
    EXPECT_GT(l1_read_hits(r), 0u);
    EXPECT_EQ(r.l1_hit_sources.total(), 0u);
}

TEST(GpuL1HitSources, TheSameOnAnyNumberOfThreads) {
    // Several chunks and refills, with the dispatch planned ahead on several threads.
    test::expect_same_on_threads(test::matmul(512, 512, 512), h200(128), {2, 3});
}

TEST(GpuL1HitSources, NoL1NoHits) {
    GpuConfig c = h200(128);
    c.l1.size_bytes = 0;
    c.l1_auto = false;
    const GpuResult r = simulate_gpu_model(test::matmul(256, 256, 64), c);
    EXPECT_EQ(r.l1_hit_sources.total(), 0u);
}

}  // namespace
}  // namespace cachesim
