#pragma once
// The SM front end: a warp's request becomes lane addresses (or, for an even one, lane 0's address
// and a step), the coalescer turns them into sectors of lines, and loads look them up in the SM's
// L1. Sectors that must go further (L1 misses, and stores, which write through) become L2 events;
// the front end says whether a load missed, which is all the scheduler needs to know.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <utility>
#include <vector>

#include "sim/gpu/coalescer.hpp"
#include "sim/gpu/gpu_counters.hpp"
#include "sim/gpu/host_line_allocator.hpp"
#include "sim/gpu/l1_hit_sources.hpp"
#include "sim/gpu/l1_timing.hpp"
#include "sim/gpu/l2_event.hpp"
#include "sim/gpu/l2_slicing.hpp"
#include "sim/gpu/sector_cache.hpp"
#include "sim/gpu/warp_slots.hpp"
#include "sim/observer.hpp"

namespace cachesim {

// One per thread, written at every request: each starts on a host cache line of its own.
template <class L1Policy>
class alignas(64) SmFrontEnd {
public:
    using L1 = SectorCache<L1Policy>;

    // l1s: one per SM, or null when the L1 is off. l2_sector_shift: how stores are split for the
    // L2 (unused without one). counters and l1s outlive the front end.
    SmFrontEnd(const GpuConfig& config, L1* l1s, bool l2_enabled, std::uint32_t l2_sector_shift,
               GpuCounters& counters, SimObserver* observer)
        : coalescer_(config.l1.line_bytes, config.l1.sector_bytes),
          counters_(counters),
          observer_(observer),
          l1s_(l1s),
          l2_enabled_(l2_enabled),
          l2_sector_shift_(l2_sector_shift) {
        line_shift_ = coalescer_.line_shift();
        sector_shift_ = coalescer_.sector_shift();
        sector_bytes_ = 1u << sector_shift_;
        address_store_.assign(2 * static_cast<std::size_t>(config.warp_size), 0);
        worked_[0].addresses = address_store_.data();
        worked_[1].addresses = address_store_.data() + config.warp_size;
        current_ = &worked_[0];
        ahead_ = &worked_[1];
        request_.lines.reserve(64);
        written_.reserve(64);
    }

    // Neither copied nor moved: current_ and ahead_ point into its own worked_ (a pointer each,
    // not an index, since the hot path would reload an index after every 32-bit store).
    SmFrontEnd(const SmFrontEnd&) = delete;
    SmFrontEnd& operator=(const SmFrontEnd&) = delete;

    std::uint32_t l1_line_shift() const { return line_shift_; }
    std::uint32_t l1_sector_shift() const { return sector_shift_; }
    // Cycle timing (l1_timing.hpp): with it, issue() also works out when the request's data is
    // there (data_ready()), the request being issued at set_clock()'s cycle.
    void set_timing(L1Timing* timing) { timing_ = timing; }
    L1Timing* timing() const { return timing_; }
    void set_clock(std::uint64_t cycle) { now_ = cycle; }
    std::uint64_t data_ready() const { return ready_; }

    // Who filled each L1 sector (l1_hit_sources.hpp), to count the hits by their source; none
    // when the L1 is off.
    void set_hit_sources(L1HitSources* sources) { sources_ = sources; }

    // The L2's slices (L2System::split): each L2 event goes to its slice's list.
    void set_slicing(const L2Slicing& slicing) { slicing_ = slicing; }

    // One request of the warp in `slot` on SM s, in round `round` of the chunk: its L2 traffic is
    // appended to `events` (one slice). Returns true when a load sector missed in L1.
    bool issue(std::uint32_t s, const WarpSlots& slots, std::size_t slot, std::uint32_t round,
               std::vector<L2Event>& events) {
        return issue_to(s, slots, slot, round, [&](std::uint32_t) -> std::vector<L2Event>& { return events; });
    }
    // The same, each event appended to lists[its slice].
    bool issue(std::uint32_t s, const WarpSlots& slots, std::size_t slot, std::uint32_t round, L2EventList* lists) {
        return issue_to(s, slots, slot, round,
                        [lists](std::uint32_t slice) -> L2EventVector& { return lists[slice].events; });
    }

private:
    // list(slice): the events' list of a slice.
    template <class Lists>
    bool issue_to(std::uint32_t s, const WarpSlots& slots, std::size_t slot, std::uint32_t round, const Lists& list) {
        ready_ = now_;
        const WarpSlot& warp = slots[slot];
        if (ahead_->slot == slot && ahead_->k == warp.k && ahead_->age == warp.age)
            std::swap(current_, ahead_);  // worked out by the last request (see look_ahead)
        else
            current_->shape = slots.generate(slot, current_->addresses);
        ahead_->slot = kNoSlot;
        const RequestShape& shape = current_->shape;
        std::uint64_t* const addresses = current_->addresses;
        if (l1s_ && slots.built_in() && warp.k + 1 < warp.requests) look_ahead(s, slots, slot, warp);
        const std::uint32_t lanes = shape.lanes;
        // An even request's sectors follow from lane 0's address and the step, and so do the bytes
        // of an even store whose lanes step no more than their size (one range); other stores
        // (whose written bytes are worked out lane by lane) and other cases expand the lanes first.
        bool coalesced = false, one_range = false;
        if (shape.even) {
            coalesced = coalescer_.coalesce_even(addresses[0], shape.stride, lanes, shape.size, request_);
            one_range = shape.is_write && coalesced && shape.stride <= shape.size &&
                        addresses[0] + (lanes - 1) * shape.stride + shape.size > addresses[0];
            if (!coalesced || (shape.is_write && !one_range)) fill_even(addresses, lanes, addresses[0], shape.stride);
        }
        if (!coalesced) coalescer_.coalesce(addresses, lanes, shape.size, request_);
        if (shape.is_write) {
            ++counters_.store_requests;
            counters_.thread_writes += lanes;
            counters_.store_sectors += request_.sector_count;
            store(lanes, shape, round, list, one_range);
            return false;
        }
        ++counters_.load_requests;
        ++counters_.ncu.l1_requests_ld;
        counters_.thread_reads += lanes;
        counters_.load_sectors += request_.sector_count;
        bool missed = false;
        // A request of several lines (a stencil row across a line boundary): their lookups in the
        // L1's index are asked of the host's memory together rather than one after the other.
        if (l1s_ && request_.lines.size() > 1)
            for (const CoalescedLine& line : request_.lines) l1s_[s].prefetch_line(line.line);
        for (const CoalescedLine& line : request_.lines) missed |= load_line(s, warp, line, shape.array, round, list);
        return missed;
    }

    // The warp's next request is most often the SM's next one (issue bursts): its addresses are
    // worked out now, kept for that request, and its lines' L1 index entries asked of the host's
    // memory, which would otherwise wait for each when that request looks it up.
    void look_ahead(std::uint32_t s, const WarpSlots& slots, std::size_t slot, const WarpSlot& warp) {
        std::uint64_t* const ahead_addresses = ahead_->addresses;
        ahead_->shape = slots.generate_built_in(slot, warp.k + 1, ahead_addresses);
        ahead_->slot = slot;
        ahead_->k = warp.k + 1;
        ahead_->age = warp.age;
        const RequestShape& next = ahead_->shape;
        if (next.is_write) return;
        const std::uint64_t first = ahead_addresses[0];
        const std::uint64_t last =
            next.even ? first + (next.lanes - 1) * next.stride : ahead_addresses[next.lanes - 1];
        const std::uint64_t first_line = first >> line_shift_, last_line = (last + next.size - 1) >> line_shift_;
        // (its first and last lines: every line of the common request of one or two)
        l1s_[s].prefetch_line(first_line);
        if (last_line != first_line) l1s_[s].prefetch_line(last_line);
    }

    template <class Lists>
    [[gnu::always_inline]] bool load_line(std::uint32_t s, const WarpSlot& warp, const CoalescedLine& cl,
                                          std::uint16_t array, std::uint32_t round, const Lists& list) {
        const std::uint64_t wanted = cl.sectors;
        const std::uint32_t n = static_cast<std::uint32_t>(std::popcount(wanted));
        std::uint64_t hit = 0;
        bool filled = false;
        SectorEviction evicted;
        std::uint32_t slot = 0;
        if (l1s_) {
            L1& cache = l1s_[s];
            slot = cache.find(cl.line);
            if (slot != L1::kNone) {
                hit = cache.valid(slot) & wanted;
                cache.touch(slot);
                if (hit != wanted) cache.add_sectors(slot, wanted & ~hit, 0);
            } else {
                slot = cache.insert(cl.line, wanted, 0, evicted);
                filled = true;
            }
            if (sources_)
                sources_->lookup(s, slot, hit, wanted & ~hit, warp.age, warp.block, counters_.l1_hit_sources);
            if (timing_) [[unlikely]]
                ready_ = std::max(ready_, timing_->serve(s, slot, cl.line << line_shift_, wanted, hit, now_));
        } else if (timing_) [[unlikely]] {
            ready_ = std::max(ready_, timing_->uncached(s, cl.line << line_shift_, now_));
        }
        const std::uint32_t hits = static_cast<std::uint32_t>(std::popcount(hit));
        LevelStats& stats = counters_.l1;
        counters_.ncu.l1_sectors_ld += n;
        counters_.ncu.l1_sectors_ld_hit += hits;
        stats.reads += n;
        stats.read_hits += hits;
        stats.read_misses += n - hits;
        ArrayCounters& a = array_counters(stats, array);
        a.reads += n;
        a.read_misses += n - hits;
        if (observer_) [[unlikely]]
            for (std::uint64_t m = wanted; m; m &= m - 1) {
                const std::uint32_t sector = static_cast<std::uint32_t>(std::countr_zero(m));
                const bool sector_hit = (hit >> sector) & 1u;
                if (sector_hit && sources_)
                    observer_->on_l1_hit_source(cl.line, sources_->source_of(s, slot, sector, warp.age, warp.block));
                observer_->on_lookup(0, cl.line, sector_hit, false, array);
            }
        const std::uint64_t missing = wanted & ~hit;
        if (missing) {
            // One L1 line lies in one L2 line (or slicing is off): one slice for all its sectors.
            auto& out = list(slicing_.sliced() ? slicing_.of_load(cl.line << line_shift_) : 0);
            stats.bytes_from_below += static_cast<std::uint64_t>(std::popcount(missing)) * sector_bytes_;
            // A run of sectors per event (l2_event.hpp): one for a line of up to 1 + kMoreSectors.
            for (std::uint64_t m = missing; m;) {
                const std::uint32_t first = static_cast<std::uint32_t>(std::countr_zero(m));
                const std::uint8_t more = static_cast<std::uint8_t>((m >> first) >> 1);
                out.push_back({(cl.line << line_shift_) + (static_cast<std::uint64_t>(first) << sector_shift_), round,
                               array, L2EventKind::load, more});
                const std::uint32_t covered = first + 1 + L2Event::kMoreSectors;
                m = covered >= 64 ? 0 : (m >> covered) << covered;
            }
        }
        stats.evictions += evicted.count;
        if (observer_) [[unlikely]] {
            for (std::uint32_t i = 0; i < evicted.count; ++i) observer_->on_evict(0, evicted.lines[i]);
            if (filled) observer_->on_fill(0, cl.line);
        }
        return missing != 0;
    }

    // A store request: write-through the L1 (no lookup, no allocation); the L2 sectors it writes.
    // one_range: its lanes' bytes are one range from lane 0's address (an even store).
    template <class Lists>
    void store(std::uint32_t lanes, const RequestShape& shape, std::uint32_t round, const Lists& list,
               bool one_range) {
        for (const CoalescedLine& cl : request_.lines) {
            const std::uint64_t n = static_cast<std::uint64_t>(std::popcount(cl.sectors));
            counters_.l1.writes_forwarded += n;
            counters_.l1.bytes_to_below += n * sector_bytes_;
        }
        if (!l2_enabled_) {
            counters_.memory_bytes_written += static_cast<std::uint64_t>(request_.sector_count) * sector_bytes_;
            return;
        }
        const std::uint64_t* addresses = current_->addresses;
        if (one_range)
            Coalescer::written_range(addresses[0], addresses[0] + (lanes - 1) * shape.stride + shape.size,
                                     l2_sector_shift_, written_);
        else
            coalescer_.written_sectors(addresses, lanes, shape.size, l2_sector_shift_, written_);
        for (const WrittenSector& w : written_)
            list(slicing_.sliced() ? slicing_.of_store(w.sector) : 0).push_back(
                {w.sector, round, shape.array, w.full ? L2EventKind::store_full : L2EventKind::store_partial});
    }

    Coalescer coalescer_;
    CoalescedRequest request_;
    std::vector<WrittenSector> written_;
    // A request worked out: its warp's slot, dispatch order (WarpSlot::age) and request index,
    // its shape and its lanes' addresses. Two, the request being issued and the one look_ahead
    // worked out, swapped by pointer (their addresses are halves of address_store_).
    static constexpr std::size_t kNoSlot = ~std::size_t{0};
    struct Worked {
        std::size_t slot = kNoSlot;
        std::uint32_t k = 0;
        std::uint64_t age = 0;
        RequestShape shape;
        std::uint64_t* addresses = nullptr;
    };
    HostVector<std::uint64_t> address_store_;  // (written at every request: lines of its own)
    Worked worked_[2];
    Worked* current_ = nullptr;
    Worked* ahead_ = nullptr;
    GpuCounters& counters_;
    SimObserver* observer_;
    L1* l1s_;
    bool l2_enabled_;
    std::uint32_t l2_sector_shift_;
    std::uint32_t line_shift_ = 7, sector_shift_ = 5, sector_bytes_ = 32;
    L2Slicing slicing_;
    L1Timing* timing_ = nullptr;               // cycle timing only
    L1HitSources* sources_ = nullptr;
    std::uint64_t now_ = 0, ready_ = 0;        // the request's cycle, and when its data is there
};

}  // namespace cachesim
