// Tree pseudo-LRU differs from true LRU on a hand-worked sequence.
#include <gtest/gtest.h>

#include "sim/policies/lru.hpp"
#include "sim/policies/plru.hpp"
#include "tests/policy_test_util.hpp"

namespace cachesim {
namespace {

TEST(Plru, VictimFollowsTreeBits) {
    // 4 ways. After A B C D and a hit on A, the tree points right at the root (A's half was
    // used last) and at C's leaf pair, so E evicts C, not B as true LRU would.
    Cache<PlruPolicy> plru(test::geometry_for(4, 0, PolicyKind::plru), 1);
    EXPECT_EQ(test::replay_lines(plru, {1, 2, 3, 4, 1, 5, 2}), "mmmmhmh");
    EXPECT_FALSE(plru.contains(3));

    Cache<LruPolicy> lru(test::geometry_for(4, 0, PolicyKind::lru), 1);
    EXPECT_EQ(test::replay_lines(lru, {1, 2, 3, 4, 1, 5, 2}), "mmmmhmm");
}

TEST(Plru, TwoWaysBehavesExactlyLikeLru) {
    Cache<PlruPolicy> plru(test::geometry_for(2, 0, PolicyKind::plru), 1);
    Cache<LruPolicy> lru(test::geometry_for(2, 0, PolicyKind::lru), 1);
    const std::vector<std::uint64_t> seq = {1, 2, 1, 3, 2, 2, 4, 1, 3, 3, 1, 4};
    EXPECT_EQ(test::replay_lines(plru, seq), test::replay_lines(lru, seq));
}

TEST(Plru, RejectsNonPowerOfTwoWays) {
    CacheConfig c;
    c.size_bytes = 6 * 16;
    c.line_bytes = 16;
    c.ways = 6;
    c.policy = PolicyKind::plru;
    const GeometryResult g = make_geometry(c);
    EXPECT_FALSE(g.geometry);
    EXPECT_NE(g.error.find("power-of-two"), std::string::npos);
}

}  // namespace
}  // namespace cachesim
