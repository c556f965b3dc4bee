#pragma once
// The L2 system: one or two partitions, each SM's requests looked up in its near partition first;
// a near miss asks the far partition over the link or reads the --dram-fetch granule from DRAM.
// The L2 request coalescer (request_coalescer.hpp) can answer a request with another SM's
// identical one still on its way. It takes the SMs' traffic as L2 events (l2_event.hpp), one SM's
// events of one round at a time, in the order the lock step (or the measured timeline) gives.
//
// Slices: an L2 set's state (its ways in every partition, and the coalescer's entries for its
// lines, which the coalescer keys by L2 set) depends only on the requests to lines of that set,
// in their order. split() divides the sets into slices (runs of sets, l2_slicing.hpp); each slice's events,
// played in order by their own thread with counters of their own, give exactly what one thread
// playing every event would. Not for a random policy (one generator for all sets), a line index
// spanning the sets (more than 32 ways), or L1 lines larger than the L2's (a request would span
// sets): those play as one slice.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <span>
#include <vector>

#include "sim/gpu/gpu_config.hpp"
#include "sim/gpu/gpu_counters.hpp"
#include "sim/gpu/l2_event.hpp"
#include "sim/gpu/l2_slicing.hpp"
#include "sim/gpu/partition_routing.hpp"
#include "sim/gpu/request_coalescer.hpp"
#include "sim/gpu/sector_cache.hpp"
#include "sim/observer.hpp"

namespace cachesim {

template <class L2Policy>
class L2System {
public:
    using Partition = SectorCache<L2Policy>;

    // l1_line_shift, l1_sector_shift: the L1's, whose sectors the load events carry.
    L2System(const GpuConfig& config, std::uint32_t l1_line_shift, std::uint32_t l1_sector_shift,
             GpuCounters& counters, SimObserver* observer)
        : config_(config),
          observer_(observer),
          l1_line_shift_(l1_line_shift),
          l1_sector_shift_(l1_sector_shift),
          l1_sector_bytes_(1u << l1_sector_shift) {
        slices_.push_back(Slice{&counters, {}});
        enabled_ = config.l2.enabled();
        partitions_ = enabled_ ? config.l2_partitions : 1;
        home_fill_ = config.partition_fill == PartitionFill::home;
        near_ = near_partitions(config, partitions_);
        if (!enabled_) return;
        geometry_ = *make_geometry(l2_partition(config)).geometry;
        parts_.resize(partitions_);
        for (std::uint32_t p = 0; p < partitions_; ++p)
            parts_[p].reset(geometry_, config.seed * 0x9e3779b97f4a7c15ull + 2 + 2 * p + 2 * config.sms,
                            config.l2_set_index);
        sectors_per_line_shift_ = geometry_.line_shift - geometry_.sector_shift;
        const std::uint32_t granule = std::max(config.dram_fetch_bytes, geometry_.sector_bytes);
        granule_sectors_ = granule >> geometry_.sector_shift;
        keyed_ = parts_[0].sets_independent() && l1_line_shift <= geometry_.line_shift;
        l1_to_l2_line_shift_ = keyed_ ? geometry_.line_shift - l1_line_shift : 0;
        reset_coalescer();
        same_lines_ = l1_line_shift == geometry_.line_shift && l1_sector_shift == geometry_.sector_shift;
    }

    bool enabled() const { return enabled_; }

    // Divides the sets into up to `slices` slices (see the top of the file); returns how many
    // (1 when the configuration cannot be sliced, or an observer must see every event in order).
    // Call before the first play(). Each slice past the first fills a copy of the (zero) counters
    // given to the constructor; add_slice_counters() sums them.
    std::uint32_t split(std::uint32_t slices) {
        if (!keyed_ || observer_ || slices <= 1) return 1;
        slices = std::min(slices, geometry_.sets);
        extra_counters_.assign(slices - 1, *slices_[0].counters);
        slices_.resize(1);
        for (GpuCounters& c : extra_counters_) slices_.push_back(Slice{&c, {}});
        slicing_ = L2Slicing(slices, geometry_.sets, parts_[0].set_mapping(), geometry_.line_shift, geometry_.sector_shift);
        return slices;
    }
    std::uint32_t slices() const { return static_cast<std::uint32_t>(slices_.size()); }
    // Slices small enough for the host's caches (about kSliceBytes each of tags, valid and dirty
    // masks in every partition, and coalescer entries): replayed one after another, a slice's
    // lookups stay in a few hundred KiB instead of ranging over tens of MB.
    std::uint32_t host_cache_slices() const {
        if (!enabled_) return 1;
        const std::uint64_t per_line = 3 * sizeof(std::uint64_t);
        const std::uint64_t bytes = geometry_.lines * partitions_ * per_line + coalescer_.bytes();
        return static_cast<std::uint32_t>(std::min<std::uint64_t>(geometry_.sets, (bytes + kSliceBytes - 1) / kSliceBytes));
    }
    const L2Slicing& slicing() const { return slicing_; }
    void add_slice_counters(GpuCounters& total) const {
        for (const GpuCounters& c : extra_counters_) total += c;
    }
    // A new launch on the same L2 (GpuConfig::l2_start warm): every slice's counters back to
    // `zero`, the coalescer's requests forgotten (its clock starts again at 0), the lines kept.
    // `observer` sees the new launch's events (the one before may have run unobserved).
    void start_launch(const GpuCounters& zero, SimObserver* observer) {
        for (Slice& sl : slices_) {
            *sl.counters = zero;
            sl.brought.sectors = 0;
        }
        if (enabled_) reset_coalescer();
        observer_ = observer;
    }
    // Runs without an observer until start_launch (the unmeasured launch of a warm start). Call
    // after split(), which keeps one slice where an observer is given.
    void mute_observer() { observer_ = nullptr; }

    std::uint32_t sector_shift() const { return geometry_.sector_shift; }
    // Whether play() needs the launch block of each request (the coalescer groups by block).
    bool groups_by_block() const {
        return coalescer_.enabled() && (config_.l2_coalesce_scope == CoalesceScope::neighbours ||
                                        config_.l2_coalesce_scope == CoalesceScope::pairs);
    }

    // SM s's traffic of round r from events[i] on (i is left past it). `now`: the coalescer's
    // clock (the lock-step round, or nanoseconds); `block`: the launch block of the request.
    // With slices: `events` are slice `slice`'s, which one thread at a time plays.
    void play(std::uint32_t s, std::uint32_t r, std::span<const L2Event> events, std::size_t& i,
              std::uint64_t now, std::uint64_t block, std::uint32_t slice = 0) {
        Slice& sl = slices_[slice];
        if (coalescer_.enabled()) play_coalescing(sl, s, r, events, i, now, coalesce_group(s, block));
        else play_plain(sl, s, r, events, i);
        sl.brought.sectors = 0;
    }

    // Hints the host caches at the state that SM s's event `e` will look up first (its L2 set in
    // the near partition, its coalescer set), so that the replay can ask a few events ahead.
    // Changes nothing.
    void prefetch(std::uint32_t s, const L2Event& e) const {
        if (!enabled_) return;
        const bool load = e.kind == L2EventKind::load;
        const std::uint64_t line = load ? e.address >> geometry_.line_shift : e.address >> sectors_per_line_shift_;
        const std::uint32_t set = parts_[0].set_of(line);
        parts_[near_[s]].prefetch_set(set);
        // a load's coalescer key is its L2 set, the one just worked out (coalesce_key)
        if (load && coalescer_.enabled()) coalescer_.prefetch(e.address >> l1_line_shift_, keyed_ ? set : 0);
    }

private:
    static constexpr std::uint64_t kSliceBytes = 512 << 10;  // a host core's L2 here (any of 256 KiB to 4 MiB ran alike)

    // What each slice keeps of its own: its counters, and the request being played.
    // A host cache line (or two) each: slices play on threads of their own and write theirs often.
    struct alignas(64) Slice {
        GpuCounters* counters;
        // Sectors the request being played has already brought into the near half with a miss
        // of an earlier sector (the rest of a DRAM granule or of a transfer over the link): its
        // later sectors there are part of the same fetch.
        struct {
            std::uint64_t line = ~0ull;
            std::uint64_t sectors = 0;
        } brought;
        // The L2 set of the line looked up last: a request's sectors, its coalescer key and the
        // lookups in both partitions (which map lines to sets alike) share one.
        std::uint64_t set_line = ~0ull;
        std::uint32_t set = 0;
    };

    std::uint32_t set_of(Slice& sl, std::uint64_t line) const {
        if (line != sl.set_line) {
            sl.set_line = line;
            sl.set = parts_[0].set_of(line);
        }
        return sl.set;
    }

    // An empty coalescer. Cycle timing's clock is the cycle: its windows are the ones measured in
    // cycles.
    void reset_coalescer() {
        const bool cycles = config_.timing == IssueTiming::cycles && !config_.timeline;
        coalescer_.reset(cycles ? config_.l2_coalesce_hit_cycles : config_.l2_coalesce_hit_rounds,
                         cycles ? config_.l2_coalesce_miss_cycles : config_.l2_coalesce_miss_rounds,
                         config_.l2_coalesce_requesters, config_.sms, keyed_ ? geometry_.sets : 1);
        coalescer_.set_neighbours(config_.l2_coalesce_scope == CoalesceScope::neighbours);
    }

    // The coalescer's key of an L1 line: its L2 set (see the top of the file), or 0.
    std::uint32_t coalesce_key(Slice& sl, std::uint64_t l1_line) const {
        return keyed_ ? set_of(sl, l1_line >> l1_to_l2_line_shift_) : 0;
    }

    void play_plain(Slice& sl, std::uint32_t s, std::uint32_t r, std::span<const L2Event> events, std::size_t& i) {
        const std::uint64_t in_line = (1ull << (l1_line_shift_ - l1_sector_shift_)) - 1;
        for (; i < events.size() && events[i].round == r; ++i) {
            const L2Event& e = events[i];
            if (e.kind != L2EventKind::load) {
                sl.brought.sectors = 0;
                write(sl, s, e.address, e.kind == L2EventKind::store_full, e.array);
                continue;
            }
            const std::uint64_t line = e.address >> l1_line_shift_;
            if (line != sl.brought.line) sl.brought.sectors = 0;
            if (hits_whole_line(sl, s, line, (static_cast<std::uint64_t>(e.more) << 1 | 1)
                                                 << ((e.address >> l1_sector_shift_) & in_line), e.array))
                continue;
            for_each_sector(e, l1_sector_shift_, [&](std::uint64_t address) {
                // A request's misses to one line reach the L2 together (see Slice::brought).
                if ((address >> geometry_.line_shift) != sl.brought.line) sl.brought.sectors = 0;
                read_below_l1(sl, s, address, e.array);
            });
        }
    }

    // The coalescer's group of SM s running `block`: SMs that may share a lookup carry the same
    // group (neighbours: adjacent ones).
    std::uint64_t coalesce_group(std::uint32_t s, std::uint64_t block) const {
        switch (config_.l2_coalesce_scope) {
            case CoalesceScope::tpc: return s / 2;
            case CoalesceScope::neighbours: return block;
            case CoalesceScope::pairs: return block / 2;
            case CoalesceScope::all:
            default: return 0;
        }
    }

    // play_plain with the request coalescer: a request's misses to one L1 line at a time. A
    // request identical to one of another SM still on its way is answered with that one: no
    // lookup. Otherwise its sectors are looked up together (see Slice::brought) and it opens a window
    // for others. Out of line: inlined, it cost the default (coalescer off) replay about 5%.
    [[gnu::noinline]] void play_coalescing(Slice& sl, std::uint32_t s, std::uint32_t r, std::span<const L2Event> events,
                                           std::size_t& i, std::uint64_t now, std::uint64_t group) {
        const std::uint64_t in_line = (1ull << (l1_line_shift_ - l1_sector_shift_)) - 1;
        while (i < events.size() && events[i].round == r) {
            const L2Event& e = events[i];
            sl.brought.sectors = 0;
            if (e.kind != L2EventKind::load) {
                write(sl, s, e.address, e.kind == L2EventKind::store_full, e.array);
                ++i;
                continue;
            }
            const std::uint64_t line = e.address >> l1_line_shift_;
            std::size_t last = i;
            std::uint64_t sectors = 0;  // which sectors of the line the request missed
            for (; last < events.size() && events[last].round == r && events[last].kind == L2EventKind::load &&
                   (events[last].address >> l1_line_shift_) == line;
                 ++last)
                sectors |= (static_cast<std::uint64_t>(events[last].more) << 1 | 1)
                           << ((events[last].address >> l1_sector_shift_) & in_line);
            const std::uint32_t key = coalesce_key(sl, line);
            if (coalescer_.merge(line, sectors, now, group, key)) {
                sl.counters->ncu.l2_sectors_coalesced += static_cast<std::uint64_t>(std::popcount(sectors));
            } else {
                bool hit = true;
                if (!hits_whole_line(sl, s, line, sectors, e.array))
                    for (std::size_t k = i; k < last; ++k)
                        for_each_sector(events[k], l1_sector_shift_,
                                        [&](std::uint64_t address) { hit &= read_below_l1(sl, s, address, events[k].array); });
                coalescer_.open(line, sectors, now, hit, group, key);
            }
            i = last;
        }
    }

    // A request's missed sectors of one L1 line (a mask of L1 sectors) looked up at once where they
    // all hit in the near partition (none brought by an earlier sector's miss of the request),
    // with L1 and L2 lines and sectors alike: one tag scan and one LRU move for the line instead
    // of one per sector, and the same counters and state as the
    // sector-by-sector lookups (which, all hitting, change nothing but the line's recency, the
    // same after one move as after several). Returns false, having changed nothing, otherwise.
    bool hits_whole_line(Slice& sl, std::uint32_t s, std::uint64_t line, std::uint64_t sectors, std::uint16_t array) {
        if (!same_lines_ || !enabled_ || observer_) return false;
        if (sl.brought.line == line && (sl.brought.sectors & sectors) != 0) return false;  // part of an earlier fetch
        Partition& near = parts_[near_[s]];
        const std::uint32_t slot = near.find(line, set_of(sl, line));
        if (slot == Partition::kNone || (near.valid(slot) & sectors) != sectors) return false;
        near.touch(slot);
        const std::uint64_t n = static_cast<std::uint64_t>(std::popcount(sectors));
        LevelStats& stats = sl.counters->l2;
        sl.counters->ncu.l2_sectors_tex_read += n;
        sl.counters->ncu.l2_sectors_tex_read_hit += n;
        stats.reads += n;
        stats.read_hits += n;
        array_counters(stats, array).reads += n;
        return true;
    }

    // An L1 sector miss. Returns true when every L2 sector of it hit in the near partition.
    bool read_below_l1(Slice& sl, std::uint32_t s, std::uint64_t address, std::uint16_t array) {
        if (!enabled_) {
            sl.counters->ncu.dram_bytes_read += l1_sector_bytes_;
            sl.counters->memory_bytes_read += l1_sector_bytes_;
            return false;
        }
        const std::uint64_t first = address >> geometry_.sector_shift;
        const std::uint64_t last = (address + l1_sector_bytes_ - 1) >> geometry_.sector_shift;
        bool hit = true;
        for (std::uint64_t sector = first; sector <= last; ++sector) hit &= read(sl, s, sector, array);
        return hit;
    }

    // An L1 sector miss reaching the L2 (lts__t_sectors_srcunit_tex_op_read). Returns true when
    // the near partition had it.
    bool read(Slice& sl, std::uint32_t s, std::uint64_t sector_id, std::uint16_t array) {
        const std::uint64_t line = sector_id >> sectors_per_line_shift_;
        const std::uint32_t sector = static_cast<std::uint32_t>(sector_id & ((1ull << sectors_per_line_shift_) - 1));
        const std::uint64_t bit = 1ull << sector;
        LevelStats& stats = sl.counters->l2;
        ++sl.counters->ncu.l2_sectors_tex_read;
        ++stats.reads;
        ArrayCounters& a = array_counters(stats, array);
        ++a.reads;
        if ((sl.brought.sectors & bit) && sl.brought.line == line) {
            // Brought by an earlier sector's miss of this request (from DRAM or over the link):
            // part of that fetch, so no lookup of its own and no hit. The H200 counts no hit
            // inside one request to a cold line, at the line's home or away (l1probe --pending).
            ++stats.read_misses;
            ++a.read_misses;
            if (observer_) [[unlikely]] observer_->on_lookup(1, line, false, false, array);
            return false;
        }
        const std::uint32_t p = near_[s];
        Partition& near = parts_[p];
        const std::uint32_t set = set_of(sl, line);
        const std::uint32_t slot = near.find(line, set);
        if (slot != Partition::kNone && (near.valid(slot) & bit)) {
            near.touch(slot);
            ++sl.counters->ncu.l2_sectors_tex_read_hit;
            ++stats.read_hits;
            if (observer_) [[unlikely]] observer_->on_lookup(1, line, true, false, array);
            return true;
        }
        return read_near_miss(sl, p, slot, line, set, sector, array);
    }

    // A near miss. The near half wants the aligned --dram-fetch granule (less what it holds).
    bool read_near_miss(Slice& sl, std::uint32_t p, std::uint32_t slot, std::uint64_t line, std::uint32_t set,
                        std::uint32_t sector, std::uint16_t array) {
        Partition& near = parts_[p];
        const std::uint64_t bit = 1ull << sector;
        std::uint32_t home = p;
        if (partitions_ > 1) home = home_fill_ ? l2_home_partition(line) : 1 - p;
        const std::uint32_t first = sector / granule_sectors_ * granule_sectors_;
        std::uint64_t granule = (granule_sectors_ >= 64 ? ~0ull : ((1ull << granule_sectors_) - 1)) << first;
        if (slot != Partition::kNone) granule &= ~near.valid(slot);
        // Home fill, the home is far: the granule is asked of the home half over the link, one
        // far lookup per sector; what the home lacks it reads from DRAM, and the granule is copied
        // to the near half. Near fill: the far half is asked for the sector, a miss reads the
        // granule into the near half. Otherwise the near half reads the granule from DRAM.
        const bool crossing = home_fill_ && home != p;
        const std::uint64_t asked = crossing ? granule : home != p ? bit : 0;
        std::uint64_t at_far = 0;
        std::uint32_t far_slot = Partition::kNone;
        if (asked) {
            Partition& far = parts_[home];
            far_slot = far.find(line, set);
            if (far_slot != Partition::kNone) at_far = far.valid(far_slot) & asked;
            if (at_far) far.touch(far_slot);
            sl.counters->ncu.l2_sectors_fabric_read += static_cast<std::uint64_t>(std::popcount(asked));
            sl.counters->ncu.l2_sectors_fabric_read_hit += static_cast<std::uint64_t>(std::popcount(at_far));
        }
        LevelStats& stats = sl.counters->l2;
        const bool far_hit = (at_far & bit) != 0;
        const std::uint64_t fetch = crossing || !far_hit ? granule : bit;  // what the near half receives
        if (far_hit) {
            ++stats.read_hits;
        } else {
            ++stats.read_misses;
            ++array_counters(stats, array).read_misses;
        }
        const std::uint64_t from_dram = crossing ? granule & ~at_far : far_hit ? 0 : granule;
        if (from_dram) {
            const std::uint64_t bytes = static_cast<std::uint64_t>(std::popcount(from_dram)) * geometry_.sector_bytes;
            sl.counters->ncu.dram_bytes_read += bytes;
            sl.counters->memory_bytes_read += bytes;
            stats.bytes_from_below += bytes;
            if (crossing) fill(sl, parts_[home], far_slot, line, set, from_dram, 0);
        }
        sl.brought.line = line;
        sl.brought.sectors |= fetch & ~bit;
        if (observer_) [[unlikely]] observer_->on_lookup(1, line, far_hit, false, array);
        sl.counters->ncu.l2_sectors_tex_read_miss += static_cast<std::uint64_t>(std::popcount(fetch));
        fill(sl, near, slot, line, set, fetch, 0);
        return false;
    }

    // Brings sectors into a partition (a new line when slot is kNone); write-backs of victims.
    void fill(Slice& sl, Partition& cache, std::uint32_t slot, std::uint64_t line, std::uint32_t set,
              std::uint64_t sectors, std::uint64_t dirty) {
        if (slot != Partition::kNone) {
            cache.touch(slot);
            cache.add_sectors(slot, sectors, dirty);
            return;
        }
        SectorEviction evicted;
        cache.insert(line, set, sectors, dirty, evicted);
        LevelStats& stats = sl.counters->l2;
        for (std::uint32_t i = 0; i < evicted.count; ++i) {
            ++stats.evictions;
            const std::uint64_t written = static_cast<std::uint64_t>(std::popcount(evicted.dirty[i]));
            stats.writebacks += written;
            stats.bytes_to_below += written * geometry_.sector_bytes;
            sl.counters->memory_bytes_written += written * geometry_.sector_bytes;
            if (observer_) [[unlikely]] observer_->on_evict(1, evicted.lines[i]);
        }
        if (observer_) [[unlikely]] observer_->on_fill(1, line);
    }

    // A store's L2 sector, looked up in the near partition only. Write-back and write-allocate
    // with sub-sector writes, fetching on a later read (as NVIDIA's L2s since Kepler: Accel-Sim's
    // l2_config microbenchmark, and the H200's naive transpose reading its input once): a store
    // keeps its bytes in the sector without reading DRAM. A sector written whole becomes valid;
    // one written in part only dirty, so that a read of it still fetches the rest from DRAM.
    void write(Slice& sl, std::uint32_t s, std::uint64_t sector_id, bool full, std::uint16_t array) {
        const std::uint64_t line = sector_id >> sectors_per_line_shift_;
        const std::uint64_t bit = 1ull << (sector_id & ((1ull << sectors_per_line_shift_) - 1));
        LevelStats& stats = sl.counters->l2;
        ++stats.writes;
        ArrayCounters& a = array_counters(stats, array);
        ++a.writes;
        Partition& near = parts_[near_[s]];
        const std::uint32_t set = set_of(sl, line);
        const std::uint32_t slot = near.find(line, set);
        const bool hit = slot != Partition::kNone && ((near.valid(slot) | near.dirty(slot)) & bit);
        if (hit) {
            ++stats.write_hits;
        } else {
            ++stats.write_misses;
            ++a.write_misses;
        }
        if (observer_) [[unlikely]] observer_->on_lookup(1, line, hit, true, array);
        fill(sl, near, slot, line, set, full ? bit : 0, bit);
    }

    const GpuConfig& config_;
    SimObserver* observer_;
    std::vector<Slice> slices_;                // the first fills the constructor's counters
    std::vector<GpuCounters> extra_counters_;  // those of the slices past the first
    L2Slicing slicing_;
    bool keyed_ = false;  // the coalescer keys lines by L2 set (sets can be sliced)
    std::uint32_t l1_to_l2_line_shift_ = 0;
    bool enabled_ = false, home_fill_ = false;
    bool same_lines_ = false;  // the L1's lines and sectors are the L2's (hits_whole_line)
    std::uint32_t partitions_ = 1;
    std::vector<Partition> parts_;
    std::vector<std::uint32_t> near_;  // SM -> its near partition
    CacheGeometry geometry_{};         // of one partition
    std::uint32_t sectors_per_line_shift_ = 2, granule_sectors_ = 1;
    std::uint32_t l1_line_shift_, l1_sector_shift_, l1_sector_bytes_;
    RequestCoalescer coalescer_;
};

}  // namespace cachesim
