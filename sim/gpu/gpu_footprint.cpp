#include "sim/gpu/gpu_footprint.hpp"

#include <algorithm>

#include "sim/geometry.hpp"
#include "sim/saturating.hpp"
#include "sim/gpu/cycle_scheduler.hpp"
#include "sim/gpu/dispatch_plan.hpp"
#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/issue_burst.hpp"
#include "sim/gpu/issue_scheduler.hpp"
#include "sim/gpu/l1_hit_sources.hpp"
#include "sim/gpu/l2_event.hpp"
#include "sim/gpu/list_policies.hpp"
#include "sim/gpu/request_coalescer.hpp"
#include "sim/gpu/sector_cache.hpp"
#include "sim/gpu/warp_lanes.hpp"
#include "sim/gpu/warp_slots.hpp"

namespace cachesim {

namespace {

// An event list doubles as it grows, so its storage is at most twice its events.
constexpr std::uint64_t kGrowth = 2;
// The L2's slices (lockstep_run.hpp): one per host-L2-sized share of its tags, or one per thread;
// this many bounds both on any machine the tool runs on.
constexpr std::uint64_t kMaxSlices = 256;

// The L2 traffic of one chunk of one SM: at most one event per sector a request touches (a warp's
// lanes reach one sector each) in each of its rounds.
std::uint64_t traffic_bound(const GpuConfig& config, std::uint64_t launch_requests, std::uint64_t chunk_rounds,
                            std::uint64_t buffers) {
    const std::uint64_t requests = std::min(saturating_mul(config.sms, chunk_rounds), launch_requests);
    const std::uint64_t events = saturating_mul(requests, config.warp_size);
    return saturating_mul(saturating_mul(events, sizeof(L2Event)), buffers * kGrowth);
}

}  // namespace

GpuFootprint gpu_footprint(const GpuConfig& config, const WorkloadSpec* spec, bool serial) {
    GpuFootprint f;
    // Buffers of L2 traffic the lock step keeps: on several threads the chunk the SMs fill and
    // the one the L2 replays.
    const std::uint64_t buffers = serial ? 1 : 2;
    const GpuOccupancy occupancy = gpu_occupancy(config);
    const bool cycles = config.timing == IssueTiming::cycles && !config.timeline;
    const std::uint64_t sms = config.sms;

    const CacheConfig l1 = effective_l1(config);
    std::uint64_t l1_lines = 0, l1_sectors_per_line = 1;
    if (l1.enabled()) {
        const GeometryResult g = make_geometry(l1);
        if (g.geometry) {
            l1_lines = g.geometry->lines;
            l1_sectors_per_line = g.geometry->sectors_per_line;
            std::uint64_t per_sm = SectorCache<ListLruPolicy>::footprint_bytes(*g.geometry);
            if (config.count_l1_hit_sources)
                per_sm = saturating_add(per_sm, l1_lines * l1_sectors_per_line * L1HitSources::kBytesPerSector);
            f.l1s = saturating_mul(per_sm, sms);
        }
    }

    std::uint64_t l2_sets = 1;
    if (config.l2.enabled()) {
        const GeometryResult g = make_geometry(l2_partition(config));
        if (g.geometry) {
            l2_sets = g.geometry->sets;
            f.l2 = saturating_mul(SectorCache<ListLruPolicy>::footprint_bytes(*g.geometry), config.l2_partitions);
        }
        // Keyed by the L2's set or not (l2_system.hpp): the larger of the two tables.
        const std::uint32_t hit = cycles ? config.l2_coalesce_hit_cycles : config.l2_coalesce_hit_rounds;
        const std::uint32_t miss = cycles ? config.l2_coalesce_miss_cycles : config.l2_coalesce_miss_rounds;
        const std::uint32_t requesters = config.l2_coalesce_requesters;
        f.l2_coalescer = std::max(RequestCoalescer::footprint_bytes(hit, miss, requesters, config.sms, 1),
                                  RequestCoalescer::footprint_bytes(hit, miss, requesters, config.sms,
                                                                    static_cast<std::uint32_t>(l2_sets)));
    }

    // Warps: the run's slots, and the dispatch plan's own (without lanes).
    const std::uint64_t slots = sms * occupancy.warps_per_block * occupancy.blocks_per_sm;
    const std::uint64_t chunk_rounds = cycles ? CycleScheduler::kChunkRounds : IssueScheduler::kChunkRounds;
    std::uint64_t state = WarpSlots::footprint_bytes(slots, config.warp_size);
    if (!serial)
        state += WarpSlots::footprint_bytes(slots, 0) +
                 DispatchPlanner::picks_bytes(config.sms, static_cast<std::uint32_t>(chunk_rounds));
    // The lock step's buffers: per buffer, each SM's block of every round (request_block_) and its
    // event lists, one per L2 slice.
    const std::uint64_t slices = std::min<std::uint64_t>(kMaxSlices, l2_sets);
    state += buffers * (host_block_bytes(sms * chunk_rounds * sizeof(std::uint64_t)) +
                        sms * slices * (sizeof(L2EventList) + host_block_bytes(16 * sizeof(L2Event))));
    if (cycles) {
        // Each SM's sector arrival times, and what the L2 was asked for (two hash tables of 16
        // bytes a DRAM granule of the arrays, at most half full, doubling: x3 while they grow).
        state += sms * l1_lines * l1_sectors_per_line * sizeof(std::uint64_t);
        std::uint64_t granules = 1 << 16;
        if (spec)
            for (const ArrayInfo& a : spec->arrays()) granules += a.bytes() / std::max<std::uint32_t>(config.dram_fetch_bytes, 1) + 1;
        state = saturating_add(state, saturating_mul(granules, 2 * 2 * 3 * 16));
        // Per warp slot: its burst's arrivals and three times.
        state += slots * (cycle_issue_burst(config, spec) + 3) * sizeof(std::uint64_t);
    }
    f.run_state = state;
    // The run's warp slots, and the dispatch plan's on several threads, each keep the table.
    if (spec) f.step_tables = saturating_mul(WarpLanes::footprint_bytes(*spec), serial ? 1 : 2);

    const std::uint64_t requests = spec ? gpu_warp_requests(*spec, config) : ~0ull;
    f.l2_traffic = traffic_bound(config, requests, chunk_rounds, buffers);
    return f;
}

}  // namespace cachesim
