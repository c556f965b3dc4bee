// Which blocks read from DRAM (blocks_reading_dram): a block whose sampled load sectors mostly lie
// in lines first read by a block at most `recent` blocks before it. Expected tables worked out by
// hand from the matmul's layout: depth 16, so a row of A is 64 B and one 128 B line holds two
// rows; a warp of 32 consecutive columns reads one A sector and one whole B line (4 sectors) per
// k; the 16 sampled loads are 8 A and 8 B reads, so a block of 4 warps samples 32 A and 128 B
// sectors and reads from DRAM exactly when its B lines are recent.
#include <gtest/gtest.h>

#include <vector>

#include "sim/gpu/dram_blocks.hpp"
#include "tests/gpu_test_util.hpp"

namespace cachesim {
namespace {

WorkloadSpec matmul(std::uint32_t width, std::uint32_t height, const char* schedule) {
    WorkloadSpec spec = test::matmul(width, height, 16);
    spec.schedule = parse_schedule(schedule);
    return spec;
}

std::vector<std::uint8_t> dram_blocks(const WorkloadSpec& spec, std::uint64_t recent) {
    const std::uint64_t blocks = spec.items() / 128;
    return blocks_reading_dram(spec, 128, 32, blocks, recent, 128, 32);
}

// The naive order at 256 columns: block b covers half b % 2 of row b / 2. Its B lines were first
// read by block b % 2 (row 0), its A line by block 4 * (b / 4): always recent, but only 32 of 160
// sectors. So block b reads from DRAM when b - b % 2 <= recent.
TEST(GpuDramBlocks, TheNaiveOrderReadsBFromDramOnlyInItsFirstBlocks) {
    const WorkloadSpec spec = matmul(256, 32, "linear");
    for (std::uint64_t recent : {0u, 10u}) {
        const std::vector<std::uint8_t> dram = dram_blocks(spec, recent);
        ASSERT_EQ(dram.size(), 64u);
        for (std::uint64_t b = 0; b < dram.size(); ++b)
            EXPECT_EQ(dram[b], b - b % 2 <= recent ? 1 : 0) << "block " << b << ", recent " << recent;
    }
}

// column:128 at 512 columns and 16 rows: 4 strips of 16 blocks, block b on row b % 16 of strip
// b / 16. Its strip's B lines were first read by the strip's first block, b % 16 blocks before;
// its A line by block 2 * (row / 2) of the first strip (recent only there, and only 32 of 160
// sectors). So every strip starts with blocks that read from DRAM, up to row `recent`.
TEST(GpuDramBlocks, EveryColumnStripStartsFromDram) {
    const WorkloadSpec spec = matmul(512, 16, "column:128");
    const std::vector<std::uint8_t> dram = dram_blocks(spec, 8);
    ASSERT_EQ(dram.size(), 64u);
    for (std::uint64_t b = 0; b < dram.size(); ++b) EXPECT_EQ(dram[b], b % 16 <= 8 ? 1 : 0) << "block " << b;
}

// A launch of no blocks gives an empty table. At 96 columns a block of 128 threads spans rows:
// block 0 holds row 0 and a quarter of row 1, block 1 the rest of row 1 and two thirds of row 2,
// block 2 the rest. Row 0 is every B line's first read (block 0); A's lines hold rows 0-1 (first
// read by block 0) and 2-3 (block 1). So block 1 reads from DRAM only when block 0 is recent, and
// block 2's recent reads (A, from block 1) are 32 of 160 sectors.
TEST(GpuDramBlocks, BlocksThatSpanRows) {
    EXPECT_TRUE(blocks_reading_dram(matmul(256, 32, "linear"), 128, 32, 0, 10, 128, 32).empty());
    const WorkloadSpec spec = matmul(96, 4, "linear");
    EXPECT_EQ(blocks_reading_dram(spec, 128, 32, 3, 0, 128, 32), (std::vector<std::uint8_t>{1, 0, 0}));
    EXPECT_EQ(blocks_reading_dram(spec, 128, 32, 3, 1, 128, 32), (std::vector<std::uint8_t>{1, 1, 0}));
}

// A stencil's write is not a read. A 1x4 box at 128 columns: block b (row b, 4 warps of one line
// each) reads rows b-2 to b+1 (clamped), row r first read by block r-1 (its last tap). With
// recent 1, a middle block's rows b and b+1 are recent, two of its four loads: half, not more,
// so it reads from the L2; counting its write (a line only it touches) would tip it over. Blocks
// 0 and 1 read only rows first read by block 0 or themselves.
TEST(GpuDramBlocks, AStencilsWriteIsNotSampled) {
    WorkloadSpec spec;
    spec.kind = WorkloadKind::stencil;
    spec.width = 128;
    spec.height = 8;
    spec.stencil_w = 1;
    spec.stencil_h = 4;
    EXPECT_EQ(blocks_reading_dram(spec, 128, 32, 8, 1, 128, 32), (std::vector<std::uint8_t>{1, 1, 0, 0, 0, 0, 0, 0}));
}

}  // namespace
}  // namespace cachesim
