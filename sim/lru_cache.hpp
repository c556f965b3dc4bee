#pragma once
// Cache<LruPolicy>: for true LRU the recency order *is* the replacement state, so each set keeps
// its ways as a ring ordered by recency: head_[set] is the most recent way, the way just before
// it (circularly) the least recent. A miss overwrites that way and moves the head onto it, O(1);
// a hit moves its line to the head, shifting only the lines that were more recent. No stamps and
// no victim search: on random streams about twice as fast as the generic stamp-based cache. Every
// LRU level of the thread model uses it; the generic template remains for the other policies.
//
// Sets of more than kIndexAboveWays ways (cache.hpp; a fully associative cache of thousands of
// lines, the default associativity at any size) would pay a scan of every way on each lookup and
// a shift of every more recent line on each hit. They find their line through a hash index
// instead and keep the recency order as a circular doubly linked list: O(1) a lookup whatever
// the ways.
#include "sim/cache.hpp"
#include "sim/policies/lru.hpp"
#include "sim/set_scan.hpp"

namespace cachesim {

template <>
class Cache<LruPolicy> : public EvictionList {
public:
    Cache() = default;
    Cache(const CacheGeometry& g, std::uint64_t /*seed*/,
          const std::vector<std::uint64_t>* /*next_use*/ = nullptr)
        : geometry_(g), indexer_(g.sets), sectored_(g.sectors_per_line > 1), indexed_(indexed_sets(g)) {
        tags_.assign(g.lines, kEmptyTag);
        bits_.assign(g.lines, 0);
        head_.assign(g.sets, 0);
        if (indexed_) {
            index_.reset(g.lines);
            // Each set's ways in a circle, in way order, so the first misses fill the ways
            // backwards from the last, as the ring does.
            prev_.resize(g.lines);
            next_.resize(g.lines);
            for (std::size_t slot = 0; slot < g.lines; ++slot) {
                const std::uint32_t way = static_cast<std::uint32_t>(slot % g.ways);
                next_[slot] = way + 1 == g.ways ? 0 : way + 1;
                prev_[slot] = way == 0 ? g.ways - 1 : way - 1;
            }
        }
    }

    const CacheGeometry& geometry() const { return geometry_; }
    std::uint64_t lookups() const { return now_; }
    // `n` more read hits on the line just used, for hit-idempotent policies (no state changes).
    void count_repeat_hits(std::uint64_t n) { now_ += n; }

    [[gnu::always_inline]] LookupOutcome access(std::uint64_t line, std::uint32_t sector,
                                                bool is_write, bool allocate) {
        const std::uint32_t sector_bit = 1u << sector;
        // The line just used is its set's most recent: hitting it again changes nothing.
        if (line == last_line_ && (!sectored_ || (bits_[last_slot_] & sector_bit))) {
            ++now_;
            LookupOutcome out;
            out.hit = out.line_present = true;
            if (is_write && allocate) bits_[last_slot_] |= dirty_bit(sector_bit);
            return out;
        }
        return access_set(line, sector_bit, is_write, allocate);
    }

    bool contains(std::uint64_t line, std::uint32_t sector = 0) const {
        if (indexed_) {
            const std::uint32_t slot = index_.find(line);
            return slot != SlotIndex::kAbsent && ((bits_[slot] >> sector) & 1u);
        }
        const std::size_t base = static_cast<std::size_t>(indexer_(line)) * geometry_.ways;
        for (std::uint32_t p = 0; p < geometry_.ways; ++p)
            if (tags_[base + p] == line) return (bits_[base + p] >> sector) & 1u;
        return false;
    }

    template <class F>
    void for_each_line(F&& f) const {
        for (std::size_t i = 0; i < tags_.size(); ++i)
            if (tags_[i] != kEmptyTag) f(tags_[i], bits_[i] & 0xffffffffull);
    }

private:
    // Inline into the level's lookup: out of line, the call and its saved registers cost about a
    // tenth of a random u64 replay, where nearly every access reaches the set in both levels.
    [[gnu::always_inline]] LookupOutcome access_set(std::uint64_t line, std::uint32_t sector_bit,
                                                    bool is_write, bool allocate) {
        if (indexed_) return access_indexed(line, sector_bit, is_write, allocate);
        LookupOutcome out;
        ++now_;
        const std::uint32_t ways = geometry_.ways;
        const std::uint32_t set = indexer_(line);
        const std::size_t base = static_cast<std::size_t>(set) * ways;
        std::uint64_t* tags = &tags_[base];
        std::uint64_t* bits = &bits_[base];
        const std::uint32_t head = head_[set];
        const std::uint32_t p = find_tag(tags, ways, line);  // empty ways never match
        if (p != ways) {
            out.line_present = true;
            out.hit = !sectored_ || (bits[p] & sector_bit) != 0;
            if (out.hit || allocate) {
                const std::uint64_t b = bits[p] | sector_bit | ((is_write && allocate) ? dirty_bit(sector_bit) : 0);
                // The lines more recent than this one each step one place towards the tail.
                for (std::uint32_t j = p; j != head;) {
                    const std::uint32_t previous = j == 0 ? ways - 1 : j - 1;
                    tags[j] = tags[previous];
                    bits[j] = bits[previous];
                    j = previous;
                }
                tags[head] = line;
                bits[head] = b;
                remember(line, base + head);
            }
            return out;
        }
        if (!allocate) return out;
        const std::uint32_t slot = head == 0 ? ways - 1 : head - 1;  // least recent (or empty)
        if (tags[slot] != kEmptyTag) {
            if (tags[slot] == last_line_) last_line_ = kEmptyTag;
            record_eviction(out, tags[slot], static_cast<std::uint32_t>(bits[slot] >> 32));
        }
        tags[slot] = line;
        bits[slot] = sector_bit | (is_write ? dirty_bit(sector_bit) : 0);
        head_[set] = slot;
        remember(line, base + slot);
        return out;
    }

    // The same lookup for a set of many ways: the line's slot from the index, the least recent way
    // just before the head in the set's circular list.
    // (Out of line: the ring's lookup above is inlined into the level's and stays as small.)
    [[gnu::noinline]] LookupOutcome access_indexed(std::uint64_t line, std::uint32_t sector_bit, bool is_write,
                                                   bool allocate) {
        LookupOutcome out;
        ++now_;
        const std::uint32_t set = indexer_(line);
        const std::size_t base = static_cast<std::size_t>(set) * geometry_.ways;
        const std::uint32_t found = index_.find(line);
        if (found != SlotIndex::kAbsent) {
            out.line_present = true;
            out.hit = !sectored_ || (bits_[found] & sector_bit) != 0;
            if (out.hit || allocate) {
                bits_[found] |= sector_bit | ((is_write && allocate) ? dirty_bit(sector_bit) : 0);
                make_most_recent(set, base, static_cast<std::uint32_t>(found - base));
                remember(line, found);
            }
            return out;
        }
        if (!allocate) return out;
        const std::uint32_t way = prev_[base + head_[set]];  // least recent (or empty)
        const std::size_t slot = base + way;
        if (tags_[slot] != kEmptyTag) {
            if (tags_[slot] == last_line_) last_line_ = kEmptyTag;
            index_.erase(tags_[slot]);
            record_eviction(out, tags_[slot], static_cast<std::uint32_t>(bits_[slot] >> 32));
        }
        tags_[slot] = line;
        bits_[slot] = sector_bit | (is_write ? dirty_bit(sector_bit) : 0);
        index_.insert(line, static_cast<std::uint32_t>(slot));
        head_[set] = way;  // the least recent sits just before the head: a rotation makes it the most recent
        remember(line, slot);
        return out;
    }

    // Moves `way` of the set to the front of its circular recency list.
    void make_most_recent(std::uint32_t set, std::size_t base, std::uint32_t way) {
        const std::uint32_t head = head_[set];
        if (way == head) return;
        std::uint32_t* prev = &prev_[base];
        std::uint32_t* next = &next_[base];
        if (way != prev[head]) {  // (the least recent needs only the rotation below)
            next[prev[way]] = next[way];
            prev[next[way]] = prev[way];
            const std::uint32_t tail = prev[head];
            prev[way] = tail;
            next[way] = head;
            next[tail] = way;
            prev[head] = way;
        }
        head_[set] = way;
    }

    static std::uint64_t dirty_bit(std::uint32_t sector_bit) {
        return static_cast<std::uint64_t>(sector_bit) << 32;
    }
    void remember(std::uint64_t line, std::size_t slot) {
        last_line_ = line;
        last_slot_ = slot;
    }

    CacheGeometry geometry_{};
    SetIndexer indexer_{1};
    bool sectored_ = false;
    std::uint64_t now_ = 0;
    std::uint64_t last_line_ = kEmptyTag;
    std::size_t last_slot_ = 0;
    std::vector<std::uint64_t> tags_;
    std::vector<std::uint64_t> bits_;  // valid sectors in the low 32 bits, dirty in the high 32
    std::vector<std::uint32_t> head_;  // per set: the most recent way
    // Sets of many ways (indexed_): line -> slot, and per slot the ways before and after it in
    // its set's recency order.
    bool indexed_ = false;
    SlotIndex index_;
    std::vector<std::uint32_t> prev_, next_;
};

}  // namespace cachesim
