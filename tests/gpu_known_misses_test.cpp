// Which launches the GPU model flags as lying in a region where it is known to miss the chip
// (docs/fidelity.md, "Column strips wider than 128, and one-warp blocks"). The boundaries are the
// measured ones (the H200's thesis sweep): at block 32 the matmul's naive order and strips of 128
// to 2048 columns were 3.1 to 22 points off, strips of 4 to 96 within 3.1 and the 9x9 stencil in
// every order within 1; at blocks 64 to 1024 its strips of 256 and 512 were 4 to 17 points off,
// column:128 and a strip as wide as the matrix (the naive order) within 3.6. Started with a warm
// L2 (the H200's warm probes) the naive order and strips of 128 were up to 31 points off, narrower
// strips and tiles within 2.5; with shared memory leaving the L1 below the 224 KiB the rates were
// fitted at, up to 32 points low and 25 high.
#include <gtest/gtest.h>

#include <optional>

#include "sim/gpu/gpu_presets.hpp"
#include "sim/gpu/known_misses.hpp"
#include "traces/warp_times.hpp"

namespace cachesim {
namespace {

WorkloadSpec matmul(const char* schedule, std::uint32_t width = 1024) {
    WorkloadSpec w;
    w.kind = WorkloadKind::matmul;
    w.width = w.height = width;
    w.depth = 1024;
    w.schedule = parse_schedule(schedule);
    return w;
}

GpuConfig h200(std::uint32_t block) {
    GpuConfig c = find_gpu_preset("h200")->config;
    c.block = block;
    return c;
}

std::vector<std::string> regions(const WorkloadSpec* w, const GpuConfig& c,
                                 std::optional<double> other_block_points = std::nullopt) {
    std::vector<std::string> names;
    for (const KnownMiss* m : known_misses(w, c, other_block_points)) names.emplace_back(m->region);
    return names;
}

const std::string kOneWarp = "one-warp matmul blocks, naive, tiles or strips >= 128";

TEST(GpuKnownMisses, OneWarpMatmulBlocksInTheNaiveOrderTilesOrStripsOf128ColumnsOrMore) {
    for (const char* s : {"linear", "column:128", "column:256", "column:2048", "tiled:32x32", "tiled:8x4"}) {
        const WorkloadSpec w = matmul(s);
        EXPECT_EQ(regions(&w, h200(32)), std::vector<std::string>{kOneWarp}) << s;
        EXPECT_EQ(regions(&w, h200(16)), std::vector<std::string>{kOneWarp}) << s;  // still one warp
    }
    for (const char* s : {"column:4", "column:32", "column:96", "zigzag:256", "morton"}) {
        const WorkloadSpec w = matmul(s);
        EXPECT_TRUE(regions(&w, h200(32)).empty()) << s;
    }
    const WorkloadSpec naive = matmul("linear");
    EXPECT_TRUE(regions(&naive, h200(64)).empty());  // two warps: in the sets
}

TEST(GpuKnownMisses, OneWarpStencilBlocksAndKernelsOfNoKnownWorkloadAreNotFlagged) {
    WorkloadSpec stencil;
    stencil.kind = WorkloadKind::stencil;
    stencil.width = stencil.height = 4096;
    for (const char* s : {"linear", "column:512"}) {
        stencil.schedule = parse_schedule(s);
        EXPECT_TRUE(regions(&stencil, h200(32)).empty()) << s;
    }
    EXPECT_TRUE(regions(nullptr, h200(32)).empty());
}

TEST(GpuKnownMisses, MatmulStripsWiderThan128ColumnsButNarrowerThanTheMatrix) {
    const GpuConfig c = h200(128);
    for (const char* s : {"column:256", "column:512", "column:129"}) {
        const WorkloadSpec w = matmul(s);
        EXPECT_EQ(regions(&w, c), std::vector<std::string>{"matmul strips wider than 128 columns"}) << s;
    }
    for (const char* s : {"column:128", "column:32", "column:1024", "column:2048", "linear", "zigzag:256", "tiled:256x4"}) {
        const WorkloadSpec w = matmul(s);
        EXPECT_TRUE(regions(&w, c).empty()) << s;
    }
    // 256 columns of a 2048-wide matrix are still a strip
    const WorkloadSpec wide = matmul("column:256", 2048);
    EXPECT_EQ(regions(&wide, c).size(), 1u);
    // a stencil's strips were not measured wider than 128
    WorkloadSpec stencil;
    stencil.kind = WorkloadKind::stencil;
    stencil.width = stencil.height = 1024;
    stencil.schedule = parse_schedule("column:256");
    EXPECT_TRUE(regions(&stencil, c).empty());
}

TEST(GpuKnownMisses, AtOneWarpBlocksOnlyTheOneWarpRegionApplies) {
    // at block 32 the wide strips were too low, not too high: the one-warp region says so
    const WorkloadSpec w = matmul("column:512");
    EXPECT_EQ(regions(&w, h200(32)), std::vector<std::string>{kOneWarp});
}

TEST(GpuKnownMisses, AWarmL2MatmulInTheOrdersWhoseHitsRestOnOtherBlocks) {
    GpuConfig warm = h200(128);
    warm.l2_start = L2Start::warm;
    for (const char* s : {"linear", "column:128"}) {
        const WorkloadSpec w = matmul(s, 768);
        EXPECT_EQ(regions(&w, warm), std::vector<std::string>{"matmul from a warm L2, naive or strips >= 128"}) << s;
        EXPECT_TRUE(regions(&w, h200(128)).empty()) << s;  // cold: in the sets
    }
    for (const char* s : {"column:32", "column:64", "tiled:32x32"}) {
        const WorkloadSpec w = matmul(s, 768);
        EXPECT_TRUE(regions(&w, warm).empty()) << s;
    }
    WorkloadSpec stencil;
    stencil.kind = WorkloadKind::stencil;
    EXPECT_TRUE(regions(&stencil, warm).empty());
}

TEST(GpuKnownMisses, AMatmulWhoseSharedMemoryLeavesTheL1Below224KiB) {
    // 11,264 bytes a block of 128 threads: the H200's driver leaves a 60 KiB L1
    GpuConfig small = h200(128);
    small.smem_per_block = 11264;
    ASSERT_EQ(gpu_occupancy(small).l1_bytes, 60u * 1024);
    const WorkloadSpec w = matmul("column:32");
    EXPECT_EQ(regions(&w, small), std::vector<std::string>{"matmul with an L1 below 224 KiB"});
    EXPECT_TRUE(regions(&w, h200(128)).empty());  // 224 KiB: the L1 the rates were fitted at
    // in lock step no rates are drawn, so the fitted L1 does not enter
    small.warp_rate_spread = 0;
    EXPECT_TRUE(regions(&w, small).empty());
    // 27,648 bytes: 8 blocks an SM, 8 warps a scheduler, which the 64-bit loop's scheduler keeps
    // at a lone warp's pace (lock step by --lockstep-warps auto), the 32-bit loop's not (its 6)
    GpuConfig eight = h200(128);
    eight.smem_per_block = 27648;
    EXPECT_TRUE(regions(&w, eight).empty());
    eight.compilation = KernelCompilation::index32;
    EXPECT_EQ(regions(&w, eight), std::vector<std::string>{"matmul with an L1 below 224 KiB"});
}

// In lock step the naive order at blocks of two warps or more was 4.4 to 15.6 points high in the
// 64-bit and 32-bit loops (blocks of two, four and eight warps), the unrolled-once loop's within 1.0
// at blocks of four; blocks of one warp are the one-warp region's.
TEST(GpuKnownMisses, TheNaiveMatmulInLockStepAtBlocksOfTwoWarpsOrMore) {
    const std::string region = "naive matmul in lock step, blocks of two warps or more";
    const WorkloadSpec naive = matmul("linear");
    GpuConfig eight = h200(128);  // 27,648 bytes: 8 blocks, 8 warps a scheduler, within the 64-bit loop's 11
    eight.smem_per_block = 27648;
    EXPECT_EQ(regions(&naive, eight), std::vector<std::string>{region});
    GpuConfig four_of_eight = h200(256);  // 49,152 bytes: 4 blocks of eight warps, 8 a scheduler
    four_of_eight.smem_per_block = 49152;
    EXPECT_EQ(regions(&naive, four_of_eight), std::vector<std::string>{region});
    GpuConfig two_warps = h200(64);  // 18,432 bytes: 12 blocks of two warps, 6 a scheduler
    two_warps.smem_per_block = 18432;
    two_warps.compilation = KernelCompilation::index32;
    EXPECT_EQ(regions(&naive, two_warps), std::vector<std::string>{region});
    GpuConfig unrolled_once = h200(128);  // 18,432 bytes: 12 blocks of four warps, within its 12
    unrolled_once.smem_per_block = 18432;
    unrolled_once.compilation = KernelCompilation::unroll1;
    EXPECT_TRUE(regions(&naive, unrolled_once).empty());
    EXPECT_TRUE(regions(&naive, h200(128)).empty());  // 16 warps a scheduler: drift, in the sets
    const WorkloadSpec strips = matmul("column:32");
    EXPECT_TRUE(regions(&strips, eight).empty());
    // with the drift the small L1 is what is flagged
    eight.lockstep_warps = 0;
    EXPECT_EQ(regions(&naive, eight), std::vector<std::string>{"matmul with an L1 below 224 KiB"});
}

// The 32-bit naive order with its rates drawn: from 10 points of the model's L1 rate from other
// blocks on, 12 measured launches were 0.4 points low to 7.5 high; under 10, 12 of 13 within 3.
// The bound is the run's, so until a run has counted its hit sources the region is reported.
TEST(GpuKnownMisses, TheNaive32BitMatmulRestingOnOtherBlocksIsBoundedByTheRunsPoints) {
    const std::vector<std::string> region{"32-bit naive matmul resting on other blocks"};
    const WorkloadSpec naive = matmul("linear");
    GpuConfig c = h200(128);  // 16 blocks of four warps an SM: 16 a scheduler, beyond the 32-bit loop's 6
    c.compilation = KernelCompilation::index32;
    EXPECT_TRUE(known_misses_need_hit_sources(&naive, c));
    EXPECT_EQ(regions(&naive, c), region);
    EXPECT_EQ(regions(&naive, c, 10.0), region);
    EXPECT_EQ(regions(&naive, c, 29.9), region);
    EXPECT_TRUE(regions(&naive, c, 9.99).empty());
    // not the 64-bit or the unrolled-once build, nor another order
    for (KernelCompilation other : {KernelCompilation::index64, KernelCompilation::unroll1}) {
        GpuConfig o = c;
        o.compilation = other;
        EXPECT_FALSE(known_misses_need_hit_sources(&naive, o));
        EXPECT_TRUE(regions(&naive, o, 20.0).empty());
    }
    const WorkloadSpec strips = matmul("column:128");
    EXPECT_FALSE(known_misses_need_hit_sources(&strips, c));
    EXPECT_TRUE(regions(&strips, c, 40.0).empty());
    // in lock step (12 blocks of two warps: 6 a scheduler) the lock-step region is the one
    GpuConfig two_warps = h200(64);
    two_warps.smem_per_block = 18432;
    two_warps.compilation = KernelCompilation::index32;
    EXPECT_FALSE(known_misses_need_hit_sources(&naive, two_warps));
    EXPECT_EQ(regions(&naive, two_warps, 20.0),
              std::vector<std::string>{"naive matmul in lock step, blocks of two warps or more"});
    // blocks of one warp are the one-warp region's
    GpuConfig one_warp = h200(32);
    one_warp.compilation = KernelCompilation::index32;
    EXPECT_EQ(regions(&naive, one_warp, 20.0), std::vector<std::string>{kOneWarp});
    // a replay of measured warp times runs the chip's pace
    WarpTimeline timeline;
    c.timeline = &timeline;
    EXPECT_FALSE(known_misses_need_hit_sources(&naive, c));
    EXPECT_TRUE(regions(&naive, c, 20.0).empty());
}

TEST(GpuKnownMisses, AReplayOfMeasuredWarpTimesRunsTheChipsPaceAndIsExempt) {
    WarpTimeline timeline;
    GpuConfig c = h200(32);
    c.timeline = &timeline;
    const WorkloadSpec w = matmul("column:512");
    EXPECT_TRUE(regions(&w, c).empty());
}

TEST(GpuKnownMisses, EachSentenceNamesItsRegionAndTheDocsSection) {
    const WorkloadSpec w = matmul("linear");
    const std::vector<const KnownMiss*> found = known_misses(&w, h200(32));
    ASSERT_EQ(found.size(), 1u);
    const std::string sentence = found[0]->sentence();
    EXPECT_EQ(sentence.rfind(kOneWarp + ": ", 0), 0u) << sentence;
    EXPECT_NE(sentence.find("docs/fidelity.md, \"One-warp blocks: the chip's waves\""), std::string::npos) << sentence;
}

}  // namespace
}  // namespace cachesim
