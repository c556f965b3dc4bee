#pragma once
// LRU stack (reuse) distances, exactly, in the form the analysis needs them: the power-of-two
// bucket of each access's distance, and whether the distance reaches a threshold (a fully
// associative LRU cache of that many lines would miss).
//
// Time marks: every line's latest access sets one bit in a bitset over time; the distance of an
// access is the number of marks after its line's previous one. The marks are counted per block of
// 512 times, per group of 64 blocks and per supergroup of 16 groups, so a count is a few
// popcounts within the word's block and masked sums over the later blocks of its group, the later
// groups of its supergroup and the later supergroups: fixed-length loops, no branch on the
// distance (a search for the distance's bucket mispredicts on random streams). Per access: one
// map lookup, that count, and the moved mark's four counters.
//
// Time is renumbered (a counting placement by rank, no sort) when the bitset fills, so memory
// follows the number of distinct lines, not the length of the run. An access to the line
// accessed just before is distance 0 at once, with no state change.
#include <cstdint>
#include <vector>


namespace cachesim {

inline constexpr std::uint64_t kColdMiss = ~0ull;

// Latest-access time (plus one; 0 = never) of each line, in chunks of 16 consecutive lines (one
// 64-byte host cache line), open addressing over the chunks themselves: the key's slot and its
// chunk are at the same index, so both loads go out at once, and prefetch() can ask for them
// ahead. Sequential and clustered streams touch few chunks.
class LineTimes {
public:
    LineTimes();
    std::uint32_t& at(std::uint64_t line) {
        const std::uint64_t key = line >> 4;
        if (key != last_key_) {
            last_chunk_ = &chunks_[find_or_insert(key)];
            last_key_ = key;
        }
        return last_chunk_->t[line & 15];
    }
    // The line's time, 0 if none yet, without inserting it.
    std::uint32_t peek(std::uint64_t line) const {
        const std::uint64_t key = line >> 4;
        std::size_t i = home(key);
        while (keys_[i] != key) {
            if (keys_[i] == kNoKey) return 0;
            i = (i + 1) & mask_;
        }
        return chunks_[i].t[line & 15];
    }
    void prefetch(std::uint64_t line) const {
        const std::size_t i = home(line >> 4);
        __builtin_prefetch(&keys_[i]);
        __builtin_prefetch(&chunks_[i]);
    }
    template <class F>
    void for_each(F&& f) {
        for (std::size_t i = 0; i < keys_.size(); ++i)
            if (keys_[i] != kNoKey)
                for (std::uint32_t& t : chunks_[i].t) f(t);
    }
    std::size_t memory_bytes() const {
        return keys_.capacity() * sizeof(std::uint64_t) + chunks_.capacity() * sizeof(Chunk);
    }

private:
    struct alignas(64) Chunk {
        std::uint32_t t[16] = {};
    };
    static constexpr std::uint64_t kNoKey = ~0ull;
    std::size_t home(std::uint64_t key) const {
        return static_cast<std::size_t>((key * 0x9e3779b97f4a7c15ull) >> shift_);
    }
    std::size_t find_or_insert(std::uint64_t key) {
        std::size_t i = home(key);
        while (keys_[i] != key) {
            if (keys_[i] == kNoKey) return insert(key);
            i = (i + 1) & mask_;
        }
        return i;
    }
    std::size_t insert(std::uint64_t key);
    void rehash(std::size_t capacity);

    std::vector<std::uint64_t> keys_;
    std::vector<Chunk> chunks_;
    std::size_t size_ = 0, mask_ = 0;
    unsigned shift_ = 60;
    std::uint64_t last_key_ = kNoKey;
    Chunk* last_chunk_ = nullptr;
};

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
    explicit ReuseDistanceTracker(std::uint64_t threshold = 1);

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
            r.bucket = 0;
            r.beyond = threshold_ == 0;
            r.distance = 0;
            return;
        }
        access_new(line, r);
    }
    // The same for lines[0..n) in order, prefetching ahead (for streams that miss the host caches).
    void access_batch(const std::uint64_t* lines, const bool* want_beyond, Result* out, std::size_t n) {
        constexpr std::size_t kAhead = 16, kMarkAhead = 6;
        for (std::size_t i = 0; i < n && i < kAhead; ++i) times_.prefetch(lines[i]);
        for (std::size_t i = 0; i < n; ++i) {
            // (a chunk holds 16 lines: the next line's chunk is usually the one just used)
            if (i + kAhead < n && (lines[i + kAhead] ^ lines[i + kAhead - 1]) >> 4)
                times_.prefetch(lines[i + kAhead]);
            // Nearer, the time is in the host's cache: its mark's word and prefixes are asked for
            // (a time that changes before its turn costs only a useless prefetch).
            if (i + kMarkAhead < n) prefetch_mark(times_.peek(lines[i + kMarkAhead]));
            (void)want_beyond;
            access_into(lines[i], out[i]);
        }
    }
    std::size_t distinct_lines() const { return static_cast<std::size_t>(live_); }
    std::size_t memory_bytes() const;

private:
    // Times are grouped in words of 64, blocks of 8 words (512 times), groups of 16 blocks (8192),
    // supergroups of 8 groups (65536) and hypergroups of 8 supergroups (2^19). Each word, block,
    // group and supergroup keeps the marks in the earlier members of its parent (a prefix within
    // the parent), so the marks at or before a time are a popcount and four loads; clearing a mark
    // subtracts one from the later members of its four parents (a vector each), and setting the
    // newest mark changes no prefix (later members start, when time reaches them, from their
    // predecessor). The hypergroups keep plain counts, summed masked (their number changes only
    // with the capacity).
    static constexpr unsigned kBlockShift = 9, kGroupShift = 13, kSuperShift = 16, kHyperShift = 19;

    void access_new(std::uint64_t line, Result& r);
    void prefetch_mark(std::uint32_t time_plus_one) const {
        const std::uint32_t t = time_plus_one - 1;
        if (time_plus_one == 0 || t >= capacity_) return;
        __builtin_prefetch(&marks_[t >> 6]);
        __builtin_prefetch(&word_before_[t >> 6]);
        __builtin_prefetch(&block_before_[t >> kBlockShift]);
    }
    // Marks at times <= t (t < now_).
    std::uint32_t marks_up_to(std::uint32_t t) const;
    void set_mark(std::uint32_t t) {
        if ((t & 63) == 0) start_word(t >> 6);
        marks_[t >> 6] |= 1ull << (t & 63);
        ++hyper_count_[t >> kHyperShift];
    }
    void clear_mark(std::uint32_t t);
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
    std::vector<std::uint32_t> hyper_count_;
    std::vector<std::uint32_t> word_rank_;  // compaction scratch
    LineTimes times_;
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
