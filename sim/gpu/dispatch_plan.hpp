#pragma once
// Which block each SM receives whenever one of its blocks finishes, worked out before the run.
//
// Where the issue order does not depend on the caches (rounds under loose round robin, with or
// without rates and start skips: a warp's turn never waits on a hit or a miss), the lock step's
// refills follow from the scheduler alone. Run alone, without addresses or caches, it gives the
// whole dispatch order at a small part of the run's cost. With that plan the SMs of a chunk do not
// wait for one another's refills (lockstep_run.hpp): every SM runs the chunk through on a thread of
// its own, dispatching its planned blocks as it goes, and the results are those of one thread.
#include <cstdint>
#include <vector>

#include "sim/gpu/gpu_config.hpp"
#include "traces/workload_spec.hpp"

namespace cachesim {

struct PlannedBlock {
    std::uint64_t round = 0;  // the round in which one of the SM's blocks finished
    std::uint64_t block = 0;  // the launch block it receives
    std::uint64_t age = 0;    // the dispatch order (WarpSlot::age) of the block's first warp
};

struct DispatchPlan {
    std::vector<std::vector<PlannedBlock>> per_sm;  // in the order each SM receives them
    std::uint64_t warps = 0;                        // warps the launch loads in all
};

// Whether a launch with this configuration can be planned: its issue order does not depend on
// hits (not greedy then oldest, which stalls on misses; not cycle timing, where warps wait for data).
bool dispatch_plannable(const GpuConfig& config);

// The plan of a built-in launch of `blocks` blocks whose warps issue `burst` requests a turn.
DispatchPlan plan_dispatch(const WorkloadSpec& spec, const GpuConfig& config, const GpuOccupancy& occupancy,
                           std::uint64_t blocks, std::uint32_t burst);

}  // namespace cachesim
