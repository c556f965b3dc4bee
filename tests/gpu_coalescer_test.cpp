// Coalescing of hand-made warps into distinct 32 B sectors grouped by 128 B line.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "sim/gpu/coalescer.hpp"
#include "sim/rng.hpp"

namespace cachesim {
namespace {

std::vector<std::uint64_t> lanes(std::uint32_t count, std::uint64_t base, std::int64_t stride) {
    std::vector<std::uint64_t> a;
    for (std::uint32_t i = 0; i < count; ++i) a.push_back(base + static_cast<std::uint64_t>(static_cast<std::int64_t>(i) * stride));
    return a;
}

CoalescedRequest coalesce(const std::vector<std::uint64_t>& addresses, std::uint32_t size = 4) {
    Coalescer c(128, 32);
    CoalescedRequest r;
    c.coalesce(addresses.data(), static_cast<std::uint32_t>(addresses.size()), size, r);
    return r;
}

// line -> sector mask, for compact expectations
std::map<std::uint64_t, std::uint64_t> as_map(const CoalescedRequest& r) {
    std::map<std::uint64_t, std::uint64_t> m;
    for (const CoalescedLine& l : r.lines) m[l.line] = l.sectors;
    return m;
}

TEST(GpuCoalescer, AlignedWarpIsOneLineOfFourSectors) {
    const CoalescedRequest r = coalesce(lanes(32, 4096, 4));
    ASSERT_EQ(r.lines.size(), 1u);
    EXPECT_EQ(r.lines[0].line, 4096u / 128);
    EXPECT_EQ(r.lines[0].sectors, 0b1111u);
    EXPECT_EQ(r.sector_count, 4u);
}

TEST(GpuCoalescer, MisalignedWarpSpansTwoLinesAndFiveSectors) {
    // 32 floats starting 4 bytes into a line: bytes 4..131 -> sectors 0-3 of line 0, sector 0 of line 1.
    const CoalescedRequest r = coalesce(lanes(32, 4, 4));
    EXPECT_EQ(as_map(r), (std::map<std::uint64_t, std::uint64_t>{{0, 0b1111}, {1, 0b0001}}));
    EXPECT_EQ(r.sector_count, 5u);
    // Starting 36 bytes in: sectors 1-3 of line 0 and 0-1 of line 1.
    const CoalescedRequest r2 = coalesce(lanes(32, 36, 4));
    EXPECT_EQ(as_map(r2), (std::map<std::uint64_t, std::uint64_t>{{0, 0b1110}, {1, 0b0011}}));
    EXPECT_EQ(r2.sector_count, 5u);
}

TEST(GpuCoalescer, StridedWarps) {
    // Stride 8 B: 256 bytes, 2 lines, 8 sectors.
    const CoalescedRequest r8 = coalesce(lanes(32, 0, 8));
    EXPECT_EQ(as_map(r8), (std::map<std::uint64_t, std::uint64_t>{{0, 0b1111}, {1, 0b1111}}));
    EXPECT_EQ(r8.sector_count, 8u);
    // Stride 32 B: every lane its own sector, 8 lines.
    const CoalescedRequest r32 = coalesce(lanes(32, 0, 32));
    EXPECT_EQ(r32.lines.size(), 8u);
    EXPECT_EQ(r32.sector_count, 32u);
    // Stride 128 B (a column of a 32-float-wide array): one sector in each of 32 lines.
    const CoalescedRequest r128 = coalesce(lanes(32, 64, 128));
    ASSERT_EQ(r128.lines.size(), 32u);
    for (std::size_t i = 0; i < 32; ++i) {
        EXPECT_EQ(r128.lines[i].line, i);
        EXPECT_EQ(r128.lines[i].sectors, 0b0100u);
    }
    // Stride 4096 B (matmul's B column in a 1024-wide array): 32 sectors in 32 lines.
    EXPECT_EQ(coalesce(lanes(32, 0, 4096)).sector_count, 32u);
}

TEST(GpuCoalescer, BroadcastIsOneSector) {
    const CoalescedRequest r = coalesce(std::vector<std::uint64_t>(32, 1000));
    EXPECT_EQ(as_map(r), (std::map<std::uint64_t, std::uint64_t>{{7, 0b1000}}));
    EXPECT_EQ(r.sector_count, 1u);
    // Two halves of the warp on two addresses of different lines.
    std::vector<std::uint64_t> two(16, 0);
    two.insert(two.end(), 16, 4096);
    EXPECT_EQ(coalesce(two).sector_count, 2u);
}

TEST(GpuCoalescer, PartialWarpsTouchOnlyActiveLanes) {
    // 5 active lanes of consecutive floats: bytes 0..19, one sector.
    EXPECT_EQ(coalesce(lanes(5, 0, 4)).sector_count, 1u);
    // 9 lanes: bytes 0..35 -> two sectors.
    EXPECT_EQ(as_map(coalesce(lanes(9, 0, 4))), (std::map<std::uint64_t, std::uint64_t>{{0, 0b0011}}));
    // One lane.
    const CoalescedRequest one = coalesce(lanes(1, 300, 4));
    EXPECT_EQ(as_map(one), (std::map<std::uint64_t, std::uint64_t>{{2, 0b0010}}));
}

TEST(GpuCoalescer, OrderOfLanesDoesNotMatter) {
    std::vector<std::uint64_t> a = lanes(32, 4, 4);
    std::reverse(a.begin(), a.end());  // descending
    const CoalescedRequest r = coalesce(a);
    EXPECT_EQ(as_map(r), (std::map<std::uint64_t, std::uint64_t>{{0, 0b1111}, {1, 0b0001}}));
    EXPECT_EQ(r.sector_count, 5u);
    // Lines visited in ascending order even when lanes alternate between them.
    std::vector<std::uint64_t> zig;
    for (int i = 0; i < 16; ++i) {
        zig.push_back(1024 + 4 * static_cast<std::uint64_t>(i));
        zig.push_back(4 * static_cast<std::uint64_t>(i));
    }
    const CoalescedRequest z = coalesce(zig);
    ASSERT_EQ(z.lines.size(), 2u);
    EXPECT_LT(z.lines[0].line, z.lines[1].line);
    EXPECT_EQ(z.sector_count, 4u);
}

TEST(GpuCoalescer, AccessesStraddlingSectorsAndLines) {
    // An 8-byte access at byte 28 touches sectors 0 and 1.
    EXPECT_EQ(as_map(coalesce({28}, 8)), (std::map<std::uint64_t, std::uint64_t>{{0, 0b0011}}));
    // At byte 124 it crosses into the next line.
    EXPECT_EQ(as_map(coalesce({124}, 8)), (std::map<std::uint64_t, std::uint64_t>{{0, 0b1000}, {1, 0b0001}}));
    // 16-byte elements (float4), 32 lanes: 512 bytes, 4 lines, 16 sectors.
    EXPECT_EQ(coalesce(lanes(32, 0, 16), 16).sector_count, 16u);
    // 64-byte elements are larger than a sector: 2 sectors each.
    EXPECT_EQ(coalesce(lanes(2, 0, 64), 64).sector_count, 4u);
    // Misaligned 4-byte access (not a multiple of 4) inside one sector.
    EXPECT_EQ(coalesce({1, 2, 3}, 4).sector_count, 1u);
}

TEST(GpuCoalescer, OtherGeometries) {
    Coalescer c(64, 16);
    CoalescedRequest r;
    const std::vector<std::uint64_t> a = lanes(32, 0, 4);  // 128 bytes: 2 lines of 64 B, 8 sectors of 16 B
    c.coalesce(a.data(), 32, 4, r);
    EXPECT_EQ(as_map(r), (std::map<std::uint64_t, std::uint64_t>{{0, 0b1111}, {1, 0b1111}}));
    Coalescer unsectored(128, 0);  // sector = line
    unsectored.coalesce(a.data(), 32, 4, r);
    EXPECT_EQ(as_map(r), (std::map<std::uint64_t, std::uint64_t>{{0, 0b1}}));
}

TEST(GpuCoalescer, MatchesASetOfSectorsOnRandomWarps) {
    Rng rng(7);
    Coalescer c(128, 32);
    CoalescedRequest r;
    for (int trial = 0; trial < 2000; ++trial) {
        const std::uint32_t n = 1 + rng.below(32);
        const std::uint32_t size = 1u << rng.below(5);  // 1..16 bytes
        std::vector<std::uint64_t> a(n);
        const std::uint64_t base = rng.below(4096);
        for (auto& x : a) x = trial % 3 == 0 ? base + rng.below(512) : base + 4 * rng.below(64);
        if (trial % 5 == 0) std::sort(a.begin(), a.end());
        std::set<std::uint64_t> expected;
        for (std::uint64_t x : a)
            for (std::uint64_t s = x / 32; s <= (x + size - 1) / 32; ++s) expected.insert(s);
        c.coalesce(a.data(), n, size, r);
        std::set<std::uint64_t> got;
        std::uint64_t previous_line = 0;
        for (std::size_t i = 0; i < r.lines.size(); ++i) {
            if (i) {
                EXPECT_GT(r.lines[i].line, previous_line);
            }
            previous_line = r.lines[i].line;
            EXPECT_NE(r.lines[i].sectors, 0u);
            for (std::uint32_t b = 0; b < 4; ++b)
                if ((r.lines[i].sectors >> b) & 1) got.insert(r.lines[i].line * 4 + b);
        }
        ASSERT_EQ(got, expected) << "trial " << trial;
        ASSERT_EQ(r.sector_count, expected.size());
    }
}

TEST(GpuCoalescer, WrittenSectorsKnowWhichAreFull) {
    Coalescer c(128, 32);
    std::vector<WrittenSector> w;
    // A whole warp of floats from 0: four full sectors.
    std::vector<std::uint64_t> a = lanes(32, 0, 4);
    c.written_sectors(a.data(), 32, 4, 5, w);
    ASSERT_EQ(w.size(), 4u);
    for (const WrittenSector& s : w) EXPECT_TRUE(s.full);
    // Misaligned by 4: first and last sectors partial.
    a = lanes(32, 4, 4);
    c.written_sectors(a.data(), 32, 4, 5, w);
    ASSERT_EQ(w.size(), 5u);
    EXPECT_FALSE(w.front().full);
    EXPECT_TRUE(w[1].full);
    EXPECT_FALSE(w.back().full);
    // Four lanes of a column of 8 floats: 16 B of one sector -> partial.
    a = lanes(4, 0, 4);
    c.written_sectors(a.data(), 4, 4, 5, w);
    ASSERT_EQ(w.size(), 1u);
    EXPECT_FALSE(w[0].full);
    // A gap inside a sector: not full, even though bytes on both sides are written.
    a = {0, 4, 8, 12, 20, 24, 28};
    c.written_sectors(a.data(), 7, 4, 5, w);
    ASSERT_EQ(w.size(), 1u);
    EXPECT_FALSE(w[0].full);
    // At 128 B granularity (an unsectored L2), 32 floats fill the line.
    a = lanes(32, 128, 4);
    c.written_sectors(a.data(), 32, 4, 7, w);
    ASSERT_EQ(w.size(), 1u);
    EXPECT_EQ(w[0].sector, 1u);
    EXPECT_TRUE(w[0].full);
}

}  // namespace
}  // namespace cachesim
