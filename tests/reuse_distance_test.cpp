// LRU stack distances: hand-worked values; agreement, access for access, with two independent
// references (a brute-force list stack and a Fenwick-tree tracker, tests/fenwick_reference.hpp) on
// random and structured streams across many renumberings; and whole runs of the thread model,
// whose miss classes and histograms must equal those recomputed from its lookups.
#include <gtest/gtest.h>

#include <algorithm>

#include "sim/observer.hpp"
#include "sim/reuse_distance.hpp"
#include "sim/rng.hpp"
#include "sim/thread_model.hpp"
#include "tests/fenwick_reference.hpp"
#include "tests/lru_reference.hpp"
#include "tests/vector_source.hpp"
#include "traces/workload_source.hpp"

namespace cachesim {
namespace {

using test::FenwickReference;

std::uint32_t bucket_of(std::uint64_t distance) {
    return distance == kColdMiss ? ReuseDistanceTracker::kColdBucket
                                 : static_cast<std::uint32_t>(ReuseHistogram::bucket_of(distance));
}

TEST(ReuseDistance, HandWorked) {
    ReuseDistanceTracker t(2);
    auto check = [&](std::uint64_t line, std::uint32_t bucket, bool beyond) {
        const auto r = t.access(line);
        EXPECT_EQ(r.bucket, bucket) << "line " << line;
        EXPECT_EQ(r.beyond, beyond) << "line " << line;
    };
    check(1, ReuseDistanceTracker::kColdBucket, false);
    check(2, ReuseDistanceTracker::kColdBucket, false);
    check(1, 1, false);  // distance 1: 2 was touched since
    check(1, 0, false);  // distance 0
    check(3, ReuseDistanceTracker::kColdBucket, false);
    check(2, 2, true);   // distance 2: 1 and 3
    check(3, 1, false);  // distance 1
    check(1, 2, true);   // distance 2
}

// Streams: mostly-hot random, wide random, cyclic scans (the classic LRU worst case), strided
// walks, and sequential runs with repeats.
std::vector<std::uint64_t> stream(int kind, std::size_t n, std::uint64_t seed) {
    Rng rng(seed);
    std::vector<std::uint64_t> s(n);
    for (std::size_t i = 0; i < n; ++i) {
        switch (kind) {
            case 0: s[i] = rng.below(3) ? rng.below(50) : rng.below(5000); break;
            case 1: s[i] = rng.below(30000); break;
            case 2: s[i] = i % 3001; break;
            case 3: s[i] = (i * 17) % 9973 + (i / 50000) * 100; break;
            case 4: s[i] = (i / 4) % 20000 + (rng.below(8) == 0 ? 1000000 : 0); break;
            default: s[i] = (rng.below(2) ? i / 8 : rng.below(1 << 14)) + (i % 7 == 0 ? (1ull << 40) : 0); break;
        }
    }
    return s;
}

TEST(ReuseDistance, MatchesBruteForceStack) {
    for (int kind = 0; kind < 6; ++kind) {
        ReuseDistanceTracker t(24);
        test::LruList stack;
        for (const std::uint64_t line : stream(kind, 40000, 11 + kind)) {
            const std::uint64_t expected = stack.touch(line).distance.value_or(kColdMiss);
            const auto r = t.access(line);
            ASSERT_EQ(r.bucket, bucket_of(expected)) << "kind " << kind;
            ASSERT_EQ(r.beyond, expected != kColdMiss && expected >= 24) << "kind " << kind;
        }
    }
}

// Against the previous tracker over long streams: every bucket and the threshold comparison, for
// thresholds that are and are not powers of two (and 0: every reuse is beyond it).
TEST(ReuseDistance, MatchesFenwickTrackerOnLongStreams) {
    for (int kind = 0; kind < 6; ++kind) {
        for (const std::uint64_t threshold : {0ull, 7ull, 512ull, 1000ull}) {
            ReuseDistanceTracker t(threshold);
            FenwickReference reference;
            std::size_t i = 0;
            for (const std::uint64_t line : stream(kind, 150000, 5 + kind)) {
                const std::uint64_t expected = reference.access(line);
                const bool ask = (i++ % 3) != 0;  // `beyond` is asked for on misses only
                const auto r = t.access(line, ask);
                ASSERT_EQ(r.bucket, bucket_of(expected)) << "kind " << kind << " access " << i;
                ASSERT_EQ(r.distance, expected == kColdMiss ? 0 : expected) << "kind " << kind << " access " << i;
                if (ask) {
                    ASSERT_EQ(r.beyond, expected != kColdMiss && expected >= threshold)
                        << "kind " << kind << " threshold " << threshold << " access " << i;
                }
            }
        }
    }
}

// Hundreds of thousands of distinct lines: the time span crosses many blocks, groups,
// supergroups and hypergroups of the mark counts, and distances reach 2^18.
TEST(ReuseDistance, MatchesFenwickTrackerAcrossHypergroups) {
    ReuseDistanceTracker t(300000);
    FenwickReference reference;
    Rng rng(99);
    for (std::size_t i = 0; i < 1500000; ++i) {
        const std::uint64_t line = rng.below(4) ? rng.below(400000) : rng.below(64);
        const std::uint64_t expected = reference.access(line);
        const auto r = t.access(line);
        ASSERT_EQ(r.bucket, bucket_of(expected)) << "access " << i;
        ASSERT_EQ(r.distance, expected == kColdMiss ? 0 : expected) << "access " << i;
        ASSERT_EQ(r.beyond, expected != kColdMiss && expected >= 300000) << "access " << i;
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

// Recomputes each level's histogram and miss classes from its lookups (the observer sees every
// lookup's line and outcome) with the Fenwick reference, as the analysis defined them.
class ReferenceAnalysis final : public SimObserver {
public:
    explicit ReferenceAnalysis(std::vector<std::uint64_t> lines) : capacity_(std::move(lines)) {}
    void on_lookup(int level, std::uint64_t line, bool hit, bool, std::uint16_t) override {
        const std::uint64_t d = tracker_[level].access(line);
        LevelStats& s = stats_[level];
        s.reuse.add(d);
        if (hit) return;
        if (d == kColdMiss) ++s.compulsory;
        else if (d >= capacity_[level]) ++s.capacity;
        else ++s.conflict;
    }
    LevelStats stats_[2];

private:
    std::vector<std::uint64_t> capacity_;
    FenwickReference tracker_[2];
};

void expect_same_analysis(AccessSource& source, HierarchyConfig h, const std::string& what) {
    std::vector<std::uint64_t> lines;
    for (const CacheConfig* c : {&h.l1, &h.l2})
        if (c->enabled()) lines.push_back(c->size_bytes / c->line_bytes);
    ReferenceAnalysis reference(lines);
    RunControl control;
    control.observer = &reference;
    h.analysis = true;
    const SimulationResult r = simulate_thread_model(source, h, control);
    ASSERT_EQ(r.levels.size(), lines.size());
    for (std::size_t l = 0; l < lines.size(); ++l) {
        const LevelStats& got = r.levels[l];
        const LevelStats& want = reference.stats_[l];
        EXPECT_EQ(got.compulsory, want.compulsory) << what << " level " << l;
        EXPECT_EQ(got.capacity, want.capacity) << what << " level " << l;
        EXPECT_EQ(got.conflict, want.conflict) << what << " level " << l;
        EXPECT_EQ(got.reuse.cold, want.reuse.cold) << what << " level " << l;
        EXPECT_EQ(got.reuse.buckets, want.reuse.buckets) << what << " level " << l;
        EXPECT_GT(got.compulsory + got.capacity + got.conflict, 0u) << what;
    }
}

TEST(ReuseAnalysis, ThreadModelMatchesReferenceOnTraces) {
    for (int kind = 0; kind < 3; ++kind) {  // sequential, random, mix (the benchmark traces' shapes)
        Rng rng(2024 + kind);
        std::vector<Access> a(250000);
        for (std::size_t i = 0; i < a.size(); ++i) {
            const bool sequential = kind == 0 || (kind == 2 && (rng.next() & 1));
            a[i].address = sequential ? i * 8 : (rng.next() % (1u << 19)) & ~7ull;
            a[i].size = 8;
            a[i].is_write = rng.below(5) == 0;
        }
        test::VectorSource source(a);
        for (const PolicyKind policy : {PolicyKind::lru, PolicyKind::random}) {
            HierarchyConfig h;
            h.l1 = {"L1", 8 * 1024, 64, 0, 4, policy, WritePolicy::write_back_allocate};
            h.l2 = {"L2", 96 * 1024, 64, 0, 12, policy, WritePolicy::write_back_allocate};  // 1536 lines
            expect_same_analysis(source, h, "trace " + std::to_string(kind));
        }
    }
}

TEST(ReuseAnalysis, ThreadModelMatchesReferenceOnWorkloads) {
    WorkloadSpec stencil;
    stencil.width = 200;
    stencil.height = 120;
    stencil.stencil_w = stencil.stencil_h = 5;
    stencil.schedule = parse_schedule("column:16");
    WorkloadSpec matmul;
    matmul.kind = WorkloadKind::matmul;
    matmul.width = matmul.height = matmul.depth = 48;
    for (const WorkloadSpec& w : {stencil, matmul}) {
        WorkloadSource source(w);
        HierarchyConfig h;
        h.l1 = {"L1", 3 * 1024, 128, 0, 3, PolicyKind::lru, WritePolicy::write_through_no_allocate};
        h.l2 = {"L2", 40 * 1024, 128, 0, 0, PolicyKind::lru, WritePolicy::write_back_allocate};
        expect_same_analysis(source, h, "workload");
    }
}

}  // namespace
}  // namespace cachesim
