#pragma once
// Short text lines describing a run (configuration, counters, the analytic figure) for legends
// and panels.
#include <optional>
#include <string>
#include <vector>

#include "sim/gpu/known_misses.hpp"
#include "sim/gpu/l1_hit_sources.hpp"
#include "sim/level_stats.hpp"
#include "sim/thread_model.hpp"
#include "traces/workload_spec.hpp"

namespace cachesim::viz {

// "L1 384 B: 24 lines x 16 B, fully associative, lru"
std::string describe_level(const CacheConfig& c);
// "12,345"
std::string thousands(std::uint64_t v);
// A GPU-model run's L1 hits by who brought the sector (the warp itself, another warp of its block,
// another block), as shares: "L1 hits from: own warp 23.0%, block 5.2%, other blocks 71.8%"
// (empty without hits).
std::string hit_sources_note(const L1HitSourceCounts& hits);
// The regions where the GPU model is known to miss the chip (sim/gpu/known_misses.hpp), in a few
// words: "model known off here (the list: docs/cli.md):", then a line per region, "  matmul
// strips wider than 128 columns: L1 4 to 17 points high" (none without regions).
std::vector<std::string> known_miss_notes(const std::vector<const KnownMiss*>& misses);
// What the run was, for the notes: the thesis's bounds apply only to the thread model.
struct RunKind {
    bool gpu_model = false;
    std::uint32_t sms = 0;
};

// Workload, caches, per-level misses and hit rates, and the thesis's fetch figure (first level)
// with the condition under which it holds, or one line saying why none is shown (a GPU-model run,
// a schedule the thesis gives no figure for, a condition that fails). The recommended column
// width is shown only when it is narrower than the image; otherwise the reason.
std::vector<std::string> run_notes(const std::optional<WorkloadSpec>& workload, const HierarchyConfig& hierarchy,
                                   const SimulationResult& result, const RunKind& kind = {});

}  // namespace cachesim::viz
