#pragma once
// The counters the GPU model's components fill while a launch runs: plain data, no logic. The SM
// front end counts requests and L1 lookups, the L2 system its lookups and the DRAM traffic. Every
// field is a sum, so counters filled apart (one set per worker) add up to the same totals.
#include <cstdint>

#include "sim/gpu/gpu_result.hpp"
#include "sim/gpu/l1_hit_sources.hpp"
#include "sim/level_stats.hpp"

namespace cachesim {

// Each thread of a run (its SM front end, or an L2 slice) has a set of its own, written at every
// request: whole host cache lines, so that neighbouring sets in a vector do not share one.
struct alignas(64) GpuCounters {
    NcuCounters ncu;
    LevelStats l1, l2;
    std::uint64_t load_requests = 0, store_requests = 0;
    std::uint64_t load_sectors = 0, store_sectors = 0;
    std::uint64_t thread_reads = 0, thread_writes = 0;  // active lanes of the requests
    std::uint64_t memory_bytes_read = 0, memory_bytes_written = 0;
    L1HitSourceCounts l1_hit_sources;

    std::uint64_t requests() const { return load_requests + store_requests; }
    GpuCounters& operator+=(const GpuCounters& o);
    // Into the result (levels appended for the enabled caches, L1 first).
    void report(GpuResult& out, bool l1_enabled, bool l2_enabled) const;
};

// The counters of access `array` (the first array's for an out-of-range index).
inline ArrayCounters& array_counters(LevelStats& stats, std::uint16_t array) {
    return stats.per_array[array < stats.per_array.size() ? array : 0];
}

}  // namespace cachesim
