// The h200 preset where every block of an SM reads the same lines of B (the strip probes,
// docs/model-studies.md, "The sharing between an SM's blocks, wave by wave"), worked by hand: the
// matmul one 128-column strip wide, blocks of 128 threads, each one row of C. Per iteration of
// the loop a block's four warps look up one sector of A each (the row's element, the same for
// all 32 threads) and four of B each: 20 sectors. Blocks that keep in step miss each of the 16
// sectors of B's row (512 B) once per SM, and each block misses its sector of A (8 floats) once
// every 8 iterations. The chip's 64-bit build measures exactly this in its first wave.
#include <gtest/gtest.h>

#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "tests/gpu_test_util.hpp"

namespace cachesim {
namespace {

constexpr std::uint64_t kSms = 132;
constexpr std::uint32_t kDepth = 256;

// `blocks_per_sm` blocks of 128 threads on each SM of the h200 preset: one wave or less.
GpuResult strip(std::uint32_t blocks_per_sm) {
    GpuConfig c = find_gpu_preset("h200")->config;
    c.block = 128;
    return simulate_gpu_model(test::matmul(128, static_cast<std::uint32_t>(kSms) * blocks_per_sm, kDepth, "column:128"),
                              c);
}

std::uint64_t misses(const GpuResult& r) { return r.ncu.l1_sectors_ld - r.ncu.l1_sectors_ld_hit; }

TEST(GpuStripSharing, AFullWaveReadsEachLineOfBOncePerSm) {
    const GpuResult r = strip(16);
    EXPECT_EQ(r.ncu.l1_sectors_ld, kSms * kDepth * 16 * 20);
    // 16 sectors of B and 16 / 8 of A an iteration per SM: 302 of 320 hit, 94.375%.
    EXPECT_EQ(misses(r), kSms * kDepth * (16 + 2));
    EXPECT_DOUBLE_EQ(r.ncu.l1_hit_rate_pct(), 94.375);
}

TEST(GpuStripSharing, HalfAWave) {
    const GpuResult r = strip(8);
    EXPECT_EQ(r.ncu.l1_sectors_ld, kSms * kDepth * 8 * 20);
    // 16 sectors of B and 8 / 8 of A: 143 of 160, 89.375%.
    EXPECT_EQ(misses(r), kSms * kDepth * (16 + 1));
    EXPECT_DOUBLE_EQ(r.ncu.l1_hit_rate_pct(), 89.375);
}

}  // namespace
}  // namespace cachesim
