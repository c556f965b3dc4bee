// LRU stack distances: hand-worked values, and agreement with a brute-force stack across
// the tree's renumbering.
#include <gtest/gtest.h>

#include <algorithm>
#include <list>

#include "sim/reuse_distance.hpp"
#include "sim/rng.hpp"

namespace cachesim {
namespace {

TEST(ReuseDistance, HandWorked) {
    ReuseDistanceTracker t;
    EXPECT_EQ(t.access(1), kColdMiss);
    EXPECT_EQ(t.access(2), kColdMiss);
    EXPECT_EQ(t.access(1), 1u);  // 2 was touched since
    EXPECT_EQ(t.access(1), 0u);
    EXPECT_EQ(t.access(3), kColdMiss);
    EXPECT_EQ(t.access(2), 2u);  // 1 and 3
    EXPECT_EQ(t.access(3), 1u);
}

TEST(ReuseDistance, MatchesBruteForceStackOverManyRenumberings) {
    ReuseDistanceTracker t;
    std::list<std::uint64_t> stack;  // most recent first
    Rng rng(11);
    for (int i = 0; i < 60000; ++i) {
        const std::uint64_t line = rng.below(3) ? rng.below(50) : rng.below(5000);
        auto it = std::find(stack.begin(), stack.end(), line);
        std::uint64_t expected = kColdMiss;
        if (it != stack.end()) {
            expected = static_cast<std::uint64_t>(std::distance(stack.begin(), it));
            stack.erase(it);
        }
        stack.push_front(line);
        ASSERT_EQ(t.access(line), expected) << "access " << i;
    }
}

TEST(ReuseHistogram, PowerOfTwoBuckets) {
    ReuseHistogram h;
    for (std::uint64_t d : {0ull, 1ull, 2ull, 3ull, 4ull, 7ull, 8ull}) h.add(d);
    h.add(kColdMiss);
    EXPECT_EQ(h.cold, 1u);
    ASSERT_EQ(h.buckets.size(), 5u);
    EXPECT_EQ(h.buckets[0], 1u);  // 0
    EXPECT_EQ(h.buckets[1], 1u);  // 1
    EXPECT_EQ(h.buckets[2], 2u);  // 2..3
    EXPECT_EQ(h.buckets[3], 2u);  // 4..7
    EXPECT_EQ(h.buckets[4], 1u);  // 8..15
}

}  // namespace
}  // namespace cachesim
