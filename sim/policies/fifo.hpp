#pragma once
#include <cstdint>
#include <vector>

#include "sim/policies/policy.hpp"

namespace cachesim {

// First in, first out: hits do not matter; the victim is the line filled longest ago. Each set
// keeps its ways in the order they were filled, as a circular queue: the cache fills empty ways
// first and a line leaves only as the victim, whose way takes the new line, so once the set is
// full the oldest is at the queue's front and each replacement moves the front on by one. O(1)
// a miss at any associativity (a scan of fill stamps would cost a pass over every way).
class FifoPolicy {
public:
    static constexpr bool kHitIsIdempotent = true;
    void reset(const PolicyContext& c) {
        ways_ = c.ways;
        order_.assign(static_cast<std::size_t>(c.sets) * c.ways, 0);
        filled_.assign(c.sets, 0);
        front_.assign(c.sets, 0);
    }
    void on_hit(std::uint32_t, std::uint32_t, std::uint64_t) {}
    void on_fill(std::uint32_t set, std::uint32_t way, std::uint64_t) {
        std::uint32_t& filled = filled_[set];
        if (filled < ways_) {
            order_[static_cast<std::size_t>(set) * ways_ + filled++] = way;
            return;
        }
        // The victim's way took the new line: the front's place now holds the newest.
        std::uint32_t& front = front_[set];
        front = front + 1 == ways_ ? 0 : front + 1;
    }
    void on_invalidate(std::uint32_t, std::uint32_t) {}  // only the victim leaves, and its way is filled next
    Victim victim(std::uint32_t set, std::uint64_t) const {
        return {order_[static_cast<std::size_t>(set) * ways_ + front_[set]], 1};
    }

private:
    std::uint32_t ways_ = 1;
    std::vector<std::uint32_t> order_;   // per set: its ways, oldest fill first from front_
    std::vector<std::uint32_t> filled_;  // per set: ways filled so far (up to ways_)
    std::vector<std::uint32_t> front_;   // per set: where the oldest fill is in order_
};

}  // namespace cachesim
