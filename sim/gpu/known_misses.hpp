#pragma once
// Launches where the GPU model's own pace is known to miss the chip by far more than the
// fidelity targets, measured outside the training set (the list: docs/cli.md, "cachesim
// simulate"). A run in such a region says so beside its figures, so that a user does
// not take them as checked. A replay of measured warp times (--warp-times) runs the chip's pace
// and is exempt.
#include <optional>
#include <string>
#include <vector>

#include "sim/gpu/gpu_config.hpp"
#include "traces/workload_spec.hpp"

namespace cachesim {

struct KnownMiss {
    bool (*applies)(const WorkloadSpec* workload, const GpuConfig& config);
    const char* region;  // "matmul strips wider than 128 columns"
    const char* effect;  // how far off, in a few words
    const char* detail;  // why, what was measured, and the docs section that explains it
    // A region bounded by what the run found too: from this many points of the run's L1 hit rate
    // from sectors another block of the SM brought (0: any run). Known only after a run that
    // counted the L1's hit sources; until then the region is reported where `applies` holds, its
    // text naming the bound.
    double min_other_block_points = 0;
    // "region: detail", as a run's report prints it
    std::string sentence() const { return std::string(region).append(": ").append(detail); }
};

// The regions the launch is in. workload: the built-in workload, or the one a recorded kernel
// was written from (null if none); other_block_points: the run's points of its L1 hit rate from
// other blocks (L1HitSourceCounts::other_block_points), where it counted them.
std::vector<const KnownMiss*> known_misses(const WorkloadSpec* workload, const GpuConfig& config,
                                           std::optional<double> other_block_points = std::nullopt);

// Whether the launch lies where a region is bounded by the points from other blocks, so that a run
// should count the L1's hit sources (GpuConfig::count_l1_hit_sources) to tell.
bool known_misses_need_hit_sources(const WorkloadSpec* workload, const GpuConfig& config);

}  // namespace cachesim
