#pragma once
// LRU stack (reuse) distance of every access in O(log n): a Fenwick tree over time marks the
// latest access of each line; the distance is the number of marks after the line's last access.
// Time is renumbered when the tree fills, so memory follows the number of distinct lines, not
// the length of the run.
#include <cstdint>
#include <vector>

#include "sim/line_map.hpp"

namespace cachesim {

inline constexpr std::uint64_t kColdMiss = ~0ull;

class ReuseDistanceTracker {
public:
    ReuseDistanceTracker();
    // Distance (distinct other lines touched since this line's last access), or kColdMiss.
    std::uint64_t access(std::uint64_t line);
    std::size_t distinct_lines() const { return last_time_.size(); }

private:
    void add(std::size_t pos, int delta);
    std::uint64_t prefix(std::size_t pos) const;  // marks in [0, pos]
    void compact();

    std::vector<std::int32_t> tree_;  // Fenwick tree, 1-based internally
    LineMap last_time_;
    std::uint64_t time_ = 0;
    std::uint64_t live_ = 0;
};

// Histogram of reuse distances in power-of-two buckets: bucket 0 holds distance 0, bucket b
// holds [2^(b-1), 2^b); cold (first) accesses are counted apart.
struct ReuseHistogram {
    std::vector<std::uint64_t> buckets;
    std::uint64_t cold = 0;

    void add(std::uint64_t distance) {
        if (distance == kColdMiss) {
            ++cold;
            return;
        }
        const std::size_t b = distance == 0 ? 0 : 64 - static_cast<std::size_t>(__builtin_clzll(distance));
        if (b >= buckets.size()) buckets.resize(b + 1, 0);
        ++buckets[b];
    }
    static std::uint64_t bucket_low(std::size_t b) { return b == 0 ? 0 : 1ull << (b - 1); }
    static std::uint64_t bucket_high(std::size_t b) { return b == 0 ? 0 : (1ull << b) - 1; }
};

}  // namespace cachesim
