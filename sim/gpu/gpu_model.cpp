#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/warp_rate.hpp"

#include <algorithm>
#include <deque>
#include <chrono>
#include <optional>
#include <thread>
#include <vector>

#include "sim/gpu/cycle_scheduler.hpp"
#include "sim/gpu/dispatch_plan.hpp"
#include "sim/gpu/dram_blocks.hpp"
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

// Whether a rounds pass of a built-in workload needs to know which blocks read from DRAM: its age
// weights depend on it and its L2 starts cold. (A recorded kernel's blocks go by the first wave.)
bool uses_dram_blocks(const GpuConfig& pass_config, const Launch& run, double age_weight, double warm_age_weight) {
    return run.workload && !run.recorded && !pass_config.pass_l2_warm && rates_drawn(pass_config) &&
           pass_config.warp_age_warm_group > 0 &&
           pass_config.warp_age_dram_blocks == WarpAgeDramBlocks::first_reads &&
           (age_weight != 1 || warm_age_weight != 1);
}

// What one pass over a launch gives: its counters and how it ran.
struct PassResult {
    GpuCounters counters;
    std::uint64_t rounds = 0, sm_batches = 0, sm_batch_runs = 0, warps_loaded = 0;
};

// Builds the parts for the policies chosen and runs the launch with the lock-step scheduler or
// the measured timeline. With a warm L2 (GpuConfig::l2_start) `warm_up` runs first, unmeasured
// and unobserved, on the same L2; the measured launch then starts with empty L1s, as on the chip,
// which invalidates them between kernels.
template <class L1Policy, class L2Policy>
void run_launch(const Launch& launch, const Launch* warm_up, const GpuConfig& config, const RunControl& control,
                GpuResult& out) {
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
    GpuCounters l2_counters = zero;

    std::vector<SectorCache<L1Policy>> l1s;
    std::optional<CacheGeometry> l1_geometry;
    if (l1_enabled) {
        l1_geometry = *make_geometry(out.l1).geometry;
        l1s.resize(config.sms);
    }
    const std::size_t slot_count = static_cast<std::size_t>(config.sms) * occupancy.warps_per_block * occupancy.blocks_per_sm;
    // The L2 first: the front ends split stores into its sectors.
    const Coalescer l1_shape(config.l1.line_bytes, config.l1.sector_bytes);
    L2System<L2Policy> l2(config, l1_shape.line_shift(), l1_shape.sector_shift(), l2_counters, control.observer);
    // The L2's slices replay in parallel (lockstep_run.hpp), and each in the host's caches; the
    // measured timeline plays in order.
    if (!config.timeline) l2.split(std::max(threads, l2.host_cache_slices()));
    // Cycle timing's arrivals, and its guess at what the L2 holds, which a warm start keeps.
    std::optional<L1Timing> timing;
    if (config.timing == IssueTiming::cycles && !config.timeline)
        timing.emplace(config, l1_enabled ? l1_geometry->lines : 0, config.l1.line_bytes / config.l1.sector_bytes);

    // Who filled each L1 sector, where the run counts its hits by their source.
    std::optional<L1HitSources> hit_sources;
    if (l1_enabled && config.count_l1_hit_sources)
        hit_sources.emplace(config.sms, l1_geometry->lines, l1_geometry->sectors_per_line);

    // One pass over a launch: fresh L1s, warps and front ends; the L2 as the pass before left it.
    const auto pass = [&](const Launch& run, const RunControl& ctl, bool measured) {
        PassResult result;
        for (std::uint32_t s = 0; s < l1s.size(); ++s)
            l1s[s].reset(*l1_geometry, config.seed * 0x9e3779b97f4a7c15ull + 1 + 2 * s, config.l1_set_index);
        std::vector<GpuCounters> front_counters(threads, zero);
        WarpSlots slots = run.recorded ? WarpSlots(*run.recorded, config, slot_count)
                                       : WarpSlots(*run.workload, config, slot_count);
        std::deque<SmFrontEnd<L1Policy>> fronts;  // (a deque: a front end is never moved)
        for (GpuCounters& counters : front_counters) {
            fronts.emplace_back(config, l1_enabled ? l1s.data() : nullptr, l2_enabled, l2.sector_shift(), counters,
                                ctl.observer);
            if (hit_sources) fronts.back().set_hit_sources(&*hit_sources);
        }
        // One entry per warp of the launch, filled as each ends (rounds and cycles alike).
        GpuConfig pass_config = config;
        pass_config.pass_l2_warm = warm_up && measured;
        if (!measured) {
            pass_config.warp_ends = nullptr;
            pass_config.warp_progress = nullptr;
            pass_config.issue_log = nullptr;
        }
        if (pass_config.warp_ends) pass_config.warp_ends->assign(run.blocks * occupancy.warps_per_block, GpuWarpEnd{});
        if (GpuWarpProgress* progress = pass_config.warp_progress) {
            progress->warps.assign(run.blocks * occupancy.warps_per_block, GpuWarpEnd{});
            progress->issued.assign(progress->warps.size(), {});
        }
        if (config.timeline) {
            replay_timeline(pass_config, slots, occupancy.warps_per_block, fronts[0], l2, ctl);
            result.rounds = 0;  // no rounds: the measured order
        } else if (timing) {  // rounds are cycles (docs/gpu-model.md)
            for (SmFrontEnd<L1Policy>& front : fronts) front.set_timing(&*timing);
            CycleScheduler scheduler(run.workload, pass_config, occupancy, slots, run.blocks);
            LockstepRun<L1Policy, L2Policy, CycleScheduler> lockstep(pass_config, slots, scheduler, fronts, front_counters,
                                                                      l2, ctl);
            result.rounds = lockstep.run(run.requests);
            result.sm_batches = lockstep.batches();
            result.sm_batch_runs = lockstep.batch_runs();
        } else {
            const std::uint32_t burst = issue_burst_for(config, run.workload);
            const double age_weight = warp_age_weight_for(config, run.workload);
            const double warm_age_weight = warp_age_warm_weight_for(config, run.workload);
            const double miss_wait =
                miss_wait_turns_for(config, run.workload, occupancy.warps_per_block * occupancy.blocks_per_sm);
            // Which blocks read from DRAM, where the age weights depend on it.
            std::vector<std::uint8_t> dram_blocks;
            if (uses_dram_blocks(pass_config, run, age_weight, warm_age_weight)) {
                dram_blocks = blocks_reading_dram(*run.workload, config.block, config.warp_size, run.blocks,
                                                  static_cast<std::uint64_t>(config.sms) * occupancy.blocks_per_sm,
                                                  config.l2.line_bytes, config.l2.sector_bytes);
                pass_config.pass_dram_blocks = &dram_blocks;
            }
            IssueScheduler scheduler(pass_config, occupancy, slots, run.blocks, burst, age_weight, miss_wait,
                                     warm_age_weight);
            LockstepRun<L1Policy, L2Policy> lockstep(pass_config, slots, scheduler, fronts, front_counters, l2, ctl);
            // On several threads, refills planned ahead let every SM of a chunk run side by side; not
            // where misses delay warps, since the plan is made without the caches.
            std::optional<DispatchPlanner> planner;
            if (threads > 1 && !run.recorded && dispatch_plannable(config) && miss_wait == 0) {
                planner.emplace(*run.workload, pass_config, occupancy, run.blocks, burst);
                lockstep.use_planner(*planner);
            }
            result.rounds = lockstep.run(run.requests);
            // Every block the run dispatched was planned, so the planner has loaded them all.
            if (planner) result.warps_loaded = planner->warps_loaded();
            result.sm_batches = lockstep.batches();
            result.sm_batch_runs = lockstep.batch_runs();
        }
        if (!result.warps_loaded) result.warps_loaded = slots.warps_loaded();
        result.counters = zero;
        for (const GpuCounters& c : front_counters) result.counters += c;
        return result;
    };

    const auto t0 = std::chrono::steady_clock::now();
    if (warm_up) {
        // The unmeasured launch: half of the progress, no observer, and its counters dropped.
        RunControl quiet = control;
        quiet.observer = nullptr;
        if (control.progress) quiet.progress = [&](double f) { control.progress(0.5 * f); };
        l2.mute_observer();
        pass(*warm_up, quiet, false);
        l2.start_launch(zero, control.observer);
        if (timing) timing->start_launch();
    }
    RunControl measured_control = control;
    if (warm_up && control.progress) measured_control.progress = [&](double f) { control.progress(0.5 + 0.5 * f); };
    PassResult measured = pass(launch, measured_control, true);

    GpuCounters& counters = measured.counters;
    counters += l2_counters;
    l2.add_slice_counters(counters);
    if (control.progress) control.progress(1.0);
    counters.report(out, l1_enabled, l2_enabled);
    SimulationResult& r = out.result;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.steps = launch.steps;  // work items (threads), as in the thread model (rounds are out.rounds)
    r.arrays = launch.arrays;
    out.rounds = measured.rounds;
    out.sm_batches = measured.sm_batches;
    out.sm_batch_runs = measured.sm_batch_runs;
    out.blocks = launch.blocks;
    out.warps = measured.warps_loaded;
}

// `warm_up`: the launch a warm L2 start runs first (GpuConfig::l2_start), or null.
GpuResult run_with_policies(const Launch& launch, const Launch* warm_up, const GpuConfig& given,
                            const RunControl& control) {
    const GpuConfig config = with_rate_form(given, launch.workload);  // lock step, or the rate scope and start skip
    if ((config.warp_ends || config.warp_progress) && config.timeline)
        throw SimulationError("warp ends and progress are not recorded with --warp-times, which replays measured ones");
    if (config.warp_progress && config.warp_progress->every == 0)
        throw SimulationError("warp progress needs samples at least 1 request apart");
    // OPT needs a pre-pass over each cache's own lookups, which the GPU model does not make.
    if (config.l1.policy == PolicyKind::opt || config.l2.policy == PolicyKind::opt)
        throw SimulationError("opt is not supported by the GPU model");
    GpuResult out;
    out.occupancy = gpu_occupancy(config);
    out.l1 = effective_l1(config);
    with_policy<GpuPolicies>(config.l2.policy, [&]<class L2Policy>() {
        with_policy<GpuPolicies>(config.l1.policy,
                                 [&]<class L1Policy>() { run_launch<L1Policy, L2Policy>(launch, warm_up, config, control, out); });
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
    const Launch launch = builtin_launch(spec, config);
    // A warm start runs the same launch first (its warps are generated afresh).
    return run_with_policies(launch, config.l2_start == L2Start::warm ? &launch : nullptr, config, control);
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
    const auto launch_of = [&](RecordedWarps& warps) {
        Launch launch;
        launch.workload = h.workload ? &*h.workload : nullptr;
        launch.recorded = &warps;
        launch.blocks = warps.blocks();
        launch.steps = h.steps;
        launch.requests = (h.accesses + config.warp_size - 1) / config.warp_size;
        launch.arrays = h.arrays;
        return launch;
    };
    // A warm start replays the trace once first, from a reader of its own (a reader decodes once).
    std::optional<RecordedWarps> first;
    std::optional<Launch> warm_up;
    if (config.l2_start == L2Start::warm) {
        first.emplace(path, readers);
        warm_up = launch_of(*first);
    }
    GpuResult out = run_with_policies(launch_of(recorded), warm_up ? &*warm_up : nullptr, config, control);
    out.recorded_workload = h.workload;
    return out;
}

}  // namespace cachesim
