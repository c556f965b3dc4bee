#pragma once
// LRU and FIFO with O(1) victim selection, for caches with hundreds of ways (the GPU L1 is nearly
// fully associative). Same contract and the same choices as sim/policies/lru.hpp and fifo.hpp,
// whose timestamp scans cost O(ways) per miss: a doubly linked list per set, most recent first.
#include <cstdint>
#include <vector>

#include "sim/policies/policy.hpp"
#include "sim/policy_dispatch.hpp"

namespace cachesim {

namespace detail {

class WayList {
public:
    static constexpr std::uint32_t kNil = ~0u;
    void reset(const PolicyContext& c) {
        ways_ = c.ways;
        const std::size_t slots = static_cast<std::size_t>(c.sets) * c.ways;
        prev_.assign(slots, kNil);
        next_.assign(slots, kNil);
        head_.assign(c.sets, kNil);
        tail_.assign(c.sets, kNil);
    }
    void push_front(std::uint32_t set, std::uint32_t way) {
        const std::uint32_t s = slot(set, way);
        prev_[s] = kNil;
        next_[s] = head_[set];
        if (head_[set] != kNil) prev_[head_[set]] = s;
        else tail_[set] = s;
        head_[set] = s;
    }
    void unlink(std::uint32_t set, std::uint32_t way) {
        const std::uint32_t s = slot(set, way);
        const std::uint32_t p = prev_[s], n = next_[s];
        if (p != kNil) next_[p] = n;
        else if (head_[set] == s) head_[set] = n;
        else return;  // not linked
        if (n != kNil) prev_[n] = p;
        else tail_[set] = p;
        prev_[s] = next_[s] = kNil;
    }
    void move_to_front(std::uint32_t set, std::uint32_t way) {
        if (head_[set] == slot(set, way)) return;
        unlink(set, way);
        push_front(set, way);
    }
    std::uint32_t last_way(std::uint32_t set) const { return tail_[set] - set * ways_; }

private:
    std::uint32_t slot(std::uint32_t set, std::uint32_t way) const { return set * ways_ + way; }
    std::uint32_t ways_ = 1;
    std::vector<std::uint32_t> prev_, next_, head_, tail_;
};

}  // namespace detail

// Least recently used (exactly LruPolicy's choices).
class ListLruPolicy {
public:
    static constexpr bool kHitIsIdempotent = true;
    static constexpr bool kSetLocal = true;  // see SectorCache::sets_independent()
    void reset(const PolicyContext& c) { list_.reset(c); }
    void on_hit(std::uint32_t set, std::uint32_t way, std::uint64_t) { list_.move_to_front(set, way); }
    void on_fill(std::uint32_t set, std::uint32_t way, std::uint64_t) { list_.push_front(set, way); }
    void on_invalidate(std::uint32_t set, std::uint32_t way) { list_.unlink(set, way); }
    Victim victim(std::uint32_t set, std::uint64_t) const { return {list_.last_way(set), 1}; }

private:
    detail::WayList list_;
};

// First in, first out (exactly FifoPolicy's choices).
class ListFifoPolicy {
public:
    static constexpr bool kHitIsIdempotent = true;
    static constexpr bool kSetLocal = true;  // see SectorCache::sets_independent()
    void reset(const PolicyContext& c) { list_.reset(c); }
    void on_hit(std::uint32_t, std::uint32_t, std::uint64_t) {}
    void on_fill(std::uint32_t set, std::uint32_t way, std::uint64_t) { list_.push_front(set, way); }
    void on_invalidate(std::uint32_t set, std::uint32_t way) { list_.unlink(set, way); }
    Victim victim(std::uint32_t set, std::uint64_t) const { return {list_.last_way(set), 1}; }

private:
    detail::WayList list_;
};

// The GPU model's policy set for with_policy (sim/policy_dispatch.hpp): the list versions of LRU
// and FIFO (O(1) victims for the nearly fully associative L1), and no OPT, which needs a
// pre-pass over each cache's own lookups.
struct GpuPolicies : StandardPolicies {
    using Lru = ListLruPolicy;
    using Fifo = ListFifoPolicy;
    using Opt = void;
};

}  // namespace cachesim
