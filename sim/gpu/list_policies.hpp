#pragma once
// LRU and FIFO with O(1) victim selection, for caches with hundreds of ways (the GPU L1 is nearly
// fully associative). Same contract and the same choices as sim/policies/lru.hpp and fifo.hpp,
// whose timestamp scans cost O(ways) per miss: a doubly linked list per set, most recent first
// (for sets of at most 16 ways, the same order packed into one word).
#include <cstdint>
#include <vector>

#include "sim/gpu/host_line_allocator.hpp"
#include "sim/policies/policy.hpp"
#include "sim/policy_dispatch.hpp"

namespace cachesim {

namespace detail {

class WayList {
public:
    static constexpr std::uint32_t kNil = ~0u;
    // Sets of up to this many ways keep their order in one word (see Order).
    static constexpr std::uint32_t kPackedWays = 16;

    void reset(const PolicyContext& c) {
        ways_ = c.ways;
        packed_ = c.ways <= kPackedWays;
        links_.clear();
        head_.clear();
        tail_.clear();
        orders_.clear();
        if (packed_) {
            orders_.assign(c.sets, Order{});
            return;
        }
        const std::size_t slots = static_cast<std::size_t>(c.sets) * c.ways;
        links_.assign(slots, Links{});
        head_.assign(c.sets, kNil);
        tail_.assign(c.sets, kNil);
    }
    [[gnu::always_inline]] void push_front(std::uint32_t set, std::uint32_t way) {
        if (packed_) {
            Order& o = orders_[set];
            o.ways = (o.ways << 4) | way;
            ++o.count;
            return;
        }
        const std::uint32_t s = slot(set, way);
        links_[s] = {kNil, head_[set]};
        if (head_[set] != kNil) links_[head_[set]].prev = s;
        else tail_[set] = s;
        head_[set] = s;
    }
    [[gnu::always_inline]] void unlink(std::uint32_t set, std::uint32_t way) {
        if (packed_) {
            Order& o = orders_[set];
            const std::uint32_t at = o.find(way);
            if (at != kNil) o.remove(at);
            return;
        }
        const std::uint32_t s = slot(set, way);
        const std::uint32_t p = links_[s].prev, n = links_[s].next;
        if (p != kNil) links_[p].next = n;
        else if (head_[set] == s) head_[set] = n;
        else return;  // not linked
        if (n != kNil) links_[n].prev = p;
        else tail_[set] = p;
        links_[s] = Links{};
    }
    [[gnu::always_inline]] void move_to_front(std::uint32_t set, std::uint32_t way) {
        if (packed_) {
            Order& o = orders_[set];
            const std::uint32_t at = o.find(way);
            if (at == 0) return;
            if (at != kNil) o.remove(at);
            o.ways = (o.ways << 4) | way;
            ++o.count;
            return;
        }
        if (head_[set] == slot(set, way)) return;
        unlink(set, way);
        push_front(set, way);
    }
    // Hints the host caches at a set's order (a packed set's: one line).
    void prefetch(std::uint32_t set) const {
        if (packed_) __builtin_prefetch(&orders_[set]);
    }
    std::uint32_t last_way(std::uint32_t set) const {
        if (packed_) {
            const Order& o = orders_[set];
            return static_cast<std::uint32_t>(o.ways >> (4 * (o.count - 1))) & 15u;
        }
        return tail_[set] - set * ways_;
    }

private:
    // A set of at most 16 ways: its linked ways most recent first, a 4-bit way number each from
    // the low end of one word (one host cache line per set where the lists take four or more:
    // the L2's 16-way sets, looked up by the million).
    struct Order {
        std::uint64_t ways = 0;
        std::uint32_t count = 0;  // linked ways
        // The position of `way` among the linked ones, or kNil.
        std::uint32_t find(std::uint32_t way) const {
            constexpr std::uint64_t ones = 0x1111111111111111ull, highs = 0x8888888888888888ull;
            const std::uint64_t x = ways ^ (ones * way);  // zero nibbles where `way` is
            const std::uint64_t zero = (x - ones) & ~x & highs;  // the lowest set bit is exact
            if (zero == 0) return kNil;
            const std::uint32_t at = static_cast<std::uint32_t>(__builtin_ctzll(zero)) / 4;
            return at < count ? at : kNil;
        }
        void remove(std::uint32_t at) {
            const std::uint64_t below = at == 0 ? 0 : ways & (~0ull >> (64 - 4 * at));
            const std::uint64_t above = at + 1 >= 16 ? 0 : (ways >> (4 * (at + 1))) << (4 * at);
            ways = below | above;
            --count;
        }
    };

    std::uint32_t slot(std::uint32_t set, std::uint32_t way) const { return set * ways_ + way; }
    std::uint32_t ways_ = 1;
    bool packed_ = false;
    // A way's neighbours in its list (kNil: none, or not linked): both in one host cache line.
    struct Links {
        std::uint32_t prev = kNil, next = kNil;
    };
    HostVector<Links> links_;
    HostVector<std::uint32_t> head_, tail_;  // (a few bytes for a one-set L1: lines of their own)
    HostVector<Order> orders_;
};

}  // namespace detail

// Least recently used (exactly LruPolicy's choices).
class ListLruPolicy {
public:
    static constexpr bool kHitIsIdempotent = true;
    static constexpr bool kSetLocal = true;  // see SectorCache::sets_independent()
    void reset(const PolicyContext& c) { list_.reset(c); }
    [[gnu::always_inline]] void on_hit(std::uint32_t set, std::uint32_t way, std::uint64_t) {
        list_.move_to_front(set, way);
    }
    void on_fill(std::uint32_t set, std::uint32_t way, std::uint64_t) { list_.push_front(set, way); }
    void on_invalidate(std::uint32_t set, std::uint32_t way) { list_.unlink(set, way); }
    Victim victim(std::uint32_t set, std::uint64_t) const { return {list_.last_way(set), 1}; }
    void prefetch(std::uint32_t set) const { list_.prefetch(set); }

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
    void prefetch(std::uint32_t set) const { list_.prefetch(set); }

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
