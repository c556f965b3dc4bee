// Random replacement: reproducible for a seed, and the victim is always within the set.
#include <gtest/gtest.h>

#include "sim/policies/random.hpp"
#include "sim/rng.hpp"
#include "tests/policy_test_util.hpp"

namespace cachesim {
namespace {

std::vector<std::uint64_t> random_lines(std::size_t n, std::uint64_t range, std::uint64_t seed) {
    Rng rng(seed);
    std::vector<std::uint64_t> lines(n);
    for (auto& l : lines) l = rng.next() % range;
    return lines;
}

TEST(Random, SameSeedSameResult) {
    const auto seq = random_lines(5000, 64, 7);
    Cache<RandomPolicy> a(test::geometry_for(16, 4, PolicyKind::random), 42);
    Cache<RandomPolicy> b(test::geometry_for(16, 4, PolicyKind::random), 42);
    EXPECT_EQ(test::replay_lines(a, seq), test::replay_lines(b, seq));
}

TEST(Random, DifferentSeedsDiffer) {
    const auto seq = random_lines(5000, 64, 7);
    Cache<RandomPolicy> a(test::geometry_for(16, 4, PolicyKind::random), 1);
    Cache<RandomPolicy> b(test::geometry_for(16, 4, PolicyKind::random), 2);
    EXPECT_NE(test::replay_lines(a, seq), test::replay_lines(b, seq));
}

TEST(Random, EvictsOnlyFromTheAccessedSet) {
    // 2 sets x 2 ways; set 1 is filled once and never touched again, so it must survive.
    Cache<RandomPolicy> cache(test::geometry_for(4, 2, PolicyKind::random), 3);
    cache.access(1, 0, false, true);
    cache.access(3, 0, false, true);
    for (std::uint64_t line = 0; line < 200; line += 2) cache.access(line, 0, false, true);
    EXPECT_TRUE(cache.contains(1));
    EXPECT_TRUE(cache.contains(3));
}

}  // namespace
}  // namespace cachesim
