#pragma once
// LRU stack (reuse) distances, exactly, in the form the analysis needs them: the power-of-two
// bucket of each access's distance, and whether the distance reaches a threshold (a fully
// associative LRU cache of that many lines would miss).
//
// Time marks: every line's latest access sets one bit in a bitset over time; the distance of an
// access is the number of marks after its line's previous one. Each word of the bitset, and each
// block, group and supergroup of words, keeps the count of marks in the earlier members of its
// parent, and each hypergroup those in all the earlier ones, so the marks up to a time are a
// popcount and five loads, and moving a mark is a vector decrement per level (see the private
// part): a fixed amount of work, no branch on the distance (a search for the distance's bucket
// mispredicts on random streams).
//
// Accesses come in batches (a level's queue of lookups): first every line's slot in the table
// of times, independent lookups that the host overlaps, then the distances in order, in one loop
// that keeps the bitset's pointers in registers. A batch can be counted straight into a table
// whose sums are a level's histogram and miss classes (count_batch), one increment an access.
//
// Time is renumbered (a counting placement by rank, no sort) when the bitset fills, so memory
// follows the number of distinct lines, not the length of the run. An access to the line
// accessed just before is distance 0 at once, with no state change.
#include <bit>
#include <cstdint>
#include <optional>
#include <vector>

#include "sim/line_times.hpp"

namespace cachesim {

inline constexpr std::uint64_t kColdMiss = ~0ull;

class ReuseDistanceTracker {
public:
    // Bucket of a first access.
    static constexpr std::uint32_t kColdBucket = ~0u;

    struct Result {
        // 0: distance 0; b >= 1: distance in [2^(b-1), 2^b); kColdBucket: first access.
        std::uint32_t bucket;
        // distance >= threshold (false for a first access).
        bool beyond;
        // The distance itself (0 for a first access).
        std::uint32_t distance;
    };

    // threshold: the distance that `beyond` compares against (e.g. a level's line count).
    // shared_times: a table of line times shared with another level's tracker, this one's times
    // at `level` (0 or 1) in it; null: a table of its own.
    explicit ReuseDistanceTracker(std::uint64_t threshold = 1, LineTimes* shared_times = nullptr, unsigned level = 0);
    ReuseDistanceTracker(const ReuseDistanceTracker&) = delete;
    ReuseDistanceTracker& operator=(const ReuseDistanceTracker&) = delete;

    // want_beyond is kept for callers that ask only on misses: the comparison costs nothing now.
    Result access(std::uint64_t line, bool want_beyond = true) {
        (void)want_beyond;
        Result r;
        access_into(line, r);
        return r;
    }
    // The same, written field by field (a 12-byte result returned in registers is assembled
    // through the stack, and reading it back stalls on store forwarding).
    void access_into(std::uint64_t line, Result& r) {
        if (line == last_line_) {
            result(0, r);
            return;
        }
        last_line_ = line;
        if (now_ == capacity_) compact();
        result(step(times_.at(line, level_)), r);
    }
    // The same for lines[0..n) in order, n <= kMaxBatch (see start_batch).
    static constexpr std::size_t kMaxBatch = 64;
    void access_batch(const std::uint64_t* lines, Result* out, std::size_t n);

    // Counts of a level's accesses, added up without a result per access: one count per access,
    // by whether its lookup missed and by 2 * bucket + beyond (bucket as Result::bucket, but
    // kColdIndex for a first access); the histogram and the miss classes (a miss at a distance
    // below the threshold is a conflict miss) are sums of them.
    static constexpr std::size_t kColdIndex = 32, kBuckets = 33;
    struct Tally {
        std::uint64_t count[2][2 * kBuckets] = {};
        std::uint64_t in_bucket(std::size_t b) const {
            return count[0][2 * b] + count[0][2 * b + 1] + count[1][2 * b] + count[1][2 * b + 1];
        }
        std::uint64_t compulsory() const { return count[1][2 * kColdIndex] + count[1][2 * kColdIndex + 1]; }
        std::uint64_t capacity() const { return misses(1); }
        std::uint64_t conflict() const { return misses(0); }

    private:
        std::uint64_t misses(unsigned beyond) const {
            std::uint64_t n = 0;
            for (std::size_t b = 0; b < kColdIndex; ++b) n += count[1][2 * b + beyond];
            return n;
        }
    };
    // access_batch's accesses counted into `tally`; miss[i]: whether lines[i]'s lookup missed.
    void count_batch(const std::uint64_t* lines, const bool* miss, std::size_t n, Tally& tally);
    std::size_t distinct_lines() const { return static_cast<std::size_t>(live_); }
    std::size_t memory_bytes() const;

private:
    // Times are grouped in words of 64, blocks of 8 words (512 times), groups of 16 blocks (8192),
    // supergroups of 8 groups (65536) and hypergroups of 8 supergroups (2^19). Each word, block,
    // group and supergroup keeps the marks in the earlier members of its parent (a prefix within
    // the parent), so the marks at or before a time are a popcount and five loads; clearing a mark
    // subtracts one from the later members of its four parents (a vector each), and setting the
    // newest mark changes no prefix (later members start, when time reaches them, from their
    // predecessor). Each hypergroup keeps the marks in all the earlier ones: clearing a mark
    // subtracts one from the hypergroups time has reached since (seldom any: most earlier
    // times are in now's hypergroup or the one before).
    static constexpr unsigned kBlockShift = 9, kGroupShift = 13, kSuperShift = 16, kHyperShift = 19;

    static constexpr std::uint32_t kCold = ~0u;  // the "distance" of a first access
    // kCold's is kColdIndex (no distance reaches 2^31).
    static std::uint32_t bucket_of(std::uint32_t distance) { return static_cast<std::uint32_t>(std::bit_width(distance)); }
    void result(std::uint32_t distance, Result& r) const {
        const bool cold = distance == kCold;
        r.bucket = cold ? kColdBucket : bucket_of(distance);
        r.beyond = !cold && distance >= threshold_;
        r.distance = cold ? 0 : distance;
    }
    // A batch in three passes: every line's slot in the table (independent lookups, which the
    // host overlaps; null for a repeat of the line before, distance 0), then each time's mark
    // word and prefixes asked for ahead; run_batch() then takes the accesses in order, each(i,
    // distance or kCold).
    void start_batch(const std::uint64_t* lines, std::uint32_t** slots, std::size_t n);
    template <class Each>
    void run_batch(const std::uint64_t* lines, std::size_t n, Each&& each);
    // The bitset and its prefixes as plain pointers, held in registers through a batch (the
    // vector stores that clear a mark may alias anything: through the members every access
    // would load them again).
    struct Marks {
        std::uint64_t* marks;
        std::uint16_t* word_before;
        std::uint16_t* block_before;
        std::uint16_t* group_before;
        std::uint32_t* super_before;
        std::uint32_t* hyper_before;
        // Marks at times <= t (t < now).
        std::uint32_t up_to(std::uint32_t t) const;
        // Clears t's mark (t < now).
        void clear(std::uint32_t t, std::uint32_t now) const;
    };
    Marks view() {
        return {marks_.data(), word_before_.data(), block_before_.data(), group_before_.data(),
                super_before_.data(), hyper_before_.data()};
    }
    // An access whose line's slot in the table is `slot` (now < capacity_): its distance, or
    // kCold. now and live: the tracker's now_ and live_, kept in registers by the caller.
    std::uint32_t step(std::uint32_t& slot, const Marks& m, std::uint32_t& now, std::uint32_t& live);
    // The same, one access on its own.
    std::uint32_t step(std::uint32_t& slot);
    void prefetch_mark(std::uint32_t time_plus_one) const {
        const std::uint32_t t = time_plus_one - 1;
        if (time_plus_one == 0 || t >= capacity_) return;
        __builtin_prefetch(&marks_[t >> 6]);
        __builtin_prefetch(&word_before_[t >> 6]);
        __builtin_prefetch(&block_before_[t >> kBlockShift]);
    }
    void set_mark(const Marks& m, std::uint32_t t) {
        if ((t & 63) == 0) start_word(t >> 6);
        m.marks[t >> 6] |= 1ull << (t & 63);
    }
    // Sets the prefixes of word w (and of the block, group and supergroup it starts) from their
    // predecessors, when time first reaches it.
    void start_word(std::uint32_t w);
    void compact();
    // Sizes the bitset and the prefixes, zeroed, for times [0, capacity).
    void resize(std::uint32_t capacity);

    std::uint64_t threshold_;
    std::uint64_t last_line_ = kColdMiss;
    std::uint32_t now_ = 0;       // next time
    std::uint32_t capacity_ = 0;  // times [0, capacity_) fit in the bitset
    std::uint32_t live_ = 0;      // marks = distinct lines
    std::vector<std::uint64_t> marks_;
    // Marks in the earlier members of the parent; whole parents (the vector updates need no bound).
    std::vector<std::uint16_t> word_before_;   // 8 per block: at most 448
    std::vector<std::uint16_t> block_before_;  // 16 per group: at most 7680
    std::vector<std::uint16_t> group_before_;  // 8 per supergroup: at most 57344
    std::vector<std::uint32_t> super_before_;  // 8 per hypergroup
    std::vector<std::uint32_t> hyper_before_;  // for the hypergroups time has reached
    std::vector<std::uint32_t> word_rank_;  // compaction scratch
    std::optional<LineTimes> own_times_;  // when not shared
    LineTimes& times_;
    unsigned level_;
};

// Histogram of reuse distances in power-of-two buckets: bucket 0 holds distance 0, bucket b
// holds [2^(b-1), 2^b); cold (first) accesses are counted apart.
struct ReuseHistogram {
    std::vector<std::uint64_t> buckets;
    std::uint64_t cold = 0;

    static std::size_t bucket_of(std::uint64_t distance) {
        return distance == 0 ? 0 : 64 - static_cast<std::size_t>(__builtin_clzll(distance));
    }
    void add(std::uint64_t distance) {
        if (distance == kColdMiss) {
            ++cold;
            return;
        }
        add_bucket(bucket_of(distance));
    }
    void add_bucket(std::size_t b, std::uint64_t n = 1) {
        if (b >= buckets.size()) [[unlikely]] buckets.resize(b + 1, 0);
        buckets[b] += n;
    }
    static std::uint64_t bucket_low(std::size_t b) { return b == 0 ? 0 : 1ull << (b - 1); }
    static std::uint64_t bucket_high(std::size_t b) { return b == 0 ? 0 : (1ull << b) - 1; }
};

}  // namespace cachesim
