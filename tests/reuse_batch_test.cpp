// The reuse tracker's batches: two trackers sharing one table of line times (as a hierarchy's
// L1 and L2 analyses do), fed in batches of every size up to the maximum, give each access's
// distance, bucket and threshold comparison as the Fenwick reference does; and count_batch's
// totals equal those counted from the reference's distances by the definitions (a miss is
// compulsory on a first access, capacity at a distance >= the threshold, conflict below it).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "sim/reuse_distance.hpp"
#include "sim/rng.hpp"
#include "tests/fenwick_reference.hpp"

namespace cachesim {
namespace {

using Tally = ReuseDistanceTracker::Tally;
constexpr std::size_t kMax = ReuseDistanceTracker::kMaxBatch;

// Level 0's lines and whether each missed: a sequential stream, a hot set, repeats of the line
// before and lines spread over 2^17, so that both trackers renumber many times and the shared
// table grows while they use it. Level 1 sees level 0's misses, as an L2 sees an L1's.
struct Stream {
    std::vector<std::uint64_t> lines;
    std::vector<bool> miss[2];  // level 0's; level 1's, for the lines level 0 missed
};

void add_line(Stream& s, std::uint64_t line, Rng& rng) {
    s.lines.push_back(line);
    s.miss[0].push_back(rng.below(5) < 2);
    if (s.miss[0].back()) s.miss[1].push_back(rng.below(3) != 0);
}

Stream make_stream(std::size_t n, std::uint64_t seed) {
    Stream s;
    Rng rng(seed);
    std::uint64_t next_sequential = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t pick = rng.below(10);
        std::uint64_t line;
        if (pick < 4) line = next_sequential++;
        else if (pick < 6) line = rng.below(64);
        else if (pick < 7 && !s.lines.empty()) line = s.lines.back();
        else line = rng.below(1u << 17);
        add_line(s, line, rng);
    }
    return s;
}

// Lines that move the shared table's dense window: a small range first (the first window), then
// a large range far above it (the window moves there and grows with a stream in it), lines
// scattered over 2^56 (the hash table) and the small range again (back in the hash table).
Stream make_far_ranges_stream(std::size_t n, std::uint64_t seed) {
    Stream s;
    Rng rng(seed);
    for (std::uint64_t line = 0; line < 3000; ++line) add_line(s, line, rng);
    std::uint64_t next_sequential = (1ull << 40) + (1u << 16);
    while (s.lines.size() < n) {
        const std::uint64_t pick = rng.below(10);
        std::uint64_t line;
        if (pick < 3) line = next_sequential++;
        else if (pick < 7) line = (1ull << 40) + rng.below(1u << 16);
        else if (pick < 8) line = rng.next() >> 8;
        else line = rng.below(3000);
        add_line(s, line, rng);
    }
    return s;
}

// Counts derived from the reference's distances by the definitions.
struct ExpectedCounts {
    std::uint64_t bucket[ReuseDistanceTracker::kBuckets] = {};  // kColdIndex: first accesses
    std::uint64_t compulsory = 0, capacity = 0, conflict = 0;
};

// The reference's side of one level: distances, and the counts derived from them.
struct ReferenceLevel {
    explicit ReferenceLevel(std::uint64_t t) : threshold(t) {}
    std::uint64_t access(std::uint64_t line, bool miss) {
        const std::uint64_t d = distances.access(line);
        const bool cold = d == kColdMiss;
        ++tally.bucket[cold ? ReuseDistanceTracker::kColdIndex : ReuseHistogram::bucket_of(d)];
        if (miss) {
            if (cold) ++tally.compulsory;
            else if (d >= threshold) ++tally.capacity;
            else ++tally.conflict;
        }
        return d;
    }
    std::uint64_t threshold;
    test::FenwickReference distances;
    ExpectedCounts tally;
};

// Feeds the stream to both levels a batch at a time (level 0's batch, then level 1's lines from
// it), batch sizes 1, 2, ..., kMaxBatch in turn; `take(level, lines, miss, n)` runs one batch.
template <class Take>
void feed(const Stream& s, Take&& take) {
    std::size_t next_miss = 0, size = 1;
    for (std::size_t start = 0; start < s.lines.size(); size = size % kMax + 1) {
        const std::size_t n = std::min(size, s.lines.size() - start);
        std::uint64_t lines[2][kMax];
        bool miss[2][kMax];
        std::size_t below = 0;
        for (std::size_t k = 0; k < n; ++k) {
            lines[0][k] = s.lines[start + k];
            miss[0][k] = s.miss[0][start + k];
            if (miss[0][k]) {
                lines[1][below] = lines[0][k];
                miss[1][below++] = s.miss[1][next_miss++];
            }
        }
        take(0, lines[0], miss[0], n);
        take(1, lines[1], miss[1], below);
        start += n;
    }
}

// Each access's distance, bucket and threshold comparison, level by level, as the reference's.
void expect_reference_results(const Stream& s, LineTimes& shared) {
    const std::uint64_t thresholds[2] = {512, 3000};
    ReuseDistanceTracker tracker0(thresholds[0], &shared, 0), tracker1(thresholds[1], &shared, 1);
    ReuseDistanceTracker* tracker[2] = {&tracker0, &tracker1};
    ReferenceLevel reference[2] = {ReferenceLevel(thresholds[0]), ReferenceLevel(thresholds[1])};
    std::size_t checked = 0;
    feed(s, [&](int level, const std::uint64_t* lines, const bool* miss, std::size_t n) {
        ReuseDistanceTracker::Result r[kMax];
        tracker[level]->access_batch(lines, r, n);
        for (std::size_t k = 0; k < n; ++k, ++checked) {
            const std::uint64_t d = reference[level].access(lines[k], miss[k]);
            const bool cold = d == kColdMiss;
            ASSERT_EQ(r[k].bucket, cold ? ReuseDistanceTracker::kColdBucket : ReuseHistogram::bucket_of(d))
                << "level " << level << " lookup " << checked;
            ASSERT_EQ(r[k].distance, cold ? 0 : d) << "level " << level << " lookup " << checked;
            ASSERT_EQ(r[k].beyond, !cold && d >= thresholds[level]) << "level " << level << " lookup " << checked;
        }
    });
    EXPECT_GT(tracker0.distinct_lines(), 100000u);
    EXPECT_GT(tracker1.distinct_lines(), 50000u);
}

TEST(ReuseBatch, SharedTableMatchesReferencePerLevel) {
    LineTimes shared(2);
    expect_reference_results(make_stream(300000, 7), shared);
}

TEST(ReuseBatch, SharedTableMatchesReferenceAsItsWindowMoves) {
    LineTimes shared(2);
    expect_reference_results(make_far_ranges_stream(400000, 9), shared);
    // The window left the small range for the large one.
    EXPECT_GE(shared.dense_first() * shared.lines_per_chunk(), 1ull << 40);
    EXPECT_GT(shared.dense_chunks() * shared.lines_per_chunk(), 1u << 16);
}

TEST(ReuseBatch, CountBatchEqualsCountsFromReferenceDistances) {
    const Stream s = make_stream(300000, 8);
    const std::uint64_t thresholds[2] = {0, 1000};  // 0: every reuse that misses is a capacity miss
    LineTimes shared(2);
    ReuseDistanceTracker tracker0(thresholds[0], &shared, 0), tracker1(thresholds[1], &shared, 1);
    ReuseDistanceTracker* tracker[2] = {&tracker0, &tracker1};
    ReferenceLevel reference[2] = {ReferenceLevel(thresholds[0]), ReferenceLevel(thresholds[1])};
    Tally tally[2];
    feed(s, [&](int level, const std::uint64_t* lines, const bool* miss, std::size_t n) {
        tracker[level]->count_batch(lines, miss, n, tally[level]);
        for (std::size_t k = 0; k < n; ++k) reference[level].access(lines[k], miss[k]);
    });
    for (int level = 0; level < 2; ++level) {
        const Tally& got = tally[level];
        const ExpectedCounts& want = reference[level].tally;
        for (std::size_t b = 0; b < ReuseDistanceTracker::kBuckets; ++b)
            EXPECT_EQ(got.in_bucket(b), want.bucket[b]) << "level " << level << " bucket " << b;
        EXPECT_EQ(got.compulsory(), want.compulsory) << "level " << level;
        EXPECT_EQ(got.capacity(), want.capacity) << "level " << level;
        EXPECT_EQ(got.conflict(), want.conflict) << "level " << level;
        EXPECT_GT(want.capacity, 0u);
        EXPECT_GT(want.compulsory, 0u);
    }
    EXPECT_GT(reference[1].tally.conflict, 0u);
}

}  // namespace
}  // namespace cachesim
