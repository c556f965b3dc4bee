// LRU with sets of many ways (more than kIndexAboveWays: a fully associative
// cache of thousands of lines, the default associativity at any size), which finds lines through
// a hash index and keeps its recency order in linked lists: every lookup's outcome equals that of
// a plain list-based LRU (tests/list_cache_reference.hpp), on streams with reuse, sectors, stores and no-allocate
// lookups, and on a hand-worked sequence.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "sim/cache.hpp"
#include "tests/list_cache_reference.hpp"

namespace cachesim {
namespace {

CacheGeometry geometry(std::uint64_t lines, std::uint32_t ways, std::uint32_t line_bytes, std::uint32_t sector_bytes) {
    CacheConfig c;
    c.size_bytes = lines * line_bytes;
    c.line_bytes = line_bytes;
    c.sector_bytes = sector_bytes;
    c.ways = ways;
    c.policy = PolicyKind::lru;
    return *make_geometry(c).geometry;
}

// A stream with reuse at every distance: mostly lines near a drifting point, some far away,
// some repeats of the line just used (the cache's shortcut), a fifth of them stores and a
// tenth lookups that do not allocate (write-through, no-write-allocate stores).
void expect_same_as_reference(const CacheGeometry& g, std::uint64_t footprint, std::uint32_t seed) {
    ASSERT_TRUE(indexed_sets(g)) << g.ways << " ways";
    Cache<LruPolicy> cache(g, 1);
    test::ListCache reference(g.sets, g.ways, test::ListCache::Order::lru);
    std::mt19937_64 rng(seed);
    std::uint64_t centre = 0, line = 0;
    for (int i = 0; i < 100000; ++i) {
        const std::uint32_t kind = rng() % 100;
        if (kind < 5) {
            // the line just used again
        } else if (kind < 80) {
            centre = (centre + rng() % 3) % footprint;
            line = (centre + rng() % (2 * g.lines)) % footprint;
        } else {
            line = rng() % footprint;
        }
        const std::uint32_t sector = static_cast<std::uint32_t>(rng() % g.sectors_per_line);
        const bool is_write = rng() % 5 == 0;
        const bool allocate = rng() % 10 != 0;
        const LookupOutcome got = cache.access(line, sector, is_write, allocate);
        const test::ReferenceOutcome want = reference.access(line, sector, is_write, allocate);
        ASSERT_EQ(got.hit, want.hit) << "access " << i << ", line " << line;
        ASSERT_EQ(got.line_present, want.line_present) << "access " << i;
        ASSERT_EQ(got.evicted_count, want.evicted.size()) << "access " << i;
        if (!want.evicted.empty()) {
            ASSERT_EQ(cache.evicted_line(0), want.evicted[0]) << "access " << i;
        }
        ASSERT_EQ(got.written_back_sectors, want.written_back) << "access " << i;
        if (i % 97 == 0) {
            const std::uint64_t probe = rng() % footprint;
            ASSERT_EQ(cache.contains(probe, 0), reference.contains(probe, 0)) << "access " << i << ", line " << probe;
        }
    }
    EXPECT_EQ(cache.lookups(), 100000u);
}

TEST(LruManyWays, FullyAssociativeThousandsOfLines) {
    expect_same_as_reference(geometry(4096, 0, 16, 0), 12000, 1);
}

TEST(LruManyWays, SeveralSetsOfManyWays) {
    expect_same_as_reference(geometry(16 * 64, 64, 64, 0), 4000, 2);
}

TEST(LruManyWays, JustAboveTheIndexThresholdWithANonPowerOfTwoSetCount) {
    const std::uint32_t ways = kIndexAboveWays + 1;
    expect_same_as_reference(geometry(3 * ways, ways, 32, 0), 400, 3);
}

TEST(LruManyWays, SectoredLinesWithStores) {
    expect_same_as_reference(geometry(1792, 0, 128, 32), 6000, 4);
}

// 64 lines, fully associative: lines 0..63 fill it; 0 is then used again, so 64 evicts 1, the
// least recent, and 65 evicts 2; 1 misses again and evicts 3.
TEST(LruManyWays, HandWorkedEvictions) {
    Cache<LruPolicy> cache(geometry(64, 0, 16, 0), 1);
    ASSERT_TRUE(indexed_sets(cache.geometry()));
    for (std::uint64_t l = 0; l < 64; ++l) EXPECT_FALSE(cache.access(l, 0, false, true).hit);
    EXPECT_TRUE(cache.access(0, 0, false, true).hit);
    const std::vector<std::pair<std::uint64_t, std::uint64_t>> expected = {{64, 1}, {65, 2}, {1, 3}};
    for (const auto& [line, victim] : expected) {
        const LookupOutcome out = cache.access(line, 0, false, true);
        EXPECT_FALSE(out.hit);
        ASSERT_EQ(out.evicted_count, 1u);
        EXPECT_EQ(cache.evicted_line(0), victim) << "line " << line;
    }
    EXPECT_TRUE(cache.contains(0));
    EXPECT_FALSE(cache.contains(2));
    EXPECT_TRUE(cache.access(63, 0, false, true).hit);
}

}  // namespace
}  // namespace cachesim
