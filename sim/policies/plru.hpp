#pragma once
#include <vector>

#include "sim/policies/policy.hpp"

namespace cachesim {

// Tree pseudo-LRU: ways-1 bits per set form a binary tree; each bit points to the half that was
// used less recently. An access flips the bits on its path to point away; the victim follows them.
class PlruPolicy {
public:
    static constexpr bool kHitIsIdempotent = true;
    // State per set only (a byte per node), `now` unused: disjoint sets may be used from
    // different threads (the GPU model's sliced L2).
    static constexpr bool kSetLocal = true;
    void reset(const PolicyContext& c) {
        ways_ = c.ways;
        bits_.assign(static_cast<std::size_t>(c.sets) * c.ways, 0);
    }
    void on_hit(std::uint32_t set, std::uint32_t way, std::uint64_t) { touch(set, way); }
    void on_fill(std::uint32_t set, std::uint32_t way, std::uint64_t) { touch(set, way); }
    void on_invalidate(std::uint32_t, std::uint32_t) {}
    Victim victim(std::uint32_t set, std::uint64_t) const {
        const std::uint8_t* tree = &bits_[static_cast<std::size_t>(set) * ways_];
        std::uint32_t node = 1;  // heap order: children of n are 2n and 2n+1
        while (node < ways_) node = 2 * node + tree[node];
        return {node - ways_, 1};
    }

private:
    void touch(std::uint32_t set, std::uint32_t way) {
        std::uint8_t* tree = &bits_[static_cast<std::size_t>(set) * ways_];
        std::uint32_t node = way + ways_;
        while (node > 1) {
            const std::uint32_t parent = node >> 1;
            tree[parent] = (node & 1u) ? 0 : 1;  // point at the sibling subtree
            node = parent;
        }
    }
    std::uint32_t ways_ = 1;
    std::vector<std::uint8_t> bits_;
};

}  // namespace cachesim
