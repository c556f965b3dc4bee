// Belady's OPT: hand-worked victims, and never more misses than any other policy.
#include <gtest/gtest.h>

#include "sim/opt_oracle.hpp"
#include "sim/policies/fifo.hpp"
#include "sim/policies/lru.hpp"
#include "sim/policies/opt.hpp"
#include "sim/policies/plru.hpp"
#include "sim/policies/random.hpp"
#include "sim/rng.hpp"
#include "tests/policy_test_util.hpp"

namespace cachesim {
namespace {

TEST(OptOracle, NextUseIndices) {
    const auto next = next_use_from_stream({5, 6, 5, 7, 6, 5});
    const std::vector<std::uint64_t> expected = {2, 4, 5, kNeverUsedAgain, kNeverUsedAgain,
                                                 kNeverUsedAgain};
    EXPECT_EQ(next, expected);
}

TEST(Opt, EvictsLineUsedFurthestInFuture) {
    // A B C A B with 2 lines: C evicts B (next used at 4, after A at 3); LRU would evict A.
    const std::vector<std::uint64_t> seq = {1, 2, 3, 1, 2};
    const auto next = next_use_from_stream(seq);
    Cache<OptPolicy> opt(test::geometry_for(2, 0, PolicyKind::opt), 1, &next);
    EXPECT_EQ(test::replay_lines(opt, seq), "mmmhm");
    Cache<LruPolicy> lru(test::geometry_for(2, 0, PolicyKind::lru), 1);
    EXPECT_EQ(test::replay_lines(lru, seq), "mmmmm");
}

TEST(Opt, PrefersLinesNeverUsedAgain) {
    const std::vector<std::uint64_t> seq = {1, 2, 3, 4, 1, 2, 1, 2};
    const auto next = next_use_from_stream(seq);
    Cache<OptPolicy> opt(test::geometry_for(3, 0, PolicyKind::opt), 1, &next);
    EXPECT_EQ(test::replay_lines(opt, seq), "mmmmhhhh");
}

template <class Policy>
std::size_t misses(const std::vector<std::uint64_t>& seq, const CacheGeometry& g,
                   const std::vector<std::uint64_t>* next = nullptr) {
    Cache<Policy> cache(g, 99, next);
    const std::string pattern = test::replay_lines(cache, seq);
    return static_cast<std::size_t>(std::count(pattern.begin(), pattern.end(), 'm'));
}

TEST(Opt, NeverMissesMoreThanAnyOtherPolicyOnRandomTraces) {
    for (std::uint64_t trial = 0; trial < 40; ++trial) {
        Rng rng(trial + 1);
        const std::uint64_t range = 8 + rng.below(120);
        std::vector<std::uint64_t> seq(3000);
        // Mix of a hot set and uniform noise, so policies really differ.
        for (auto& l : seq) l = rng.below(4) == 0 ? rng.below(8) : rng.below(static_cast<std::uint32_t>(range));
        const auto next = next_use_from_stream(seq);
        for (std::uint32_t ways : {4u, 8u}) {
            for (std::uint64_t lines : {8ull, 16ull, 32ull}) {
                const auto g = [&](PolicyKind p) { return test::geometry_for(lines, ways, p); };
                const std::size_t opt = misses<OptPolicy>(seq, g(PolicyKind::opt), &next);
                EXPECT_LE(opt, misses<LruPolicy>(seq, g(PolicyKind::lru)));
                EXPECT_LE(opt, misses<FifoPolicy>(seq, g(PolicyKind::fifo)));
                EXPECT_LE(opt, misses<RandomPolicy>(seq, g(PolicyKind::random)));
                EXPECT_LE(opt, misses<Random4Policy>(seq, g(PolicyKind::random4)));
                EXPECT_LE(opt, misses<PlruPolicy>(seq, g(PolicyKind::plru)));
            }
        }
    }
}

}  // namespace
}  // namespace cachesim
