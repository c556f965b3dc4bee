#pragma once
// A level of the thread-model hierarchy: a cache plus its counters, forwarding misses, write-backs
// and forwarded stores to the level below (another LevelSim or MemorySink). Templated on policy
// and the level below so the whole access path inlines: no virtual call per access.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <utility>
#include <vector>

#include "sim/cache.hpp"
#include "sim/geometry.hpp"
#include "sim/level_stats.hpp"
#include "sim/observer.hpp"
#include "sim/reuse_distance.hpp"

namespace cachesim {

struct MemorySink {
    std::uint64_t bytes_read = 0, bytes_written = 0;
    void read(std::uint64_t, std::uint32_t size, std::uint16_t) { bytes_read += size; }
    void write(std::uint64_t, std::uint32_t size, std::uint16_t) { bytes_written += size; }
    static constexpr bool kIsMemory = true;
};

struct LevelSetup {
    CacheGeometry geometry;
    WritePolicy write_policy = WritePolicy::write_back_allocate;
    std::uint64_t seed = 1;
    const std::vector<std::uint64_t>* next_use = nullptr;  // OPT
    std::vector<std::uint64_t>* record_lookups = nullptr;  // OPT pre-pass
    bool analysis = true;
    int index = 0;
    SimObserver* observer = nullptr;
    std::vector<ArrayInfo> arrays;  // to attribute write-backs to their array
};

template <class Policy, class Below>
class LevelSim {
public:
    static constexpr bool kIsMemory = false;

    LevelSim(const LevelSetup& s, Below& below, LevelStats& stats)
        : g_(s.geometry),
          cache_(s.geometry, s.seed, s.next_use),
          below_(below),
          stats_(stats),
          record_(s.record_lookups),
          observer_(s.observer),
          index_(s.index),
          analysis_(s.analysis),
          instrumented_(s.analysis || s.observer || s.record_lookups),
          write_allocate_(s.write_policy == WritePolicy::write_back_allocate) {
        stats_.per_array.assign(std::max<std::size_t>(1, s.arrays.size()), ArrayCounters{});
        for (const ArrayInfo& a : s.arrays) array_ranges_.push_back({a.base, a.base + a.bytes()});
        stats_.classified = analysis_;
    }

    void read(std::uint64_t address, std::uint32_t size, std::uint16_t array) {
        const std::uint64_t first = address >> g_.sector_shift;
        const std::uint64_t last = (address + (size ? size - 1 : 0)) >> g_.sector_shift;
        for (std::uint64_t sector_id = first; sector_id <= last; ++sector_id) {
            if (instrumented_) [[unlikely]] lookup_instrumented(sector_id, false, array, true);
            else lookup<false>(sector_id, false, array, true);
        }
    }

    void write(std::uint64_t address, std::uint32_t size, std::uint16_t array) {
        if (!write_allocate_) {
            ++stats_.writes_forwarded;
            stats_.bytes_to_below += size;
            below_.write(address, size, array);
            return;
        }
        const std::uint64_t end = address + size;
        const std::uint64_t first = address >> g_.sector_shift;
        const std::uint64_t last = (address + (size ? size - 1 : 0)) >> g_.sector_shift;
        for (std::uint64_t sector_id = first; sector_id <= last; ++sector_id) {
            const std::uint64_t lo = sector_id << g_.sector_shift;
            const bool whole_sector = address <= lo && end >= lo + g_.sector_bytes;
            if (instrumented_) [[unlikely]] lookup_instrumented(sector_id, true, array, !whole_sector);
            else lookup<false>(sector_id, true, array, !whole_sector);
        }
    }

    const Cache<Policy>& cache() const { return cache_; }

private:
    // Out of line, so the plain path stays small enough to inline well.
    [[gnu::noinline]] void lookup_instrumented(std::uint64_t sector_id, bool is_write, std::uint16_t array,
                                               bool fetch_on_miss) {
        lookup<true>(sector_id, is_write, array, fetch_on_miss);
    }

    // kInstrumented: an observer, the OPT pre-pass recorder or the analysis is attached. The plain
    // instantiation carries none of their checks.
    template <bool kInstrumented>
    [[gnu::always_inline]] void lookup(std::uint64_t sector_id, bool is_write, std::uint16_t array,
                                       bool fetch_on_miss) {
        const std::uint32_t shift = g_.line_shift - g_.sector_shift;
        const std::uint64_t line = sector_id >> shift;
        const std::uint32_t sector = static_cast<std::uint32_t>(sector_id & ((1ull << shift) - 1));
        if (kInstrumented && record_) record_->push_back(line);
        const LookupOutcome out = cache_.access(line, sector, is_write, true);
        count(out.hit, is_write, array);
        if (kInstrumented && observer_) observer_->on_lookup(index_, line, out.hit, is_write, array);
        if (kInstrumented && analysis_) classify(sector_id, out.hit);
        if (out.hit) return;
        // The fetch goes below before the victim's write-back, as in pycachesim and in hardware
        // (the demand miss is on the critical path; the write-back waits in a buffer).
        if (fetch_on_miss) {
            stats_.bytes_from_below += g_.sector_bytes;
            below_.read(sector_id << g_.sector_shift, g_.sector_bytes, array);
        }
        for (std::uint32_t i = 0; i < out.evicted_count; ++i) {
            ++stats_.evictions;
            if (kInstrumented && observer_) observer_->on_evict(index_, cache_.evicted_line(i));
            write_back(cache_.evicted_line(i), cache_.evicted_dirty(i));
        }
        // A fill is a line allocation: a sector added to a present line is not a new resident line.
        if (kInstrumented && observer_ && !out.line_present) observer_->on_fill(index_, line);
    }

    void count(bool hit, bool is_write, std::uint16_t array) {
        ArrayCounters& a = stats_.per_array[array < stats_.per_array.size() ? array : 0];
        if (is_write) {
            ++stats_.writes;
            ++a.writes;
            if (hit) ++stats_.write_hits; else { ++stats_.write_misses; ++a.write_misses; }
        } else {
            ++stats_.reads;
            ++a.reads;
            if (hit) ++stats_.read_hits; else { ++stats_.read_misses; ++a.read_misses; }
        }
    }

    void classify(std::uint64_t sector_id, bool hit) {
        const std::uint64_t distance = reuse_.access(sector_id);
        stats_.reuse.add(distance);
        if (hit) return;
        if (distance == kColdMiss) ++stats_.compulsory;
        else if (distance >= g_.lines * g_.sectors_per_line) ++stats_.capacity;
        else ++stats_.conflict;
    }

    void write_back(std::uint64_t line, std::uint32_t dirty_mask) {
        while (dirty_mask) {
            const std::uint32_t sector = static_cast<std::uint32_t>(std::countr_zero(dirty_mask));
            dirty_mask &= dirty_mask - 1;
            ++stats_.writebacks;
            stats_.bytes_to_below += g_.sector_bytes;
            const std::uint64_t address = (line << g_.line_shift) + (static_cast<std::uint64_t>(sector) << g_.sector_shift);
            below_.write(address, g_.sector_bytes, array_of(address));
        }
    }

    std::uint16_t array_of(std::uint64_t address) const {
        for (std::size_t i = 0; i < array_ranges_.size(); ++i)
            if (address >= array_ranges_[i].first && address < array_ranges_[i].second)
                return static_cast<std::uint16_t>(i);
        return 0;
    }

    CacheGeometry g_;
    Cache<Policy> cache_;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> array_ranges_;
    Below& below_;
    LevelStats& stats_;
    std::vector<std::uint64_t>* record_;
    SimObserver* observer_;
    int index_;
    bool analysis_;
    bool instrumented_;
    bool write_allocate_;
    ReuseDistanceTracker reuse_;
};

}  // namespace cachesim
