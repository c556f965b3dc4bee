#include "sim/gpu/gpu_model.hpp"

#include <algorithm>
#include <deque>
#include <chrono>
#include <optional>
#include <thread>
#include <vector>

#include "sim/gpu/cycle_scheduler.hpp"
#include "sim/gpu/dispatch_plan.hpp"
#include "sim/gpu/issue_scheduler.hpp"
#include "sim/gpu/l2_system.hpp"
#include "sim/gpu/list_policies.hpp"
#include "sim/gpu/lockstep_run.hpp"
#include "sim/gpu/loop_issue_cost.hpp"
#include "sim/gpu/sm_front_end.hpp"
#include "sim/gpu/timeline_replay.hpp"
#include "sim/gpu/warp_slots.hpp"
#include "sim/policy_dispatch.hpp"

namespace cachesim {

namespace {

// What a run replays: a built-in workload, or a recorded launch (with the workload it was written
// from, if any, for "auto" parameters).
struct Launch {
    const WorkloadSpec* workload = nullptr;
    RecordedWarps* recorded = nullptr;
    std::uint64_t blocks = 0, steps = 0;
    std::uint64_t requests = 0;  // for progress (an estimate for a recorded launch)
    std::vector<ArrayInfo> arrays;
};

Launch builtin_launch(const WorkloadSpec& spec, const GpuConfig& config) {
    Launch l;
    l.workload = &spec;
    l.blocks = (spec.items() + config.block - 1) / config.block;
    l.steps = spec.items();
    l.requests = warps_in_range(spec.items(), config.block, config.warp_size) * spec.accesses_per_item();
    l.arrays = spec.arrays();
    return l;
}

// Builds the parts for the policies chosen and runs the launch with the lock-step scheduler or
// the measured timeline.
template <class L1Policy, class L2Policy>
void run_launch(const Launch& launch, const GpuConfig& config, const RunControl& control, GpuResult& out) {
    const GpuOccupancy& occupancy = out.occupancy;
    const bool l1_enabled = out.l1.enabled(), l2_enabled = config.l2.enabled();
    // Measured timing, an observer and an issue log take every request in one order: one thread.
    const bool serial = config.timeline || control.observer || config.issue_log;
    const std::uint32_t threads = serial ? 1 : std::clamp<std::uint32_t>(control.threads, 1, config.sms);
    // Each thread's front end and the L2 fill counters of their own; they are summed at the end.
    GpuCounters zero;
    const std::size_t arrays = std::max<std::size_t>(1, launch.arrays.size());
    zero.l1.name = "L1";
    zero.l2.name = "L2";
    zero.l1.per_array.assign(arrays, ArrayCounters{});
    zero.l2.per_array.assign(arrays, ArrayCounters{});
    std::vector<GpuCounters> front_counters(threads, zero);
    GpuCounters l2_counters = zero;

    std::vector<SectorCache<L1Policy>> l1s;
    if (l1_enabled) {
        const CacheGeometry g = *make_geometry(out.l1).geometry;
        l1s.resize(config.sms);
        for (std::uint32_t s = 0; s < config.sms; ++s) l1s[s].reset(g, config.seed * 0x9e3779b97f4a7c15ull + 1 + 2 * s, config.l1_set_index);
    }
    const std::size_t slot_count = static_cast<std::size_t>(config.sms) * occupancy.warps_per_block * occupancy.blocks_per_sm;
    WarpSlots slots = launch.recorded ? WarpSlots(*launch.recorded, config, slot_count)
                                      : WarpSlots(*launch.workload, config, slot_count);
    // The L2 first: the front ends split stores into its sectors.
    const Coalescer l1_shape(config.l1.line_bytes, config.l1.sector_bytes);
    L2System<L2Policy> l2(config, l1_shape.line_shift(), l1_shape.sector_shift(), l2_counters, control.observer);
    // The L2's slices replay in parallel (lockstep_run.hpp), and each in the host's caches; the
    // measured timeline plays in order.
    if (!config.timeline) l2.split(std::max(threads, l2.host_cache_slices()));
    std::deque<SmFrontEnd<L1Policy>> fronts;  // (a deque: a front end is never moved)
    for (GpuCounters& counters : front_counters)
        fronts.emplace_back(config, l1_enabled ? l1s.data() : nullptr, l2_enabled, l2.sector_shift(), counters,
                            control.observer);

    // One entry per warp of the launch, filled as each ends (rounds and cycles alike).
    if (config.warp_ends) config.warp_ends->assign(launch.blocks * occupancy.warps_per_block, GpuWarpEnd{});
    const auto t0 = std::chrono::steady_clock::now();
    std::uint64_t warps_loaded = 0;  // a planned run's (its SMs load on their own: WarpSlots::load_planned)
    if (config.timeline) {
        replay_timeline(config, slots, occupancy.warps_per_block, fronts[0], l2, control);
        out.rounds = 0;  // no rounds: the measured order
    } else if (config.timing == IssueTiming::cycles) {  // rounds are cycles (docs/gpu-model.md)
        L1Timing timing(config, l1_enabled ? l1s[0].geometry().lines : 0, config.l1.line_bytes / config.l1.sector_bytes);
        for (SmFrontEnd<L1Policy>& front : fronts) front.set_timing(&timing);
        CycleScheduler scheduler(launch.workload, config, occupancy, slots, launch.blocks);
        LockstepRun<L1Policy, L2Policy, CycleScheduler> run(config, slots, scheduler, fronts, front_counters, l2, control);
        out.rounds = run.run(launch.requests);
        out.sm_batches = run.batches();
        out.sm_batch_runs = run.batch_runs();
    } else {
        const std::uint32_t burst = issue_burst_for(config, launch.workload);
        const double age_weight = warp_age_weight_for(config, launch.workload);
        const double miss_wait =
            miss_wait_turns_for(config, launch.workload, occupancy.warps_per_block * occupancy.blocks_per_sm);
        IssueScheduler scheduler(config, occupancy, slots, launch.blocks, burst, age_weight, miss_wait);
        LockstepRun<L1Policy, L2Policy> lockstep(config, slots, scheduler, fronts, front_counters, l2, control);
        // On several threads, refills planned ahead let every SM of a chunk run side by side; not
        // where misses delay warps, since the plan is made without the caches.
        std::optional<DispatchPlanner> planner;
        if (threads > 1 && !launch.recorded && dispatch_plannable(config) && miss_wait == 0) {
            planner.emplace(*launch.workload, config, occupancy, launch.blocks, burst);
            lockstep.use_planner(*planner);
        }
        out.rounds = lockstep.run(launch.requests);
        // Every block the run dispatched was planned, so the planner has loaded them all.
        if (planner) warps_loaded = planner->warps_loaded();
        out.sm_batches = lockstep.batches();
        out.sm_batch_runs = lockstep.batch_runs();
    }

    GpuCounters counters = zero;
    for (const GpuCounters& c : front_counters) counters += c;
    counters += l2_counters;
    l2.add_slice_counters(counters);
    if (control.progress) control.progress(1.0);
    counters.report(out, l1_enabled, l2_enabled);
    SimulationResult& r = out.result;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.steps = launch.steps;  // work items (threads), as in the thread model (rounds are out.rounds)
    r.arrays = launch.arrays;
    out.blocks = launch.blocks;
    out.warps = warps_loaded ? warps_loaded : slots.warps_loaded();
}

GpuResult run_with_policies(const Launch& launch, const GpuConfig& config, const RunControl& control) {
    if (config.warp_ends && config.timeline)
        throw SimulationError("warp ends are not recorded with --warp-times, which replays measured ones");
    // OPT needs a pre-pass over each cache's own lookups, which the GPU model does not make.
    if (config.l1.policy == PolicyKind::opt || config.l2.policy == PolicyKind::opt)
        throw SimulationError("opt is not supported by the GPU model");
    GpuResult out;
    out.occupancy = gpu_occupancy(config);
    out.l1 = effective_l1(config);
    with_policy<GpuPolicies>(config.l2.policy, [&]<class L2Policy>() {
        with_policy<GpuPolicies>(config.l1.policy,
                                 [&]<class L1Policy>() { run_launch<L1Policy, L2Policy>(launch, config, control, out); });
    });
    return out;
}

}  // namespace

std::uint64_t gpu_warp_requests(const WorkloadSpec& spec, const GpuConfig& config) {
    return builtin_launch(spec, config).requests;
}

GpuResult simulate_gpu_model(const WorkloadSpec& spec, const GpuConfig& config, const RunControl& control) {
    validate(spec);
    validate(config);
    if (config.timeline) validate_timeline(spec, config);
    return run_with_policies(builtin_launch(spec, config), config, control);
}

GpuResult simulate_gpu_trace(const std::string& path, const GpuConfig& config, const RunControl& control) {
    validate(config);
    if (config.timeline)
        throw SimulationError("--warp-times replays the launches of the built-in workloads, not a recorded trace");
    // Decoding runs on threads of its own beside the model's where cores are left for it: on a
    // machine of more than two cores whatever the model's threads (faster on the 16-core GPU host
    // even at all of them: the SMs' threads wait at each chunk's end), a reader per four cores up
    // to four (a launch's first blocks fill every SM before the first request issues, so their
    // decoding is waited for); on two cores one, beside a model on one thread only (with two it
    // takes turns with the SMs' threads: measured slower); see docs/speed.md, "In the GPU model".
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const unsigned readers = cores > 2 ? std::clamp(cores / 4, 1u, 4u) : (cores == 2 && control.threads == 1 ? 1u : 0u);
    RecordedWarps recorded(path, readers);
    const cst::TraceHeader& h = recorded.header();
    if (recorded.threads_per_block() != config.block)
        throw SimulationError(path + ": the trace's launch has blocks of " + std::to_string(recorded.threads_per_block()) +
                              " threads (" + h.launch->describe() + "), the configuration " + std::to_string(config.block));
    Launch launch;
    launch.workload = h.workload ? &*h.workload : nullptr;
    launch.recorded = &recorded;
    launch.blocks = recorded.blocks();
    launch.steps = h.steps;
    launch.requests = (h.accesses + config.warp_size - 1) / config.warp_size;
    launch.arrays = h.arrays;
    GpuResult out = run_with_policies(launch, config, control);
    out.recorded_workload = h.workload;
    return out;
}

}  // namespace cachesim
