#pragma once
// The host memory a GPU model run takes, worked out from its configuration before it starts, so
// that a run too large for the machine is refused up front (apps/common/memory_estimate.hpp).
// Every part but the buffered L2 traffic is fixed by the configuration; the traffic follows the
// L1's misses, so it is given as a bound, and a run can be held to a smaller share of memory
// (RunControl::gpu_traffic_memory_limit).
#include <cstdint>

#include "sim/gpu/gpu_config.hpp"
#include "traces/workload_spec.hpp"

namespace cachesim {

struct GpuFootprint {
    std::uint64_t l1s = 0;         // every SM's L1 tags and replacement state; who filled each sector
    std::uint64_t l2 = 0;          // the L2's partitions
    std::uint64_t l2_coalescer = 0;  // the L2 request coalescer's windows (--l2-coalesce-*)
    std::uint64_t run_state = 0;   // warp slots, the lock step's per-SM buffers, the dispatch plan, cycle timing
    std::uint64_t step_tables = 0; // a work item's requests worked out once, per copy of the warp slots
    std::uint64_t l2_traffic = 0;  // the L1 misses buffered for the L2, at most (one chunk, or two on several threads)
};

// The footprint of a run of `spec` (null: a recorded launch, whose length the bound does not know)
// under `config`: `serial`, a run on one thread (one chunk buffered, no dispatch plan; an observer
// makes every run so), else on several (two chunks buffered, and the plan).
GpuFootprint gpu_footprint(const GpuConfig& config, const WorkloadSpec* spec, bool serial = false);

}  // namespace cachesim
