#include "apps/cachesim/gpu_report.hpp"

#include "traces/input_error.hpp"
#include "traces/warp_times.hpp"

namespace cachesim::cli {

void fill_gpu_report(const SimulationOptions& sim, const GpuResult& g, RunReport& report) {
    const GpuConfig& c = sim.gpu;
    report.model = "gpu";
    report.workload = sim.workload;
    report.trace_path.clear();
    report.hierarchy = sim.hierarchy;
    report.hierarchy.l1 = g.l1;
    report.result = g.result;
    report.ncu = g.ncu.metrics();
    auto n = [](std::uint64_t v) { return std::to_string(v); };
    report.parameters = {
        {"gpu", c.name},
        {"block", n(c.block)},
        {"sms", n(c.sms)},
        {"warp_size", n(c.warp_size)},
        {"threads_per_sm", n(c.max_threads_per_sm)},
        {"blocks_per_sm", n(c.max_blocks_per_sm)},
        {"warps_per_block", n(g.occupancy.warps_per_block)},
        {"resident_blocks_per_sm", n(g.occupancy.blocks_per_sm)},
        {"occupancy_limit", g.occupancy.limiter},
        {"shared_carveout_bytes", n(g.occupancy.carveout_bytes)},
        {"l1_bytes_per_sm", n(g.occupancy.l1_bytes)},
        {"l2_partitions", n(c.l2_partitions)},
        {"l2_partition_map", std::string(partition_map_name(c.partition_map))},
        {"l2_fill", std::string(partition_fill_name(c.partition_fill))},
        {"l2_index", c.l2_hashed_sets ? "hash" : "mod"},
        {"dram_fetch_bytes", n(c.dram_fetch_bytes)},
        {"l2_coalesce_hit_rounds", n(c.l2_coalesce_hit_rounds)},
        {"l2_coalesce_miss_rounds", n(c.l2_coalesce_miss_rounds)},
        {"l2_coalesce_max", n(c.l2_coalesce_requesters)},
        {"l2_coalesce_among", std::string(coalesce_scope_name(c.l2_coalesce_scope))},
        {"cta_order", std::string(cta_order_name(c.cta_order))},
        {"cta_refill", std::string(cta_refill_name(c.cta_refill))},
        {"warp_scheduler", std::string(warp_scheduler_name(c.scheduler))},
        // as applied: gto ignores the spread
        {"warp_rate_spread", c.scheduler == WarpScheduler::lrr ? short_number(c.warp_rate_spread) : std::string("0")},
        // as applied: the workload's value for "auto"; gto and a measured timeline use neither
        {"issue_burst", n(c.timeline || !sim.workload ? 1 : issue_burst_for(c, *sim.workload))},
        {"block_start_skip", n(c.timeline || c.scheduler != WarpScheduler::lrr ? 0 : c.block_start_skip)},
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
    };
    if (c.timeline) {
        report.parameters.emplace_back("warp_times", c.timeline->source);
        report.parameters.emplace_back("warp_times_launch", n(c.timeline->launch));
    }
    // Rates depend on the machine, so they stay out of the (deterministic) parameters; "seconds"
    // and "accesses_per_second" report the time, bench_gpu_model requests and sectors per second.
}

GpuResult run_gpu_model(const SimulationOptions& sim, RunReport& report, const RunControl& control) {
    if (!sim.workload) throw InputError("--model gpu needs a workload (--workload stencil|matmul)");
    GpuResult g = simulate_gpu_model(*sim.workload, sim.gpu, control);
    fill_gpu_report(sim, g, report);
    return g;
}

}  // namespace cachesim::cli
