#pragma once
// Launches where the GPU model's own pace is known to miss the chip by far more than the
// fidelity targets, measured outside the training and held-out sets (the list: docs/cli.md,
// "cachesim simulate"). A run in such a region says so beside its figures, so that a user does
// not take them as checked. A replay of measured warp times (--warp-times) runs the chip's pace
// and is exempt.
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
    // "region: detail", as a run's report prints it
    std::string sentence() const { return std::string(region).append(": ").append(detail); }
};

// The regions the launch is in. workload: the built-in workload, or the one a recorded kernel
// was written from (null if none).
std::vector<const KnownMiss*> known_misses(const WorkloadSpec* workload, const GpuConfig& config);

}  // namespace cachesim
