// Sampled reuse analysis (SHARDS): at rate 1 it is the exact analysis; at rate 0.1 the reuse
// histogram's shares and the miss classes stay within the bound docs/thread-model.md states, on a
// generated trace whose exact answers the exact analysis gives (itself checked against a
// brute-force reference in reuse_distance_test).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "sim/rng.hpp"
#include "sim/thread_model.hpp"
#include "tests/vector_source.hpp"

namespace cachesim {
namespace {

// Reuse at many scales: a hot set, a warm set, a wide random range and a sequential sweep.
std::vector<Access> mixed_trace(std::size_t n, std::uint64_t seed) {
    Rng rng(seed);
    std::vector<Access> a(n);
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t pick = rng.below(10);
        std::uint64_t line;
        if (pick < 4) line = rng.below(400);                     // hot
        else if (pick < 6) line = 1000 + rng.below(20000);       // warm
        else if (pick < 8) line = 100000 + rng.below(300000);    // wide
        else line = 1000000 + i / 4;                             // sweep
        a[i].address = line * 64 + rng.below(8) * 8;
        a[i].size = 8;
        a[i].is_write = rng.below(4) == 0;
    }
    return a;
}

HierarchyConfig two_levels(double rate) {
    HierarchyConfig h;
    h.l1 = {"L1", 32 * 1024, 64, 0, 8, PolicyKind::lru, WritePolicy::write_back_allocate};
    h.l2 = {"L2", 1024 * 1024, 64, 0, 16, PolicyKind::lru, WritePolicy::write_back_allocate};
    h.reuse_sample = rate;
    return h;
}

double total(const ReuseHistogram& h) {
    std::uint64_t n = h.cold;
    for (const std::uint64_t c : h.buckets) n += c;
    return static_cast<double>(n);
}

// Share of the lookups at distances below 2^b (bucket b and those before it hold them).
double share_below(const ReuseHistogram& h, std::size_t b) {
    std::uint64_t n = 0;
    for (std::size_t i = 0; i <= b && i < h.buckets.size(); ++i) n += h.buckets[i];
    return static_cast<double>(n) / total(h);
}

double share_of(const ReuseHistogram& h, std::size_t b) {
    return b < h.buckets.size() ? static_cast<double>(h.buckets[b]) / total(h) : 0.0;
}

TEST(ReuseSample, RateOneIsTheExactAnalysis) {
    test::VectorSource source(mixed_trace(300000, 7));
    const SimulationResult exact = simulate_thread_model(source, two_levels(0));
    source.rewind();
    const SimulationResult sampled = simulate_thread_model(source, two_levels(1));
    ASSERT_EQ(exact.levels.size(), 2u);
    for (std::size_t l = 0; l < 2; ++l) {
        EXPECT_EQ(sampled.levels[l].reuse.buckets, exact.levels[l].reuse.buckets) << "level " << l;
        EXPECT_EQ(sampled.levels[l].reuse.cold, exact.levels[l].reuse.cold);
        EXPECT_EQ(sampled.levels[l].compulsory, exact.levels[l].compulsory);
        EXPECT_EQ(sampled.levels[l].capacity, exact.levels[l].capacity);
        EXPECT_EQ(sampled.levels[l].conflict, exact.levels[l].conflict);
        EXPECT_EQ(exact.levels[l].reuse_sample, 0.0);
        EXPECT_EQ(sampled.levels[l].reuse_sample, 1.0);
    }
}

// The bound docs/thread-model.md states for rate 0.1: on a trace whose buckets are carried by
// thousands of sampled lines, every bucket share (distances of 1 / rate and more; below, the
// sample cannot resolve them) and every cumulative share within 0.02 of the exact one, the cold
// share and each miss class within 0.02 (of the lookups, of the misses).
TEST(ReuseSample, SharesWithinTheDocumentedBound) {
    constexpr double kRate = 0.1, kBound = 0.02;
    test::VectorSource source(mixed_trace(1000000, 3));
    const SimulationResult exact = simulate_thread_model(source, two_levels(0));
    source.rewind();
    const SimulationResult sampled = simulate_thread_model(source, two_levels(kRate));
    for (std::size_t l = 0; l < exact.levels.size(); ++l) {
        const LevelStats& e = exact.levels[l];
        const LevelStats& s = sampled.levels[l];
        EXPECT_EQ(s.reuse_sample, kRate);
        std::size_t compared = 0;
        for (std::size_t b = 0; b < std::max(e.reuse.buckets.size(), s.reuse.buckets.size()); ++b) {
            if (double(ReuseHistogram::bucket_low(b)) * kRate < 1) continue;
            ++compared;
            EXPECT_NEAR(share_of(s.reuse, b), share_of(e.reuse, b), kBound) << "level " << l << " bucket " << b;
            EXPECT_NEAR(share_below(s.reuse, b), share_below(e.reuse, b), kBound) << "level " << l << " bucket " << b;
        }
        EXPECT_GE(compared, 10u) << "level " << l;
        EXPECT_NEAR(double(s.reuse.cold) / total(s.reuse), double(e.reuse.cold) / total(e.reuse), kBound);
        const double misses = double(e.misses());
        ASSERT_EQ(s.misses(), e.misses());  // the caches themselves are not sampled
        EXPECT_NEAR(double(s.compulsory) / misses, double(e.compulsory) / misses, kBound) << "level " << l;
        EXPECT_NEAR(double(s.capacity) / misses, double(e.capacity) / misses, kBound) << "level " << l;
        EXPECT_NEAR(double(s.conflict) / misses, double(e.conflict) / misses, kBound) << "level " << l;
    }
}

}  // namespace
}  // namespace cachesim
