#pragma once
// What a run of the GPU model returns.
#include <cstdint>
#include <optional>

#include "sim/gpu/gpu_config.hpp"
#include "sim/gpu/l1_hit_sources.hpp"
#include "sim/gpu/ncu_counters.hpp"
#include "sim/level_stats.hpp"
#include "traces/workload_spec.hpp"

namespace cachesim {

struct GpuResult {
    // levels: "L1" (summed over SMs), "L2" (summed over partitions); steps: work items;
    // accesses/reads/writes: thread-level (active lanes of each request).
    SimulationResult result;
    NcuCounters ncu;
    GpuOccupancy occupancy;
    CacheConfig l1;  // the L1 as simulated (size resolved from the carve-out)
    std::uint64_t blocks = 0, warps = 0;
    std::uint64_t rounds = 0;  // scheduling rounds: every SM with work issues one request
    // On several threads: the batches of SMs run side by side between two dispatches, and the SM
    // runs they held. Their ratio is the parallelism that dispatching blocks in refill order
    // leaves (lockstep_run.hpp); not a result of the model (0 on one thread).
    std::uint64_t sm_batches = 0, sm_batch_runs = 0;
    std::uint64_t load_requests = 0, store_requests = 0;
    std::uint64_t load_sectors = 0, store_sectors = 0;
    // The L1's load sector hits by the warp that brought the sector (l1_hit_sources.hpp).
    L1HitSourceCounts l1_hit_sources;
    // A recorded launch: the workload the trace was written from, if it names one.
    std::optional<WorkloadSpec> recorded_workload;
    // Two partitions: sectors near misses looked up in the far partition, and those it served
    // (no DRAM read); the ncu fabric counters under their own names.
    std::uint64_t l2_far_lookups() const { return ncu.l2_sectors_fabric_read; }
    std::uint64_t l2_far_hits() const { return ncu.l2_sectors_fabric_read_hit; }

    double l2_read_hit_rate_pct() const { return ncu.l2_read_hit_rate_pct(); }
    // The points of the L1's load hit rate from sectors another block of the SM brought, where
    // the run counted the L1's hit sources (`config`: the run's configuration).
    std::optional<double> l1_other_block_points(const GpuConfig& config) const {
        if (!config.count_l1_hit_sources) return std::nullopt;
        return l1_hit_sources.other_block_points(ncu.l1_sectors_ld);
    }

    std::uint64_t requests() const { return load_requests + store_requests; }
    double requests_per_second() const { return result.seconds > 0 ? requests() / result.seconds : 0.0; }
    double sector_lookups_per_second() const {
        return result.seconds > 0 ? (load_sectors + store_sectors) / result.seconds : 0.0;
    }
};

}  // namespace cachesim
