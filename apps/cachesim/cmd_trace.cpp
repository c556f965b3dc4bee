// cachesim trace: write a workload's (or another trace's) per-thread accesses as a cst file.
#include <iostream>

#include "apps/cachesim/options.hpp"
#include "apps/cachesim/subcommands.hpp"
#include "apps/cachesim/sweep_progress.hpp"
#include "traces/input_error.hpp"
#include "traces/trace_format_writer.hpp"

namespace cachesim::cli {

namespace {

po::options_description trace_output_options() {
    po::options_description d("Output");
    d.add_options()
        ("out,o", po::value<std::string>(), "write the trace to FILE (cst format, written atomically)")
        ("zstd-level", po::value<int>()->default_value(3), "zstd compression level, 1 (fast) .. 19 (small)")
        ("quiet,q", po::bool_switch(), "no progress bar");
    return d;
}

constexpr const char* kUsage =
    "usage: cachesim trace --out FILE [workload options | --trace IN --trace-format F]\n\n"
    "Writes the per-thread address trace of a workload and schedule (or converts a din/u64 trace)\n"
    "to a cst trace file: versioned header, zstd-compressed checksummed blocks. Replay it with\n"
    "`cachesim simulate --trace FILE`; inspect it with `cachesim info FILE`.";

}  // namespace

int run_trace(int argc, char** argv) {
    po::options_description visible;
    visible.add(common_options()).add(workload_options()).add(trace_output_options());
    // Cache options are accepted (presets set them) but play no part in a trace.
    po::options_description all;
    all.add(visible).add(cache_options());
    for (int i = 1; i < argc; ++i)
        if (std::string_view(argv[i]) == "--help" || std::string_view(argv[i]) == "-h") {
            std::cout << kUsage << "\n\n" << visible << "\n";
            return 0;
        }
    const auto vm = parse_command_line(argc, argv, all, kUsage);
    if (!vm) return 0;
    if (!vm->count("out")) throw InputError("--out FILE is required");
    const std::string out = (*vm)["out"].as<std::string>();
    const int level = (*vm)["zstd-level"].as<int>();
    if (level < 1 || level > 19) throw InputError("--zstd-level must be between 1 and 19");
    const SimulationOptions sim = read_simulation_options(*vm);

    auto source = make_source(sim);
    cst::TraceHeader header;
    header.arrays = source->arrays();
    if (sim.workload) {
        header.workload = sim.workload;
        header.elem_bytes = sim.workload->elem_bytes;
    } else {
        header.elem_bytes = 1;
    }
    cst::TraceWriter writer(out, header, level);
    ProgressBar progress("trace", source->size_hint(), !(*vm)["quiet"].as<bool>());
    AccessBatch batch;
    std::uint64_t written = 0;
    while (source->next(batch, cst::kBlockAccesses)) {
        writer.append(batch);
        written += batch.accesses.size();
        progress.update(written);
    }
    const cst::TraceHeader& done = writer.finish();
    progress.finish();
    std::cout << "wrote " << out << ": " << done.steps << " steps x " << done.accesses_per_step << " = "
              << done.accesses << " accesses in " << done.blocks << " blocks\n";
    return 0;
}

}  // namespace cachesim::cli
