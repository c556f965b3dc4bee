#include "apps/cachesim/gpu_report.hpp"

#include "sim/gpu/gpu_parameters.hpp"
#include "sim/gpu/known_misses.hpp"
#include "traces/input_error.hpp"
#include "traces/warp_times.hpp"

namespace cachesim::cli {

void fill_gpu_report(const SimulationOptions& sim, const GpuResult& g, RunReport& report) {
    const GpuConfig& c = sim.gpu;
    report.model = "gpu";
    report.workload = sim.workload;
    report.trace_path = sim.workload ? std::string() : sim.trace_shown();
    report.hierarchy = sim.hierarchy;
    report.hierarchy.l1 = g.l1;
    report.result = g.result;
    report.ncu = g.ncu.metrics();
    auto n = [](std::uint64_t v) { return std::to_string(v); };
    report.parameters = {{"gpu", c.name}};
    const WorkloadSpec* workload = launch_workload(sim.workload ? &*sim.workload : nullptr, g.recorded_workload);
    // Every reported parameter as applied to the workload (gto ignores the spread, "auto" resolved).
    for (const GpuParameter& p : gpu_parameters())
        if (!p.report_key.empty())
            report.parameters.emplace_back(std::string(p.report_key), applied_value(p, c, workload));
    // Where the auto loop options above came from, when the trace carried the kernel's loop.
    if (sim.trace_loop) report.parameters.emplace_back("trace_loop", sim.trace_loop->describe());
    report.parameters.insert(report.parameters.end(), {
        {"warps_per_block", n(g.occupancy.warps_per_block)},
        {"resident_blocks_per_sm", n(g.occupancy.blocks_per_sm)},
        {"occupancy_limit", g.occupancy.limiter},
        {"shared_carveout_bytes", n(g.occupancy.carveout_bytes)},
        {"l1_bytes_per_sm", n(g.occupancy.l1_bytes)},
        {"blocks", n(g.blocks)},
        {"warps", n(g.warps)},
        {"rounds", n(g.rounds)},
        {"load_requests", n(g.load_requests)},
        {"store_requests", n(g.store_requests)},
        {"load_sectors", n(g.load_sectors)},
        {"store_sectors", n(g.store_sectors)},
        {"l2_far_lookups", n(g.l2_far_lookups())},
        {"l2_far_hits", n(g.l2_far_hits())},
        {"l2_sectors_coalesced", n(g.ncu.l2_sectors_coalesced)},
    });
    // (the configured L1, not the result's: a sweep's columns come from an empty result)
    if (c.count_l1_hit_sources && sim.hierarchy.l1.enabled()) {
        report.parameters.insert(report.parameters.end(), {
            {"l1_hits_own_warp", n(g.l1_hit_sources.own_warp)},
            {"l1_hits_own_block", n(g.l1_hit_sources.own_block)},
            {"l1_hits_other_block", n(g.l1_hit_sources.other_block)},
        });
        report.l1_hit_sources = g.l1_hit_sources;
    }
    for (const KnownMiss* miss : known_misses(workload, c, g.l1_other_block_points(c)))
        report.cautions.push_back(miss->sentence());
    if (c.timeline) {
        report.parameters.emplace_back("warp_times", c.timeline->source);
        report.parameters.emplace_back("warp_times_launch", n(c.timeline->launch));
    }
    // Rates depend on the machine, so they stay out of the (deterministic) parameters; "seconds"
    // and "accesses_per_second" report the time, bench_gpu_model requests and sectors per second.
}

void count_hit_sources_for_cautions(SimulationOptions& sim) {
    if (sim.model == ModelKind::gpu && sim.workload && known_misses_need_hit_sources(&*sim.workload, sim.gpu))
        sim.gpu.count_l1_hit_sources = true;
}

GpuResult run_gpu_model(const SimulationOptions& sim, RunReport& report, const RunControl& control) {
    if (!sim.workload && !sim.trace_cst)
        throw InputError("--model gpu needs a workload (--workload stencil|matmul) or a cst trace of a launch");
    RunControl held = control;
    held.gpu_traffic_memory_limit = sim.gpu_traffic_memory_limit;
    GpuResult g = sim.workload ? simulate_gpu_model(*sim.workload, sim.gpu, held)
                               : simulate_gpu_trace(sim.trace_path, sim.gpu, held);
    fill_gpu_report(sim, g, report);
    return g;
}

}  // namespace cachesim::cli
