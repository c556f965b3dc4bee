// Even requests (lane l at base + l x stride) coalesced from base and step alone: the sectors the
// lanes touch, grouped by line in ascending order, as a set of sectors worked out lane by lane
// gives them; and the cases it must leave to the lane-by-lane coalescer.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "sim/gpu/coalescer.hpp"
#include "sim/rng.hpp"

namespace cachesim {
namespace {

struct Geometry {
    std::uint32_t line_bytes, sector_bytes;
};

// Every sector (of `sector_bytes`) that lane l's `size` bytes at base + l x stride touch.
std::set<std::uint64_t> sectors_lane_by_lane(std::uint64_t base, std::uint64_t stride, std::uint32_t lanes,
                                             std::uint32_t size, std::uint32_t sector_bytes) {
    std::set<std::uint64_t> out;
    for (std::uint32_t l = 0; l < lanes; ++l) {
        const std::uint64_t a = base + l * stride;
        for (std::uint64_t s = a / sector_bytes; s <= (a + size - 1) / sector_bytes; ++s) out.insert(s);
    }
    return out;
}

TEST(GpuCoalesceEven, ByHand) {
    Coalescer c(128, 32);
    CoalescedRequest r;
    // 32 consecutive floats from a line's start: one line, its four sectors.
    ASSERT_TRUE(c.coalesce_even(4096, 4, 32, 4, r));
    ASSERT_EQ(r.lines.size(), 1u);
    EXPECT_EQ(r.lines[0].line, 32u);
    EXPECT_EQ(r.lines[0].sectors, 0b1111u);
    EXPECT_EQ(r.sector_count, 4u);
    // From the line's last sector: bytes 4192..4319, its sector 3 and the next line's 0..2.
    ASSERT_TRUE(c.coalesce_even(4096 + 96, 4, 32, 4, r));
    ASSERT_EQ(r.lines.size(), 2u);
    EXPECT_EQ(r.lines[0].line, 32u);
    EXPECT_EQ(r.lines[0].sectors, 0b1000u);
    EXPECT_EQ(r.lines[1].line, 33u);
    EXPECT_EQ(r.lines[1].sectors, 0b0111u);
    EXPECT_EQ(r.sector_count, 4u);
    // A broadcast: one sector.
    ASSERT_TRUE(c.coalesce_even(4100, 0, 32, 4, r));
    ASSERT_EQ(r.lines.size(), 1u);
    EXPECT_EQ(r.lines[0].sectors, 0b0001u);
    EXPECT_EQ(r.sector_count, 1u);
    // Eight lanes a sector apart: two whole lines.
    ASSERT_TRUE(c.coalesce_even(0, 32, 8, 8, r));
    ASSERT_EQ(r.lines.size(), 2u);
    EXPECT_EQ(r.lines[0].sectors, 0b1111u);
    EXPECT_EQ(r.lines[1].sectors, 0b1111u);
    EXPECT_EQ(r.sector_count, 8u);
}

TEST(GpuCoalesceEven, LeavesOtherCasesToTheLanes) {
    Coalescer c(128, 32);
    CoalescedRequest r;
    EXPECT_FALSE(c.coalesce_even(0, 64, 32, 4, r));         // lanes two sectors apart: sectors skipped
    EXPECT_FALSE(c.coalesce_even(2, 4, 32, 4, r));          // misaligned accesses may straddle
    EXPECT_FALSE(c.coalesce_even(0, 6, 32, 4, r));          // a step that misaligns later lanes
    EXPECT_FALSE(c.coalesce_even(0, 12, 32, 12, r));        // not a power-of-two size
    EXPECT_FALSE(c.coalesce_even(0, 0, 1, 64, r));          // wider than a sector
    EXPECT_FALSE(c.coalesce_even(0, ~0ull - 3, 32, 4, r));  // a falling step (-4)
    EXPECT_FALSE(c.coalesce_even(~0ull - 63, 4, 32, 4, r));  // wraps past the top of the address space
    EXPECT_FALSE(c.coalesce_even(0, 4, 0, 4, r));           // no lane
}

TEST(GpuCoalesceEven, MatchesTheSectorsLaneByLane) {
    Rng rng(11);
    for (const Geometry g : {Geometry{128, 32}, Geometry{128, 128}, Geometry{64, 16}, Geometry{256, 32},
                             Geometry{2048, 32}}) {
        Coalescer c(g.line_bytes, g.sector_bytes);
        const std::uint32_t per_line = g.line_bytes / g.sector_bytes;
        CoalescedRequest r;
        for (int trial = 0; trial < 3000; ++trial) {
            const std::uint32_t lanes = 1 + rng.below(32);
            std::uint32_t size = 1u << rng.below(6);  // 1..32 bytes
            if (size > g.sector_bytes) size = g.sector_bytes;
            const std::uint64_t stride = size * rng.below(g.sector_bytes / size + 1);  // 0 .. a sector
            const std::uint64_t base = size * rng.below(1u << 16);
            ASSERT_TRUE(c.coalesce_even(base, stride, lanes, size, r));
            const std::set<std::uint64_t> expected = sectors_lane_by_lane(base, stride, lanes, size, g.sector_bytes);
            std::set<std::uint64_t> got;
            for (std::size_t i = 0; i < r.lines.size(); ++i) {
                if (i) {
                    ASSERT_GT(r.lines[i].line, r.lines[i - 1].line);
                }
                ASSERT_NE(r.lines[i].sectors, 0u);
                for (std::uint32_t b = 0; b < per_line; ++b)
                    if ((r.lines[i].sectors >> b) & 1) got.insert(r.lines[i].line * per_line + b);
            }
            ASSERT_EQ(got, expected) << "base " << base << " stride " << stride << " lanes " << lanes << " size " << size;
            ASSERT_EQ(r.sector_count, expected.size());
        }
    }
}

}  // namespace
}  // namespace cachesim
