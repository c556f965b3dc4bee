#pragma once
// Cycle timing's issue cost (GpuConfig::issue_cycles): how many cycles of its warp scheduler each
// global load request of a compiled loop takes, the loop's address arithmetic, clamps and adds
// included. A scheduler issues one instruction a cycle and its pipes take some instructions at
// half rate or less, so a loop with several instructions per load keeps its scheduler busy
// between loads; when the warps' loads come back faster than the scheduler can issue the rest,
// the warps compete for it instead of waiting for memory. Measured per compiled loop on the H200
// (scripts/device_issue_cost.sh, scripts/issue_cost_table.py: tests/data/h200/issue_cost/).
#include "sim/gpu/gpu_config.hpp"
#include "traces/loop_counters.hpp"
#include "traces/workload_spec.hpp"

namespace cachesim {

// The cycles per request cycle timing charges a scheduler: GpuConfig::issue_cycles, or for
// kIssueCyclesAuto the loop's (loop_issue_cost_for); 1 (one request a cycle) where that is unknown.
double cycle_issue_cost(const GpuConfig& config, const WorkloadSpec* spec);

// A launch's own loop, where the options leave it to auto: what limits it and its cost per request
// (from a measured row's counters or a recorded trace's instructions), and, when known (not 0),
// the loads of one iteration as the issue burst. The Hopper presets' scheduling rules read them
// as they read the H200's table for gpubench's loops.
void apply_launch_loop(GpuConfig& config, const LoopCounters& loop, std::uint32_t loads_per_iteration);

// The measured cost of gpubench's loop for this workload and compilation; 0 when not measured.
double measured_issue_cost(const WorkloadSpec& spec, KernelCompilation compilation);
// What limits gpubench's loop for this workload and compilation on the H200; automatic when not
// measured.
LoopLimit measured_loop_limit(const WorkloadSpec& spec, KernelCompilation compilation);

// The loop's cost per request as applied: GpuConfig::loop_issue_cost, or for kLoopIssueCostAuto the
// measured cost of gpubench's loop (spec null, a recorded kernel: 0, unknown).
double loop_issue_cost_for(const GpuConfig& config, const WorkloadSpec* spec);
// What limits the loop as applied: GpuConfig::loop_limit, or for automatic gpubench's loop as
// measured; issue for a loop not measured and a recorded kernel (spec null).
LoopLimit loop_limit_for(const GpuConfig& config, const WorkloadSpec* spec);

// GpuConfig::warp_age_weight as applied: the given weight, or for kWarpAgeWeightAuto
// kPipeBoundWarpAgeWeight for a loop a pipe limits (loop_limit_for) and 1 for any other.
double warp_age_weight_for(const GpuConfig& config, const WorkloadSpec* spec);
// GpuConfig::warp_age_warm_weight as applied: the given weight, or for kWarpAgeWeightAuto
// kPipeBoundWarmWarpAgeWeight for a loop a pipe limits and 1 for any other.
double warp_age_warm_weight_for(const GpuConfig& config, const WorkloadSpec* spec);
// GpuConfig::miss_wait_turns as applied to a launch with `warps_per_sm` resident warps: the given
// turns, or for kMissWaitAuto the share of a turn a miss makes a warp wait beyond its next turn.
// A scheduler's round robin comes back to a warp after one pass over its warps, (warps_per_sm /
// schedulers_per_sm) x burst x the loop's measured issue cost in cycles; a miss's data comes back
// after lat_l1_miss cycles. Where the pass is the longer, the data is there by the warp's next turn
// and a miss costs it nothing (0: loops the issue port or a pipe keeps busy); where it is the
// shorter, the warp waits (lat_l1_miss - pass) / pass turns more than one that hit. The cost is
// loop_issue_cost_for's; 0 where it is unknown. A recorded kernel's burst is GpuConfig::issue_burst
// (its trace's loads per iteration, apply_launch_loop); 0 while that is auto, the burst unknown.
double miss_wait_turns_for(const GpuConfig& config, const WorkloadSpec* spec, std::uint32_t warps_per_sm);
// GpuConfig::lockstep_warps as applied: the given count, or for kLockstepWarpsAuto the warps a
// scheduler keeps at a lone warp's pace in gpubench's compiled matmul loop (kLockstepWarps*), 0
// for loops not measured so (the stencils', a recorded kernel's).
std::uint32_t lockstep_warps_for(const GpuConfig& config, const WorkloadSpec* spec);
// Measured on the knee probe started with its arrays in the L2 (scripts/device_issue_cost.sh
// knee_timed: one wave of the matmul at depth 3072, m warps on every scheduler): the largest m for
// which the launch at m, and at every smaller m, took at most 1.1 times a lone warp's time. From
// the H100's run at every m from 1 to 12 and 16 (tests/data/h100/issue_cost/knee_timed_fine_warm.csv;
// its ratios fall on the same side of 1.1 as the H200's knee_timed_warm.csv at every m both have):
// the 64-bit loop 1.09 at 11, 1.42 at 12; the 32-bit loop 1.08 at 6, 1.49 at 7; the unrolled-once
// loop 1.10 at 12, 1.13 at 16 (nothing measured between).
inline constexpr std::uint32_t kLockstepWarpsIndex64Matmul = 11;
inline constexpr std::uint32_t kLockstepWarpsIndex32Matmul = 6;
inline constexpr std::uint32_t kLockstepWarpsUnroll1Matmul = 12;
// Measured: the pace of the warps the H200 leaves behind its group, each W times the one before
// (scripts/warp_age_measure.py on the knee probe's warp ends, tests/data/h200/issue_cost/
// warp_age_measure.csv; docs/model-studies.md).
inline constexpr double kPipeBoundWarpAgeWeight = 0.863;
// The same measured with the loop's data in the L2 (the knee probe started warm).
inline constexpr double kPipeBoundWarmWarpAgeWeight = 0.591;
// Measured the same way: how many of a scheduler's oldest warps the H200 keeps together.
inline constexpr std::uint32_t kPipeBoundWarpAgeGroup = 12;

}  // namespace cachesim
