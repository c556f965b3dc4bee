#pragma once
// Short text lines describing a run (configuration, counters, the analytic figure) for legends
// and panels.
#include <optional>
#include <string>
#include <vector>

#include "sim/level_stats.hpp"
#include "sim/thread_model.hpp"
#include "traces/workload_spec.hpp"

namespace cachesim::viz {

// "L1 384 B: 24 lines x 16 B, fully associative, lru"
std::string describe_level(const CacheConfig& c);
// "12,345"
std::string thousands(std::uint64_t v);
// Workload, caches, per-level misses and hit rates, and the thesis's fetch figure (first level).
std::vector<std::string> run_notes(const std::optional<WorkloadSpec>& workload, const HierarchyConfig& hierarchy,
                                   const SimulationResult& result);

}  // namespace cachesim::viz
