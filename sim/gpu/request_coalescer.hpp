#pragma once
// The L2 request coalescer of the GPU model: an L1's read request to the L2 (the sectors of one
// line that missed in that L1) that is identical to another SM's request still on its way is
// merged with it: it makes no L2 lookup of its own and is answered by the same reply. Measured on
// the H200 with l1probe (docs/fidelity.md, "L2 request coalescing on the H200"): requests from different SMs are looked
// up once when they name the same line and the same sectors (a 32 B request does not join a
// 128 B one, nor two overlapping 64 B ones) and arrive within a short window of the first (longer
// while the first waits for DRAM), and one lookup serves at most a few SMs.
//
// Only SMs of one group can share a lookup (the model's scope: the two SMs of a TPC, the blocks of
// a dispatch pair, neighbouring blocks, or all). Time is the model's lockstep round, or
// nanoseconds when it replays a measured warp order. Entries live in a small set-associative table of 4 ways; an
// entry whose window has passed is dead and is reused. When all four ways of a set are live the
// oldest is dropped, so a merge can be missed but never invented.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <vector>

#include "sim/gpu/host_line_allocator.hpp"

namespace cachesim {

class RequestCoalescer {
public:
    // Disabled when both windows are 0 or a lookup serves one SM only. Sized for `sms` SMs each
    // opening about one entry a round. keys: how many keys merge() and open() are given (see
    // there); 1 when every request passes key 0.
    void reset(std::uint32_t hit_window, std::uint32_t miss_window, std::uint32_t max_requesters,
               std::uint32_t sms, std::uint32_t keys = 1) {
        hit_window_ = hit_window;
        miss_window_ = miss_window;
        max_requesters_ = max_requesters;
        enabled_ = enabled_for(hit_window, miss_window, max_requesters);
        sets_.clear();
        requesters_.clear();
        if (!enabled_) return;
        keys = std::max<std::uint32_t>(1, keys);
        const std::uint64_t per_key = sets_per_key(hit_window, miss_window, sms, keys);
        sets_.assign(per_key * keys, Set{});
        requesters_.assign(sets_.size() * kWays, 0);
        mask_ = per_key - 1;
    }
    // The host memory reset() with these arguments allocates.
    static std::uint64_t footprint_bytes(std::uint32_t hit_window, std::uint32_t miss_window,
                                         std::uint32_t max_requesters, std::uint32_t sms, std::uint32_t keys = 1) {
        if (!enabled_for(hit_window, miss_window, max_requesters)) return 0;
        keys = std::max<std::uint32_t>(1, keys);
        const std::uint64_t sets = sets_per_key(hit_window, miss_window, sms, keys) * keys;
        return host_block_bytes(sets * sizeof(Set)) + host_block_bytes(sets * kWays);
    }

    bool enabled() const { return enabled_; }
    // The host memory its table takes.
    std::uint64_t bytes() const { return sets_.size() * sizeof(Set) + requesters_.size(); }
    // Groups g and g+1 share lookups too (the caller passes launch block indices as groups).
    void set_neighbours(bool on) { neighbours_ = on; }

    // A request for `sectors` of `line` from SMs of coalescing group `group` reaching the L2 in
    // `round`: true when it joins an open entry of the group for the same line and sectors.
    // key (below reset's keys): a function of the line that picks the table's sets: lines of
    // different keys never share a set, so requests of disjoint keys may be played from
    // different threads (the L2 passes the line's L2 set).
    bool merge(std::uint64_t line, std::uint64_t sectors, std::uint64_t round, std::uint64_t group = 0,
               std::uint32_t key = 0) {
        const std::size_t at = index(line, key);
        const Set& set = sets_[at];
        for (std::uint32_t w = 0; w < kWays; ++w)
            if (set.line[w] == line && set.sectors[w] == sectors && round < set.closes[w] &&
                (neighbours_ ? (set.group[w] == group || set.group[w] + 1 == group || group + 1 == set.group[w])
                             : set.group[w] == group)) {
                std::uint8_t& requesters = requesters_[at * kWays + w];
                if (requesters >= max_requesters_) return false;
                ++requesters;
                return true;
            }
        return false;
    }

    // Hints the host caches at the set merge() will read for `line` and `key`.
    void prefetch(std::uint64_t line, std::uint32_t key = 0) const {
        if (!enabled_) return;
        const Set* set = &sets_[index(line, key)];
        __builtin_prefetch(set);
        __builtin_prefetch(reinterpret_cast<const char*>(set) + 64);
    }

    // An unmerged request was looked up in `round`; l2_hit: all its sectors hit. Identical
    // requests within the window of that outcome join it.
    void open(std::uint64_t line, std::uint64_t sectors, std::uint64_t round, bool l2_hit, std::uint64_t group = 0,
              std::uint32_t key = 0) {
        const std::uint64_t window = l2_hit ? hit_window_ : miss_window_;
        if (window == 0) return;
        const std::size_t at = index(line, key);
        Set& set = sets_[at];
        std::uint32_t slot = 0;
        for (std::uint32_t w = 0; w < kWays; ++w) {
            // Its own entry, or a dead (or empty) one.
            if ((set.line[w] == line && set.sectors[w] == sectors && set.group[w] == group) || round >= set.closes[w]) {
                slot = w;
                break;
            }
            if (set.closes[w] < set.closes[slot]) slot = w;
        }
        set.line[slot] = line;
        set.sectors[slot] = sectors;
        set.closes[slot] = round + window;
        set.group[slot] = group;
        requesters_[at * kWays + slot] = 1;
    }

private:
    static constexpr std::uint32_t kWays = 4;
    // A set's ways field by field, in two host cache lines (one lookup touches both at most; a
    // way per 40-byte entry spread a set over three or four). Per way: the line and the sectors
    // its lookup was for, the first round that can no longer join (0: empty), and the SMs it can
    // serve (GpuConfig::l2_coalesce_scope). How many SMs it serves so far is kept apart
    // (requesters_), read only on a match.
    struct alignas(128) Set {
        std::array<std::uint64_t, kWays> line{};
        std::array<std::uint64_t, kWays> sectors{};
        std::array<std::uint64_t, kWays> closes{};
        std::array<std::uint64_t, kWays> group{};
    };
    static bool enabled_for(std::uint32_t hit_window, std::uint32_t miss_window, std::uint32_t max_requesters) {
        return (hit_window != 0 || miss_window != 0) && max_requesters > 1;
    }
    // Sets per key for `sms` SMs each opening about one entry a round, over `keys` keys.
    static std::uint64_t sets_per_key(std::uint32_t hit_window, std::uint32_t miss_window, std::uint32_t sms,
                                      std::uint32_t keys) {
        const std::uint64_t live = static_cast<std::uint64_t>(sms) * std::max(hit_window, miss_window);
        const std::uint64_t wanted = std::max<std::uint64_t>(1024, live);
        return std::bit_ceil((wanted + keys - 1) / keys);
    }
    // The key's own sets (consecutive, so that threads with different keys write apart), and a
    // hash of the line among them.
    std::size_t index(std::uint64_t line, std::uint32_t key) const {
        const std::size_t within = static_cast<std::size_t>((line * 0x9e3779b97f4a7c15ull) >> 40) & mask_;
        return static_cast<std::size_t>(key) * (mask_ + 1) + within;
    }

    HostVector<Set> sets_;
    HostVector<std::uint8_t> requesters_;  // per set and way (at most 255: GpuConfig's bound)
    std::uint64_t mask_ = 0;  // sets per key - 1
    std::uint32_t hit_window_ = 0, miss_window_ = 0, max_requesters_ = 4;
    bool enabled_ = false;
    bool neighbours_ = false;
};

}  // namespace cachesim
