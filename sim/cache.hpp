#pragma once
// One cache level with a compile-time replacement policy. Tags are stored flat, indexed
// set * ways + way (as in ChampSim); an empty way holds kEmptyTag. Lines may be sectored:
// each way keeps a valid and a dirty bit per sector. Sets of more than kIndexAboveWays ways (a
// fully associative cache of thousands of lines) find their line through a hash index and their
// first empty way through a bitmap instead of scanning every way on each lookup.
#include <array>
#include <bit>
#include <cstdint>
#include <vector>

#include "sim/empty_ways.hpp"
#include "sim/geometry.hpp"
#include "sim/policies/policy.hpp"
#include "sim/set_scan.hpp"
#include "sim/slot_index.hpp"

namespace cachesim {

inline constexpr std::uint64_t kEmptyTag = SlotIndex::kNoLine;
// Sets of more than this many ways are indexed (above; Cache<LruPolicy> likewise).
inline constexpr std::uint32_t kIndexAboveWays = 32;
inline bool indexed_sets(const CacheGeometry& g) { return g.ways > kIndexAboveWays && g.lines < SlotIndex::kAbsent; }
// Host memory an indexed cache keeps beyond its tags, sector bits and policy state: the index
// (and, for the generic cache, the empty-way bitmap; LRU's links instead, as large or smaller).
inline std::uint64_t index_bytes(const CacheGeometry& g) {
    if (!indexed_sets(g)) return 0;
    return SlotIndex::capacity_for(g.lines) * SlotIndex::kEntryBytes + g.lines * 2 * sizeof(std::uint32_t);
}

// Small enough to come back in a register: the lines a lookup evicted stay in the cache
// (evicted_line(i), evicted_dirty(i)) until its next lookup.
struct LookupOutcome {
    bool hit = false;           // the sector was present
    bool line_present = false;  // the line was present (a sector miss when !hit)
    std::uint8_t evicted_count = 0;  // random4 empties up to 4 ways at once
    std::uint32_t written_back_sectors = 0;  // dirty sectors of evicted lines
};

// The lines the last lookup evicted, with their dirty-sector masks.
class EvictionList {
public:
    std::uint64_t evicted_line(std::uint32_t i) const { return lines_[i]; }
    std::uint32_t evicted_dirty(std::uint32_t i) const { return dirty_[i]; }

protected:
    void record_eviction(LookupOutcome& out, std::uint64_t line, std::uint32_t dirty) {
        lines_[out.evicted_count] = line;
        dirty_[out.evicted_count++] = dirty;
        if (dirty) out.written_back_sectors += static_cast<std::uint32_t>(std::popcount(dirty));
    }

private:
    std::array<std::uint64_t, 4> lines_{};
    std::array<std::uint32_t, 4> dirty_{};
};

template <class Policy>
class Cache : public EvictionList {
public:
    Cache() = default;
    Cache(const CacheGeometry& g, std::uint64_t seed,
          const std::vector<std::uint64_t>* next_use = nullptr)
        : geometry_(g), indexer_(g.sets), sectored_(g.sectors_per_line > 1), indexed_(indexed_sets(g)) {
        tags_.assign(g.lines, kEmptyTag);
        sectors_.assign(g.lines, SectorBits{});
        policy_.reset(PolicyContext{g.sets, g.ways, seed, next_use});
        if (indexed_) {
            index_.reset(g.lines);
            empty_ways_.reset(g.sets, g.ways);
        }
    }

    const CacheGeometry& geometry() const { return geometry_; }
    std::uint64_t lookups() const { return now_; }
    // `n` more read hits on the line just used, for hit-idempotent policies (no state changes).
    void count_repeat_hits(std::uint64_t n) { now_ += n; }

    // Looks up one sector of a line. On a miss with `allocate`, the line (or just the sector,
    // when the line is present) is brought in, evicting per the policy if the set is full.
    [[gnu::always_inline]] LookupOutcome access(std::uint64_t line, std::uint32_t sector,
                                                bool is_write, bool allocate) {
        // Repeated hits on the line just used change no policy state for hit-idempotent
        // policies, so they skip the set scan (sequential streams hit this path most of the time).
        if constexpr (Policy::kHitIsIdempotent) {
            const std::uint32_t sector_bit = 1u << sector;
            if (line == last_line_ && (!sectored_ || (sectors_[last_slot_].valid & sector_bit))) {
                ++now_;
                LookupOutcome out;
                out.hit = out.line_present = true;
                if (is_write && allocate) sectors_[last_slot_].dirty |= sector_bit;
                return out;
            }
        }
        return access_set(line, sector, is_write, allocate);
    }

    LookupOutcome access_set(std::uint64_t line, std::uint32_t sector, bool is_write, bool allocate) {
        return indexed_ ? lookup<true>(line, sector, is_write, allocate) : lookup<false>(line, sector, is_write, allocate);
    }

    // True when the sector is resident (no statistics or replacement state change).
    bool contains(std::uint64_t line, std::uint32_t sector = 0) const {
        if (indexed_) {
            const std::uint32_t slot = index_.find(line);
            return slot != SlotIndex::kAbsent && ((sectors_[slot].valid >> sector) & 1u);
        }
        const std::size_t base = static_cast<std::size_t>(indexer_(line)) * geometry_.ways;
        for (std::uint32_t way = 0; way < geometry_.ways; ++way)
            if (tags_[base + way] == line) return (sectors_[base + way].valid >> sector) & 1u;
        return false;
    }

    // Calls f(line, valid_sector_mask) for every resident line.
    template <class F>
    void for_each_line(F&& f) const {
        for (std::size_t i = 0; i < tags_.size(); ++i)
            if (tags_[i] != kEmptyTag) f(tags_[i], std::uint64_t{sectors_[i].valid});
    }

private:
    // A lookup that reaches the set; Indexed: the set's lines are found through the index (one
    // instantiation each, so the scanning one carries nothing of the index).
    template <bool Indexed>
    [[gnu::noinline]] LookupOutcome lookup(std::uint64_t line, std::uint32_t sector, bool is_write, bool allocate) {
        LookupOutcome out;
        const std::uint64_t now = now_++;
        const std::uint32_t sector_bit = 1u << sector;
        const std::uint32_t set = indexer_(line);
        const std::size_t base = static_cast<std::size_t>(set) * geometry_.ways;
        WayMatch match;
        if constexpr (Indexed) match = find_way_indexed(set, base, line, allocate);
        else match = find_way(&tags_[base], line);
        if (match.way != kNoWay) {
            const std::uint32_t way = match.way;
            SectorBits& bits = sectors_[base + way];
            out.line_present = true;
            out.hit = !sectored_ || (bits.valid & sector_bit) != 0;
            if (out.hit || allocate) {
                bits.valid |= sector_bit;
                if (is_write && allocate) bits.dirty |= sector_bit;
                policy_.on_hit(set, way, now);
                remember(line, base + way);
            }
            return out;
        }
        const std::uint32_t empty_way = match.empty_way;
        if (!allocate) return out;
        std::uint32_t way = empty_way;  // fill empty ways before asking the policy
        if (way == kNoWay) {
            const Victim victim = policy_.victim(set, now);
            for (std::uint32_t w = victim.first_way; w < victim.first_way + victim.count; ++w)
                evict<Indexed>(set, w, out);
            way = victim.first_way;
        }
        tags_[base + way] = line;
        sectors_[base + way] = SectorBits{sector_bit, is_write ? sector_bit : 0u};
        if constexpr (Indexed) {
            index_.insert(line, static_cast<std::uint32_t>(base + way));
            empty_ways_.fill(set, way);
        }
        policy_.on_fill(set, way, now);
        remember(line, base + way);
        return out;
    }

    static constexpr std::uint32_t kNoWay = ~0u;
    static_assert(EmptyWays::kNone == kNoWay);
    struct WayMatch {
        std::uint32_t way = kNoWay;        // the way holding the line
        std::uint32_t empty_way = kNoWay;  // the first empty way
    };

    WayMatch find_way(const std::uint64_t* tags, std::uint64_t line) const {
        WayMatch m;
        for (std::uint32_t base = 0; base < geometry_.ways; base += 64) {
            const std::uint32_t n = geometry_.ways - base < 64 ? geometry_.ways - base : 64;
            const TagMasks masks = scan_tags(tags + base, n, line, kEmptyTag);
            if (masks.equal) {
                m.way = base + static_cast<std::uint32_t>(__builtin_ctzll(masks.equal));
                return m;
            }
            if (masks.empty && m.empty_way == kNoWay)
                m.empty_way = base + static_cast<std::uint32_t>(__builtin_ctzll(masks.empty));
        }
        return m;
    }

    // The same for an indexed set; the first empty way only where a miss will fill one.
    WayMatch find_way_indexed(std::uint32_t set, std::size_t base, std::uint64_t line, bool allocate) const {
        WayMatch m;
        const std::uint32_t slot = index_.find(line);
        if (slot != SlotIndex::kAbsent) m.way = static_cast<std::uint32_t>(slot - base);
        else if (allocate) m.empty_way = empty_ways_.first(set);  // (EmptyWays::kNone is kNoWay)
        return m;
    }

    struct SectorBits {
        std::uint32_t valid = 0;
        std::uint32_t dirty = 0;
    };

    void remember(std::uint64_t line, std::size_t slot) {
        last_line_ = line;
        last_slot_ = slot;
    }

    template <bool Indexed>
    void evict(std::uint32_t set, std::uint32_t way, LookupOutcome& out) {
        const std::size_t slot = static_cast<std::size_t>(set) * geometry_.ways + way;
        if (tags_[slot] == kEmptyTag) return;
        record_eviction(out, tags_[slot], sectors_[slot].dirty);
        if (tags_[slot] == last_line_) last_line_ = kEmptyTag;
        if constexpr (Indexed) {
            index_.erase(tags_[slot]);
            empty_ways_.empty(set, way);
        }
        tags_[slot] = kEmptyTag;
        sectors_[slot] = SectorBits{};
        policy_.on_invalidate(set, way);
    }

    CacheGeometry geometry_{};
    SetIndexer indexer_{1};
    bool sectored_ = false;
    Policy policy_{};
    std::uint64_t now_ = 0;
    std::uint64_t last_line_ = kEmptyTag;
    std::size_t last_slot_ = 0;
    std::vector<std::uint64_t> tags_;
    std::vector<SectorBits> sectors_;
    // Sets of many ways (indexed_): line -> slot, and the empty ways.
    bool indexed_ = false;
    SlotIndex index_;
    EmptyWays empty_ways_;
};

}  // namespace cachesim

// LRU's own layout. Included here, after the primary template, so that no file can name
// Cache<LruPolicy> without seeing the specialisation.
#include "sim/lru_cache.hpp"
