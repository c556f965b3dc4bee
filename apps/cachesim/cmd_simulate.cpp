// cachesim simulate: one configuration, one report.
#include <algorithm>
#include <iostream>
#include <sstream>

#include "apps/common/atomic_file.hpp"
#include "apps/common/explain.hpp"
#include "apps/common/memory_estimate.hpp"
#include "apps/cachesim/gpu_report.hpp"
#include "apps/common/options.hpp"
#include "apps/cachesim/report.hpp"
#include "apps/cachesim/subcommands.hpp"
#include "apps/cachesim/sweep_progress.hpp"
#include "traces/choice_hint.hpp"
#include "traces/input_error.hpp"
#include "traces/atomic_output.hpp"
#include "traces/warp_times.hpp"

namespace cachesim::cli {

namespace {

po::options_description output_options() {
    po::options_description d("Output");
    d.add_options()
        ("format", po::value<std::string>()->default_value("table"), "table | json | csv")
        ("output,out,o", po::value<std::string>(), "write the report to FILE (atomically) instead of stdout")
        ("explain", po::bool_switch(),
         "GPU model: print every parameter with its value and where it comes from (measured, documented, "
         "fitted, assumed or set by the user) instead of simulating")
        ("show-reuse", po::bool_switch(), "table format: print the reuse-distance histograms")
        ("warp-ends", po::value<std::string>(),
         "GPU model: also write FILE (CSV, atomically): per warp that issued, block,warp,sm,slot and "
         "its end: end_cycle, the cycle its last data arrived (--timing cycles), or end_round, 1 + the "
         "round of its last request (rounds); the columns of gpubench --warp-ends, to compare the "
         "model's warp order with the chip's")
        ("warp-progress", po::value<std::string>(),
         "GPU model: also write FILE (CSV, atomically): per warp that issued, block,warp,sm,slot, the "
         "time it issued its requests 0, N, 2N, ... (columns r0, rN, ...; empty past a warp's last) and "
         "1 + that of its last request (end_round, or end_cycle under --timing cycles): the model's pace, "
         "to set beside progressprobe's samples of a chip")
        ("warp-progress-every", po::value<std::uint32_t>()->default_value(128),
         "GPU model: N, the requests between two of --warp-progress's samples (a built-in matmul issues "
         "2 a step of its loop, so 128 is every 64 steps, as progressprobe samples)")
        ("hit-sources", po::bool_switch(),
         "GPU model: count the L1's read hits by who brought the sector: the same warp, another warp "
         "of its block, or another block on the SM (printed under the L1, and as the parameters "
         "l1_hits_own_warp, l1_hits_own_block, l1_hits_other_block); hits from another block last only "
         "while the SM's blocks keep in step, and a note says so where they make 10 points or more of "
         "the L1 hit rate. 10-15% slower");
    return d;
}

po::options_description execution_options() {
    po::options_description d("Execution");
    d.add_options()
        ("threads", po::value<std::uint32_t>()->default_value(0),
         "GPU model: threads that run the SMs of each chunk of rounds (0: one per core); the results "
         "do not depend on it")
        ("quiet,q", po::bool_switch(),
         "no progress line (on a terminal, a run that takes over 2 s shows its share done and ETA on stderr)")
        ("dry-run", po::bool_switch(),
         "check the options and the trace's format, print the memory estimate ('memory estimate: N bytes "
         "...') and exit without simulating");
    return d;
}

// --warp-ends: the warps that issued, in launch order; `unit` names the end's column (cycle, round).
std::string warp_ends_csv(const std::vector<GpuWarpEnd>& ends, const char* unit) {
    std::ostringstream out;
    out << "block,warp,sm,slot,end_" << unit << '\n';
    for (const GpuWarpEnd& e : ends)
        if (e.end != 0) out << e.block << ',' << e.warp << ',' << e.sm << ',' << e.slot << ',' << e.end << '\n';
    return out.str();
}

// --warp-progress: the warps that issued, in launch order; `unit` names the end's column.
std::string warp_progress_csv(const GpuWarpProgress& progress, const char* unit) {
    std::size_t columns = 0;
    for (const std::vector<std::uint64_t>& times : progress.issued) columns = std::max(columns, times.size());
    std::ostringstream out;
    out << "block,warp,sm,slot";
    for (std::size_t j = 0; j < columns; ++j) out << ",r" << j * progress.every;
    out << ",end_" << unit << '\n';
    for (std::size_t i = 0; i < progress.warps.size(); ++i) {
        const GpuWarpEnd& w = progress.warps[i];
        if (w.end == 0) continue;
        out << w.block << ',' << w.warp << ',' << w.sm << ',' << w.slot;
        const std::vector<std::uint64_t>& times = progress.issued[i];
        for (std::size_t j = 0; j < columns; ++j) {
            out << ',';
            if (j < times.size()) out << times[j];
        }
        out << ',' << w.end << '\n';
    }
    return out.str();
}

// --threads: 0 is every core the machine reports (at least one).
std::uint32_t thread_count(const po::variables_map& vm) {
    const std::uint32_t given = vm["threads"].as<std::uint32_t>();
    if (given > 1024) throw InputError("--threads " + std::to_string(given) + " must be between 0 and 1024");
    return workers_or_all_cores(given);
}

// Options the run would not use are a mistake to report, not to ignore.
void reject_unused_options(const po::variables_map& vm, const SimulationOptions& sim) {
    const bool gpu = sim.model == ModelKind::gpu;
    if (vm["explain"].as<bool>())
        for (const char* key : {"warp-ends", "warp-progress", "hit-sources", "show-reuse", "dry-run"})
            if (given(vm, key))
                throw InputError(std::string("--") + key +
                                 " does not apply with --explain, which prints the parameters instead of simulating");
    if (vm["explain"].as<bool>() && vm["format"].as<std::string>() != "table")
        throw InputError("--explain prints a table of the parameters; --format " + vm["format"].as<std::string>() +
                         " does not apply (the report's parameters are in every format of a run)");
    if (given(vm, "warp-progress-every") && !vm.count("warp-progress"))
        throw InputError("--warp-progress-every sets the samples of --warp-progress, and none is given");
    if (!gpu && given(vm, "threads"))
        throw InputError("--threads runs the GPU model's SMs on several threads; the thread model runs on one "
                         "(add --model gpu)");
    if (vm["show-reuse"].as<bool>()) {
        if (gpu) throw InputError("--show-reuse prints the thread model's reuse histograms; the GPU model keeps none");
        if (!sim.hierarchy.analysis) throw InputError("--show-reuse prints the analysis, which --no-analysis turns off");
        if (vm["format"].as<std::string>() != "table")
            throw InputError("--show-reuse adds the histograms to the table; --format json always has them "
                             "(reuse_distance) and csv has none");
    }
    if (gpu && vm.count("no-analysis") && vm["no-analysis"].as<bool>())
        throw InputError("--no-analysis turns off the thread model's analysis; the GPU model has none");
}

}  // namespace

int run_simulate(int argc, char** argv) {
    po::options_description options;
    options.add(common_options()).add(workload_options()).add(cache_options()).add(gpu_options()).add(timing_options()).add(output_options()).add(execution_options()).add(memory_options());
    const auto vm = parse_command_line(
        argc, argv, options,
        "usage: cachesim simulate [options]\n\n"
        "Replays a workload (or a trace) through L1 -> L2 -> memory and reports per-level counters.\n"
        "With no options: the thesis's Table 3.1 scenario (7x7 stencil on 16x16, 24 fully\n"
        "associative LRU lines of 16 B, no L2).");
    if (!vm) return 0;
    const std::string format = (*vm)["format"].as<std::string>();
    if (format != "table" && format != "json" && format != "csv")
        throw InputError("--format: expected table, json or csv, not '" + format + "'" + case_hint(format, {"table", "json", "csv"}));

    // An output is checked before the run, not after it: writable, and not a file the run reads.
    std::vector<NamedPath> outputs;
    for (const char* key : {"output", "warp-ends", "warp-progress"})
        if (vm->count(key)) outputs.push_back({(*vm)[key].as<std::string>(), std::string("--") + key});
    check_outputs(outputs, input_files(*vm));
    RunReport report;
    SimulationOptions sim = read_simulation_options(*vm);
    reject_unused_options(*vm, sim);
    if ((*vm)["explain"].as<bool>()) {
        if (sim.model != ModelKind::gpu)
            throw InputError("--explain lists the GPU model's parameters: it needs --model gpu or a GPU preset");
        std::ostringstream text;
        print_explanation(text, sim);
        if (vm->count("output")) write_file_atomically((*vm)["output"].as<std::string>(), text.str());
        else std::cout << text.str();
        return 0;
    }
    if ((*vm)["hit-sources"].as<bool>()) {
        if (sim.model != ModelKind::gpu)
            throw InputError("--hit-sources counts the GPU model's L1 hits: it needs --model gpu (or a GPU preset)");
        sim.gpu.count_l1_hit_sources = true;
    }
    WarpTimeline timeline;
    read_timeline(*vm, sim, timeline);
    count_hit_sources_for_cautions(sim);
    const MemoryEstimate memory = estimate_memory(sim, max_memory_option(*vm));
    sim.hierarchy.opt_max_lookups = memory.opt_lookup_limit;
    sim.gpu_traffic_memory_limit = memory.gpu_traffic_limit();
    if ((*vm)["dry-run"].as<bool>()) {
        std::cout << "memory estimate: " << memory.total() << " bytes, " << memory.describe() << "\n";
        return 0;
    }
    report.model = std::string(model_name(sim.model));
    report.workload = sim.workload;
    report.trace_path = sim.trace_shown();
    report.hierarchy = sim.hierarchy;
    std::vector<GpuWarpEnd> warp_ends;
    const std::string warp_ends_path = vm->count("warp-ends") ? (*vm)["warp-ends"].as<std::string>() : "";
    if (!warp_ends_path.empty()) {
        // the GPU model refuses a measured timeline itself (run_with_policies), before it simulates
        if (sim.model != ModelKind::gpu)
            throw InputError("--warp-ends records the GPU model's warps: it needs --model gpu (or a GPU preset)");
        check_output_writable(warp_ends_path, "--warp-ends");  // before the simulation, not after it
        sim.gpu.warp_ends = &warp_ends;
    }
    GpuWarpProgress warp_progress;
    const std::string warp_progress_path = vm->count("warp-progress") ? (*vm)["warp-progress"].as<std::string>() : "";
    if (!warp_progress_path.empty()) {
        if (sim.model != ModelKind::gpu)
            throw InputError("--warp-progress records the GPU model's warps: it needs --model gpu (or a GPU preset)");
        warp_progress.every = (*vm)["warp-progress-every"].as<std::uint32_t>();
        if (warp_progress.every == 0) throw InputError("--warp-progress-every must be at least 1");
        check_output_writable(warp_progress_path, "--warp-progress");
        sim.gpu.warp_progress = &warp_progress;
    }
    RunProgress progress(!(*vm)["quiet"].as<bool>());
    RunControl control;
    control.progress = progress.callback();
    if (sim.model == ModelKind::gpu) {
        control.threads = thread_count(*vm);
        run_gpu_model(sim, report, control);
        const char* unit = sim.gpu.timing == IssueTiming::cycles ? "cycle" : "round";
        if (!warp_ends_path.empty()) write_file_atomically(warp_ends_path, warp_ends_csv(warp_ends, unit));
        if (!warp_progress_path.empty())
            write_file_atomically(warp_progress_path, warp_progress_csv(warp_progress, unit));
    } else {
        auto source = make_source(sim);
        control.analysis_memory_limit = memory.analysis_limit();
        report.result = simulate_thread_model(*source, sim.hierarchy, control);
    }
    progress.finish();

    std::ostringstream text;
    if (format == "json") text << to_json(report).dump(2) << "\n";
    else if (format == "csv") print_csv(text, report);
    else print_table(text, report, (*vm)["show-reuse"].as<bool>());
    if (vm->count("output")) write_file_atomically((*vm)["output"].as<std::string>(), text.str());
    else std::cout << text.str();
    return 0;
}

}  // namespace cachesim::cli
