// random4 (Volta/Turing L1, Jia et al.): a miss in a full set empties one aligned group of 4 ways.
#include <gtest/gtest.h>

#include "sim/policies/random.hpp"
#include "tests/policy_test_util.hpp"

namespace cachesim {
namespace {

TEST(Random4, EvictsAWholeAlignedGroupOfFour) {
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        Cache<Random4Policy> cache(test::geometry_for(8, 0, PolicyKind::random4), seed);
        for (std::uint64_t line = 0; line < 8; ++line) cache.access(line, 0, false, true);
        const LookupOutcome out = cache.access(100, 0, false, true);
        ASSERT_EQ(out.evicted_count, 4u);
        // Lines 0-3 filled ways 0-3 (group 0), lines 4-7 group 1.
        const std::uint64_t group_start = cache.evicted_line(0);
        EXPECT_TRUE(group_start == 0 || group_start == 4) << "seed " << seed;
        for (std::uint32_t i = 0; i < 4; ++i) EXPECT_EQ(cache.evicted_line(i), group_start + i);
        for (std::uint64_t line = 0; line < 8; ++line)
            EXPECT_EQ(cache.contains(line), line < group_start || line >= group_start + 4);
        // The next three new lines fill the emptied ways without any eviction.
        for (std::uint64_t line = 101; line < 104; ++line)
            EXPECT_EQ(cache.access(line, 0, false, true).evicted_count, 0u);
        EXPECT_EQ(cache.access(104, 0, false, true).evicted_count, 4u);
    }
}

TEST(Random4, BothGroupsGetChosenAcrossSeeds) {
    int first_group = 0, second_group = 0;
    for (std::uint64_t seed = 1; seed <= 64; ++seed) {
        Cache<Random4Policy> cache(test::geometry_for(8, 0, PolicyKind::random4), seed);
        for (std::uint64_t line = 0; line < 8; ++line) cache.access(line, 0, false, true);
        cache.access(100, 0, false, true);
        (cache.evicted_line(0) == 0 ? first_group : second_group)++;
    }
    EXPECT_GT(first_group, 10);
    EXPECT_GT(second_group, 10);
}

TEST(Random4, RejectsWaysNotMultipleOfFour) {
    CacheConfig c;
    c.size_bytes = 6 * 16;
    c.line_bytes = 16;
    c.ways = 6;
    c.policy = PolicyKind::random4;
    EXPECT_FALSE(make_geometry(c).geometry);
}

}  // namespace
}  // namespace cachesim
