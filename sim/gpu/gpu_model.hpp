#pragma once
// The GPU execution model: a launch of blocks of threads, warps issuing coalesced requests on SMs
// that advance in step, a private sectored L1 per SM and a shared (optionally two-partition) L2.
// See docs/gpu-model.md for the semantics. The parts: what issues requests (issue_scheduler.hpp
// and its mechanisms, or timeline_replay.hpp), the SM front end (sm_front_end.hpp), the L2
// system (l2_system.hpp), and the counters they fill (gpu_counters.hpp).
#include <cstdint>
#include <string>

#include "sim/gpu/block_start_skip.hpp"
#include "sim/gpu/cta_dispatch.hpp"
#include "sim/gpu/gpu_config.hpp"
#include "sim/gpu/gpu_result.hpp"
#include "sim/gpu/issue_burst.hpp"
#include "sim/gpu/ncu_counters.hpp"
#include "sim/gpu/partition_routing.hpp"
#include "sim/gpu/warp_rate.hpp"
#include "sim/level_stats.hpp"
#include "sim/thread_model.hpp"
#include "traces/workload_spec.hpp"

namespace cachesim {

// Runs one launch of `spec` (block size and hardware from `config`). RunControl: the observer sees
// every SM's L1 as level 0 and the L2 as level 1, and on_step_end once per round; progress and
// cancel are checked between rounds. Throws SimulationError for an invalid configuration.
GpuResult simulate_gpu_model(const WorkloadSpec& spec, const GpuConfig& config,
                             const RunControl& control = {});

// The warp requests a launch of `spec` issues (the work of a run, for progress estimates).
std::uint64_t gpu_warp_requests(const WorkloadSpec& spec, const GpuConfig& config);

// Replays the launch recorded in the cst version 2 trace at `path` (threads with their block and
// thread index, e.g. `cachesim trace` of a workload or traces/recorder.hpp of a kernel): blocks
// and warps from its geometry, whose threads per block must be config.block. Throws InputError
// for a bad trace (naming the byte offset), SimulationError for an invalid configuration.
GpuResult simulate_gpu_trace(const std::string& path, const GpuConfig& config, const RunControl& control = {});

}  // namespace cachesim
