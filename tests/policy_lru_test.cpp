// LRU on hand-worked sequences: exact hits, misses and victims.
#include <gtest/gtest.h>

#include "sim/policies/lru.hpp"
#include "tests/policy_test_util.hpp"

namespace cachesim {
namespace {

using test::geometry_for;
using test::replay_lines;

TEST(Lru, EvictsLeastRecentlyUsedInFullyAssociativeCache) {
    Cache<LruPolicy> cache(geometry_for(2, 0, PolicyKind::lru), 1);
    // A B A C B: C evicts B (A was used more recently), then B evicts A.
    EXPECT_EQ(replay_lines(cache, {10, 11, 10, 12, 11}), "mmhmm");
    EXPECT_TRUE(cache.contains(11));
    EXPECT_TRUE(cache.contains(12));
    EXPECT_FALSE(cache.contains(10));
}

TEST(Lru, SetsAreIndependent) {
    // 2 sets x 1 way: even lines go to set 0, odd to set 1.
    Cache<LruPolicy> cache(geometry_for(2, 1, PolicyKind::lru), 1);
    EXPECT_EQ(replay_lines(cache, {0, 1, 0, 1, 2, 1, 0}), "mmhhmhm");
}

TEST(Lru, NonPowerOfTwoSetCountUsesModulo) {
    // 3 sets x 2 ways: lines 0, 3, 6 share set 0.
    Cache<LruPolicy> cache(geometry_for(6, 2, PolicyKind::lru), 1);
    EXPECT_EQ(replay_lines(cache, {0, 3, 1, 4, 6, 0, 3}), "mmmmmmm");
    EXPECT_TRUE(cache.contains(1));
    EXPECT_TRUE(cache.contains(4));
}

TEST(Lru, ReportsEvictedLine) {
    Cache<LruPolicy> cache(geometry_for(2, 0, PolicyKind::lru), 1);
    cache.access(1, 0, false, true);
    cache.access(2, 0, false, true);
    cache.access(1, 0, false, true);
    const LookupOutcome out = cache.access(3, 0, false, true);
    ASSERT_EQ(out.evicted_count, 1u);
    EXPECT_EQ(cache.evicted_line(0), 2u);
}

TEST(Lru, DirtyLinesAreWrittenBackOnEviction) {
    Cache<LruPolicy> cache(geometry_for(1, 0, PolicyKind::lru), 1);
    cache.access(5, 0, true, true);
    const LookupOutcome out = cache.access(6, 0, false, true);
    EXPECT_EQ(out.written_back_sectors, 1u);
    const LookupOutcome clean = cache.access(7, 0, false, true);
    EXPECT_EQ(clean.written_back_sectors, 0u);
}

TEST(Lru, SectoredLineFetchesOnlyTheMissingSector) {
    CacheConfig c;
    c.size_bytes = 256;
    c.line_bytes = 128;
    c.sector_bytes = 32;
    c.ways = 0;
    Cache<LruPolicy> cache(*make_geometry(c).geometry, 1);
    EXPECT_FALSE(cache.access(1, 0, false, true).hit);
    const LookupOutcome second_sector = cache.access(1, 2, false, true);
    EXPECT_FALSE(second_sector.hit);
    EXPECT_TRUE(second_sector.line_present);
    EXPECT_EQ(second_sector.evicted_count, 0u);
    EXPECT_TRUE(cache.access(1, 2, false, true).hit);
    EXPECT_FALSE(cache.contains(1, 1));
}

}  // namespace
}  // namespace cachesim
