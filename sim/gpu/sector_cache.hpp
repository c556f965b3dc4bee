#pragma once
// A sectored cache for the GPU model: lines allocated whole, sectors valid (and dirty) one by one,
// looked up a line at a time with a sector mask (a coalesced request touches several sectors of a
// line at once). Sets with many ways (the GPU L1) find their line through a hash index instead of
// scanning the ways; empty ways are found through a bitmap. The replacement policy is a template
// parameter: no virtual call per lookup.
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "sim/cache.hpp"
#include "sim/empty_ways.hpp"
#include "sim/gpu/host_line_allocator.hpp"
#include "sim/gpu/set_index.hpp"
#include "sim/slot_index.hpp"
#include "sim/geometry.hpp"
#include "sim/policies/policy.hpp"

namespace cachesim {

// Line -> set (SetIndex): line mod sets; a hash of the line mod sets, as GPU L2s spread addresses
// over slices and sets so that power-of-two strides do not crowd a few sets; or the line's bit
// fields folded, which spreads power-of-two strides evenly and scatters the others.
class SetMapping {
public:
    SetMapping() = default;
    SetMapping(std::uint32_t sets, SetIndex index)
        : indexer_(sets), index_(sets > 1 ? index : SetIndex::mod),
          fold_bits_(sets > 1 ? 31u - static_cast<std::uint32_t>(__builtin_clz(sets)) : 1u) {}
    std::uint32_t operator()(std::uint64_t line) const {
        switch (index_) {
            case SetIndex::mod: return indexer_(line);
            case SetIndex::hash: {
                std::uint64_t h = line * 0x9e3779b97f4a7c15ull;
                h ^= h >> 29;
                return indexer_(h);
            }
            case SetIndex::fold: return indexer_(line ^ (line >> fold_bits_) ^ (line >> (2 * fold_bits_)));
        }
        return indexer_(line);
    }

private:
    SetIndexer indexer_{1};
    SetIndex index_ = SetIndex::mod;
    std::uint32_t fold_bits_ = 1;  // floor(log2(sets)): the width of each folded field
};

struct SectorEviction {
    std::uint32_t count = 0;
    // (the first `count` are set: left unset, as every lookup makes one)
    std::array<std::uint64_t, 4> lines;  // random4 empties up to 4 ways at once
    std::array<std::uint64_t, 4> dirty;  // dirty-sector mask of each evicted line
};

template <class Policy>
class SectorCache {
public:
    static constexpr std::uint32_t kNone = ~0u;
    static_assert(EmptyWays::kNone == kNone);

    SectorCache() = default;
    SectorCache(const CacheGeometry& g, std::uint64_t seed, SetIndex index = SetIndex::mod) { reset(g, seed, index); }

    // The host memory reset(g) allocates, at most: the arrays below, the line index of a cache
    // with many ways, and the replacement state of any GPU policy (list_policies.hpp: a link of 8
    // bytes per line, an order and list ends per set; PLRU, FIFO and random keep less).
    static std::uint64_t footprint_bytes(const CacheGeometry& g) {
        std::uint64_t bytes = 3 * host_block_bytes(g.lines * sizeof(std::uint64_t)) +
                              EmptyWays::footprint_bytes(g.sets, g.ways);
        if (g.ways > kIndexAboveWays) bytes += host_block_bytes(SlotIndex::capacity_for(g.lines) * SlotIndex::kEntryBytes);
        return bytes + host_block_bytes(g.lines * 8) + 3 * host_block_bytes(g.sets * 16);
    }

    // index: how a line picks its set (set_index.hpp); GPU L2s hash, so that power-of-two strides
    // do not crowd a few sets.
    void reset(const CacheGeometry& g, std::uint64_t seed, SetIndex index = SetIndex::mod) {
        g_ = g;
        set_of_ = SetMapping(g.sets, index);
        tags_.assign(g.lines, kEmptyTag);
        valid_.assign(g.lines, 0);
        dirty_.assign(g.lines, 0);
        empty_ways_.reset(g.sets, g.ways);
        indexed_ = g.ways > kIndexAboveWays;
        if (indexed_) index_.reset(g.lines);
        for (Recent& r : recent_) r = Recent{};
        policy_.reset(PolicyContext{g.sets, g.ways, seed, nullptr});
        now_ = 0;
    }

    const CacheGeometry& geometry() const { return g_; }

    // Whether lookups in disjoint sets touch disjoint state, so that threads may each own a group
    // of sets: the policy keeps its state per set and ignores `now` (Policy::kSetLocal; random
    // policies share one generator), and no line index spans the sets.
    static constexpr bool kPolicySetLocal = requires { requires Policy::kSetLocal; };
    bool sets_independent() const { return kPolicySetLocal && !indexed_; }

    // The slot holding `line`, or kNone. No state changes (but for the memo of recent lines).
    std::uint32_t find(std::uint64_t line) const {
        if (indexed_) return find_indexed(line);
        return find(line, set_of(line));
    }
    // The same, for a line whose set (set_of(line)) the caller has worked out.
    std::uint32_t find(std::uint64_t line, std::uint32_t set) const {
        if (indexed_) return find_indexed(line);
        const std::uint32_t base = set * g_.ways;
        const std::uint64_t* tags = &tags_[base];
        for (std::uint32_t w = 0; w < g_.ways; ++w)
            if (tags[w] == line) return base + w;
        return kNone;
    }
    // Hints the host caches at where find(line) starts (an indexed cache's index entry).
    void prefetch_line(std::uint64_t line) const {
        if (indexed_ && line != recent_[0].line && line != recent_[1].line) index_.prefetch(line);
    }
    // Hints the host caches at what a lookup in `set` reads first: its tags, valid masks and
    // replacement order (not for an indexed cache, whose lookups start at the index).
    void prefetch_set(std::uint32_t set) const {
        if (indexed_) return;
        const std::size_t base = static_cast<std::size_t>(set) * g_.ways;
        const std::size_t bytes = static_cast<std::size_t>(g_.ways) * sizeof(std::uint64_t);
        for (std::size_t at = 0; at < bytes; at += 64) {
            __builtin_prefetch(reinterpret_cast<const char*>(&tags_[base]) + at);
            __builtin_prefetch(reinterpret_cast<const char*>(&valid_[base]) + at);
        }
        if constexpr (requires { policy_.prefetch(set); }) policy_.prefetch(set);
    }
    std::uint64_t valid(std::uint32_t slot) const { return valid_[slot]; }
    std::uint64_t dirty(std::uint32_t slot) const { return dirty_[slot]; }

    // A lookup found the line (the policy sees a hit on the line).
    [[gnu::always_inline]] void touch(std::uint32_t slot) {
        const std::uint32_t set = g_.sets == 1 ? 0 : slot / g_.ways;
        policy_.on_hit(set, slot - set * g_.ways, tick());
    }
    // Makes sectors valid (and some dirty) in a resident line.
    void add_sectors(std::uint32_t slot, std::uint64_t sectors, std::uint64_t dirty_sectors) {
        valid_[slot] |= sectors;
        dirty_[slot] |= dirty_sectors;
    }
    // Allocates an absent line with the given valid and dirty sectors, filling an empty way of
    // its set or evicting per the policy. Returns the slot; evicted lines are reported in `out`.
    std::uint32_t insert(std::uint64_t line, std::uint64_t sectors, std::uint64_t dirty_sectors,
                         SectorEviction& out) {
        return insert(line, set_of(line), sectors, dirty_sectors, out);
    }
    // The same, for a line whose set (set_of(line)) the caller has worked out.
    std::uint32_t insert(std::uint64_t line, std::uint32_t set, std::uint64_t sectors, std::uint64_t dirty_sectors,
                         SectorEviction& out) {
        out.count = 0;
        std::uint32_t way = empty_ways_.first(set);
        if (way == kNone) {
            const Victim v = policy_.victim(set, now_);
            for (std::uint32_t w = v.first_way; w < v.first_way + v.count; ++w) evict(set, w, out);
            way = v.first_way;
        }
        const std::uint32_t slot = set * g_.ways + way;
        tags_[slot] = line;
        valid_[slot] = sectors;
        dirty_[slot] = dirty_sectors;
        empty_ways_.fill(set, way);
        if (indexed_) {
            index_.insert(line, slot);
            remember(line, slot);
        }
        policy_.on_fill(set, way, tick());
        return slot;
    }

    // Calls f(line, valid_mask) for every resident line.
    template <class F>
    void for_each_line(F&& f) const {
        for (std::size_t i = 0; i < tags_.size(); ++i)
            if (tags_[i] != kEmptyTag) f(tags_[i], valid_[i]);
    }

    std::uint32_t set_of(std::uint64_t line) const { return set_of_(line); }
    const SetMapping& set_mapping() const { return set_of_; }

private:
    // The policy's clock; not kept for set-local policies, which ignore it (and whose sets may be
    // used from several threads).
    std::uint64_t tick() {
        if constexpr (kPolicySetLocal) return 0;
        else return now_++;
    }
    void evict(std::uint32_t set, std::uint32_t way, SectorEviction& out) {
        const std::uint32_t slot = set * g_.ways + way;
        if (tags_[slot] == kEmptyTag) return;
        out.lines[out.count] = tags_[slot];
        out.dirty[out.count++] = dirty_[slot];
        if (indexed_) {
            index_.erase(tags_[slot]);
            for (Recent& r : recent_)
                if (r.slot == slot) r = Recent{};
        }
        tags_[slot] = kEmptyTag;
        valid_[slot] = 0;
        dirty_[slot] = 0;
        empty_ways_.empty(set, way);
        policy_.on_invalidate(set, way);
    }

    // An indexed cache's lookups go through the two lines found or filled last first: a warp's
    // requests come in runs over the same line or two (a stencil's row, the matmul's shared
    // row of A between its rows of B), which then need no probe of the index, whose entries
    // lie at random in a table larger than the host's L1. Eviction forgets a line.
    struct Recent {
        std::uint64_t line = kEmptyTag;
        std::uint32_t slot = kNone;
    };
    std::uint32_t find_indexed(std::uint64_t line) const {
        if (line == recent_[0].line) return recent_[0].slot;
        if (line == recent_[1].line) {
            std::swap(recent_[0], recent_[1]);
            return recent_[0].slot;
        }
        const std::uint32_t slot = index_.find(line);
        if (slot != kNone) remember(line, slot);
        return slot;
    }
    void remember(std::uint64_t line, std::uint32_t slot) const {
        recent_[1] = recent_[0];
        recent_[0] = {line, slot};
    }

    CacheGeometry g_{};
    SetMapping set_of_;
    Policy policy_{};
    std::uint64_t now_ = 0;
    HostVector<std::uint64_t> tags_;  // a set's ways scanned together
    HostVector<std::uint64_t> valid_, dirty_;
    EmptyWays empty_ways_;  // (a full set, the rule once warm, costs one count: the L1's bitmap is 31 words)
    bool indexed_ = false;
    SlotIndex index_;
    // (written at every lookup: a host cache line of its own, apart from the neighbouring SMs'
    // caches, which other threads use)
    struct alignas(64) RecentLines {
        Recent line[2];
        Recent& operator[](std::size_t i) { return line[i]; }
        const Recent& operator[](std::size_t i) const { return line[i]; }
        Recent* begin() { return line; }
        Recent* end() { return line + 2; }
    };
    mutable RecentLines recent_;
};

}  // namespace cachesim
