#pragma once
// One cache level with a compile-time replacement policy. Tags are stored flat, indexed
// set * ways + way (as in ChampSim); an empty way holds kEmptyTag. Lines may be sectored:
// each way keeps a valid and a dirty bit per sector.
#include <array>
#include <cstdint>
#include <vector>

#include "sim/geometry.hpp"
#include "sim/policies/policy.hpp"

namespace cachesim {

inline constexpr std::uint64_t kEmptyTag = ~0ull;

struct LookupOutcome {
    bool hit = false;        // the sector was present
    bool line_present = false;  // the line was present (a sector miss when !hit)
    std::uint32_t evicted_count = 0;
    std::array<std::uint64_t, 4> evicted_lines{};  // random4 empties up to 4 ways at once
    std::array<std::uint64_t, 4> evicted_dirty{};  // dirty-sector mask of each evicted line
    std::uint32_t written_back_sectors = 0;     // dirty sectors of evicted lines
};

template <class Policy>
class Cache {
public:
    Cache() = default;
    Cache(const CacheGeometry& g, std::uint64_t seed,
          const std::vector<std::uint64_t>* next_use = nullptr)
        : geometry_(g), indexer_(g.sets) {
        tags_.assign(g.lines, kEmptyTag);
        valid_sectors_.assign(g.lines, 0);
        dirty_sectors_.assign(g.lines, 0);
        filled_ways_.assign(g.sets, 0);
        policy_.reset(PolicyContext{g.sets, g.ways, seed, next_use});
    }

    const CacheGeometry& geometry() const { return geometry_; }
    std::uint64_t lookups() const { return now_; }

    // Looks up one sector of a line. On a miss with `allocate`, the line (or just the sector,
    // when the line is present) is brought in, evicting per the policy if the set is full.
    LookupOutcome access(std::uint64_t line, std::uint32_t sector, bool is_write, bool allocate) {
        LookupOutcome out;
        const std::uint64_t now = now_++;
        const std::uint32_t set = indexer_(line);
        const std::size_t base = static_cast<std::size_t>(set) * geometry_.ways;
        const std::uint64_t sector_bit = 1ull << sector;
        for (std::uint32_t way = 0; way < geometry_.ways; ++way) {
            if (tags_[base + way] != line) continue;
            out.line_present = true;
            out.hit = (valid_sectors_[base + way] & sector_bit) != 0;
            if (out.hit || allocate) {
                valid_sectors_[base + way] |= sector_bit;
                if (is_write && allocate) dirty_sectors_[base + way] |= sector_bit;
                policy_.on_hit(set, way, now);
            }
            return out;
        }
        if (!allocate) return out;
        std::uint32_t way = 0;
        if (filled_ways_[set] < geometry_.ways) {
            while (tags_[base + way] != kEmptyTag) ++way;  // fill empty ways before evicting
        } else {
            const Victim victim = policy_.victim(set, now);
            for (std::uint32_t w = victim.first_way; w < victim.first_way + victim.count; ++w)
                evict(set, w, out);
            way = victim.first_way;
        }
        tags_[base + way] = line;
        valid_sectors_[base + way] = sector_bit;
        dirty_sectors_[base + way] = is_write ? sector_bit : 0;
        ++filled_ways_[set];
        policy_.on_fill(set, way, now);
        return out;
    }

    // True when the sector is resident (no statistics or replacement state change).
    bool contains(std::uint64_t line, std::uint32_t sector = 0) const {
        const std::size_t base = static_cast<std::size_t>(indexer_(line)) * geometry_.ways;
        for (std::uint32_t way = 0; way < geometry_.ways; ++way)
            if (tags_[base + way] == line) return (valid_sectors_[base + way] >> sector) & 1u;
        return false;
    }

    // Calls f(line, valid_sector_mask) for every resident line.
    template <class F>
    void for_each_line(F&& f) const {
        for (std::size_t i = 0; i < tags_.size(); ++i)
            if (tags_[i] != kEmptyTag) f(tags_[i], valid_sectors_[i]);
    }

private:
    void evict(std::uint32_t set, std::uint32_t way, LookupOutcome& out) {
        const std::size_t slot = static_cast<std::size_t>(set) * geometry_.ways + way;
        if (tags_[slot] == kEmptyTag) return;
        out.evicted_lines[out.evicted_count] = tags_[slot];
        out.evicted_dirty[out.evicted_count++] = dirty_sectors_[slot];
        out.written_back_sectors += static_cast<std::uint32_t>(__builtin_popcountll(dirty_sectors_[slot]));
        tags_[slot] = kEmptyTag;
        valid_sectors_[slot] = 0;
        dirty_sectors_[slot] = 0;
        --filled_ways_[set];
        policy_.on_invalidate(set, way);
    }

    CacheGeometry geometry_{};
    SetIndexer indexer_{1};
    Policy policy_{};
    std::uint64_t now_ = 0;
    std::vector<std::uint64_t> tags_;
    std::vector<std::uint64_t> valid_sectors_;
    std::vector<std::uint64_t> dirty_sectors_;
    std::vector<std::uint32_t> filled_ways_;
};

}  // namespace cachesim
