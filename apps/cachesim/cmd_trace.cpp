// cachesim trace: write a workload's (or another trace's) per-thread accesses as a cst file.
#include <iostream>
#include <set>
#include <sys/stat.h>

#include "apps/common/atomic_file.hpp"
#include "apps/common/options.hpp"
#include "apps/cachesim/subcommands.hpp"
#include "apps/cachesim/number_text.hpp"
#include "apps/cachesim/sweep_progress.hpp"
#include "traces/accelsim_reader.hpp"
#include "traces/choice_hint.hpp"
#include "traces/input_error.hpp"
#include "traces/trace_format_reader.hpp"
#include "traces/trace_format_writer.hpp"
#include "sim/gpu/gpu_presets.hpp"
#ifdef CACHESIM_HAVE_TRACEGEN
#include "traces/trace_generation.hpp"
#endif
#ifdef CACHESIM_HAVE_CUDA_TRACEGEN
#include "traces/trace_generation_cuda.hpp"
#endif

namespace cachesim::cli {

namespace {

po::options_description trace_output_options() {
    po::options_description d("Output");
    d.add_options()
        ("out,output,o", po::value<std::string>(), "write the trace to FILE (cst format, written atomically)")
        ("zstd-level", po::value<int>()->default_value(3), "zstd compression level, 1 (fast) .. 19 (small)")
        ("backend", po::value<std::string>()->default_value("auto"),
         "workload traces: cuda (Thrust on the GPU) | host (Thrust on the CPU) | generator (the "
         "simulator's own generator) | auto (cuda if a GPU is usable, else host, else generator); "
         "all give the same bytes")
        ("block", po::value<std::uint32_t>()->default_value(256),
         "workload traces: threads per block of the launch the trace records (version 2; "
         "`simulate --model gpu --trace` replays it in these blocks), 1..1024")
        ("trace-version", po::value<std::uint32_t>()->default_value(2),
         "workload traces: 2 (threads of a launch, default) | 1 (fixed steps, no launch; the GPU "
         "model cannot replay it). Converted din/u64 traces are always version 1")
        ("quiet,q", po::bool_switch(), "no progress bar (without it, one that takes over 2 s shows on stderr, where stderr is a terminal)");
    return d;
}

constexpr const char* kUsage =
    "usage: cachesim trace --out FILE [workload options | --trace IN --trace-format F]\n\n"
    "Writes the per-thread address trace of a workload and schedule (or converts a din/u64 trace, or\n"
    "an Accel-Sim kernel-N.traceg to a launch)\n"
    "to a cst trace file: versioned header, zstd-compressed checksummed blocks. Replay it with\n"
    "`cachesim simulate --trace FILE`; inspect it with `cachesim info FILE`.";

// Which generator produces a workload's records; "auto" picks the best one available.
std::string choose_backend(const std::string& requested) {
    bool host = false, cuda = false;
#ifdef CACHESIM_HAVE_TRACEGEN
    host = true;
#endif
#ifdef CACHESIM_HAVE_CUDA_TRACEGEN
    cuda = requested != "host" && requested != "generator" && cuda_trace_generation_available();
#endif
    if (requested == "auto") return cuda ? "cuda" : host ? "host" : "generator";
    if (requested == "generator") return requested;
    if (requested == "host" && host) return requested;
    if (requested == "cuda" && cuda) return requested;
    if (requested == "host" || requested == "cuda")
        throw InputError("--backend " + requested + ": not available (" +
                         (requested == "cuda" ? "no usable CUDA device, or built without nvcc"
                                              : "built without Thrust") + ")");
    throw InputError("--backend: expected auto, cuda, host or generator, not '" + requested + "'" +
                     case_hint(requested, {"auto", "cuda", "host", "generator"}));
}

#ifdef CACHESIM_HAVE_TRACEGEN
// Thrust's records -> whole-step batches for the writer (one conversion buffer, reused).
TraceChunkSink writer_sink(cst::TraceWriter& writer, ProgressBar& progress, AccessBatch& batch,
                           std::uint64_t& written) {
    return [&](const TraceChunk& chunk) {
        batch.first_step = chunk.first_launch;
        batch.accesses_per_step = chunk.accesses_per_launch;
        batch.accesses.resize(chunk.count);
        for (std::size_t i = 0; i < chunk.count; ++i) {
            const TraceRecord& r = chunk.records[i];
            batch.accesses[i] = Access{r.address, r.size, r.array, r.is_write != 0};
        }
        writer.append(batch);
        written += chunk.count;
        progress.update(written);
    };
}
#endif

// An Accel-Sim kernel trace: its global accesses, thread by thread, as a cst launch.
int convert_accelsim_trace(const std::string& in, const std::string& out, int level) {
    const accelsim::TracegConversion c = accelsim::convert_traceg(in, out, level);
    const cst::TraceHeader& h = c.header;
    // With -o - the trace itself is on stdout: the summary must not be appended to it.
    std::ostream& summary = writes_to_stdout(out) ? std::cerr : std::cout;
    summary << "wrote " << out << ": " << h.steps << " threads, " << h.accesses << " accesses in "
            << counted(h.blocks, "block")
            << ", " << h.launch->describe() << ", " << h.arrays.size() << " address regions; kernel '"
            << c.kernel.name << "' (Accel-Sim tracer version " << c.kernel.tracer_version << ")\n  "
            << accelsim::describe(c.counts) << "\n  loop: " << c.loop.describe()
            << (c.loop.empty() ? "" : " (the GPU model's --issue-burst, --loop-limit and --loop-issue-cost auto)")
            << "\n";
    if (h.resources)
        summary << "  resources: " << h.resources->describe()
                << " (the GPU model's --smem-per-block and --regs-per-thread)\n";
    return 0;
}

// The options the user gave, on the command line or in the --config file (a --preset's values
// are not among them).
std::set<std::string> options_given_explicitly(int argc, char** argv, const po::options_description& options) {
    std::set<std::string> given;
    const po::parsed_options parsed = po::command_line_parser(argc, argv).style(kCommandLineStyle).options(options).run();
    for (const po::option& o : parsed.options) given.insert(o.string_key);
    for (const auto& [key, value] : config_file_settings_taken(std::vector<std::string>(argv + 1, argv + argc), options))
        given.insert(key);
    return given;
}

// A trace is the accesses alone: options of the simulation that would replay it (caches, their
// analysis, the model) and, for an Accel-Sim trace, options that describe another source are
// mistakes to report. Presets set cache options too: theirs go unused without a word.
// (A message naming an option the --config file set says where in the file.)
void refuse_options_that_do_not_apply(const std::set<std::string>& given, bool accelsim) {
    const auto refuse = [&](const std::string& key, const std::string& why) {
        if (given.count(key)) throw InputError("--" + key + " " + why);
    };
    const po::options_description caches = cache_options();
    for (const auto& option : caches.options())
        refuse(option->long_name(), "is an option of the cache simulation; `cachesim trace` writes the accesses and "
                                    "simulates nothing (give it to the command that replays the trace)");
    refuse("model", "chooses the model that simulates; `cachesim trace` writes the accesses, the same for either "
                    "model (give it to the command that replays the trace)");
    if (!accelsim) return;
    for (const char* key : {"workload", "size", "stencil", "depth", "elem-bytes", "schedule"})
        refuse(key, "describes a built-in workload; it does not apply to an Accel-Sim --trace");
    for (const char* key : {"trace-version", "block", "backend"})
        refuse(key, "applies to workload traces; an Accel-Sim --trace is written with its own launch");
}

}  // namespace

int run_trace(int argc, char** argv) {
    po::options_description visible;
    visible.add(common_options()).add(workload_options()).add(trace_output_options());
    // Cache options are declared because presets set them; given by the user, they are refused.
    po::options_description all;
    all.add(visible).add(cache_options());
    for (int i = 1; i < argc; ++i)
        if (std::string_view(argv[i]) == "--help" || std::string_view(argv[i]) == "-h") {
            std::cout << kUsage << "\n\n" << visible << "\n";
            return 0;
        }
    const auto vm = parse_command_line(argc, argv, all, kUsage);
    if (!vm) return 0;
    const bool accelsim = vm->count("trace") && named_trace_format((*vm)["trace-format"].as<std::string>(),
                                                                   (*vm)["trace"].as<std::string>()) == "traceg";
    refuse_options_that_do_not_apply(options_given_explicitly(argc, argv, all), accelsim);
    if (!vm->count("out")) throw InputError("--out FILE is required");
    const std::string out = (*vm)["out"].as<std::string>();
    check_outputs({{out, "--out"}}, input_files(*vm));  // before reading (a traceg is read whole before its cst is written)
    const int level = (*vm)["zstd-level"].as<int>();
    if (level < 1 || level > 19) throw InputError("--zstd-level must be between 1 and 19");
    if (accelsim) return convert_accelsim_trace((*vm)["trace"].as<std::string>(), out, level);
    // trace's --block is the recorded launch's, read below, not the GPU model's parameter of that
    // name, which does not apply to the thread model that generates the accesses. A GPU preset
    // (the model's hardware) and the model play no part in the accesses either.
    po::variables_map workload_vm = *vm;
    workload_vm.erase("block");
    if (workload_vm.count("preset") && find_gpu_preset(workload_vm["preset"].as<std::string>()))
        workload_vm.erase("preset");
    workload_vm.erase("model");
    workload_vm.emplace("model", po::variable_value(std::string("thread"), true));
    const SimulationOptions sim = read_simulation_options(workload_vm);
    if (!sim.workload)
        for (const char* key : {"trace-version", "block", "backend"})
            if (given(*vm, key))
                throw InputError(std::string("--") + key + " applies to workload traces; a converted --trace is " +
                                 "written as version 1, as it was recorded");
    if (sim.trace_cst) {
        const cst::TraceFileSource input(sim.trace_path);
        if (input.header().launch)
            throw InputError(sim.trace_path + " is already a cst trace of a launch (version " +
                             std::to_string(input.header().version) +
                             "); converting it would keep its accesses but drop the launch: copy the file instead");
    }

    auto source = make_source(sim);
    cst::TraceHeader header;
    header.arrays = source->arrays();
    if (sim.workload) {
        header.workload = sim.workload;
        header.elem_bytes = sim.workload->elem_bytes;
        const std::uint32_t version = (*vm)["trace-version"].as<std::uint32_t>();
        const std::uint32_t block = (*vm)["block"].as<std::uint32_t>();
        if (version != cst::kVersionPlain && version != cst::kVersionLaunch)
            throw InputError("--trace-version must be 1 or 2, not " + std::to_string(version));
        if (block == 0 || block > cst::kMaxThreadsPerBlock)
            throw InputError("--block must be between 1 and " + std::to_string(cst::kMaxThreadsPerBlock) + ", not " +
                             std::to_string(block));
        if (version == cst::kVersionLaunch) header.launch = cst::linear_launch(sim.workload->items(), block);
    } else {
        header.elem_bytes = 1;
    }
    const std::string backend = sim.workload ? choose_backend((*vm)["backend"].as<std::string>()) : "file";
    cst::TraceWriter writer(out, header, level);
    // As a single run's: on a terminal only, once the conversion has taken two seconds.
    ProgressBar progress("trace", source->size_hint(), !(*vm)["quiet"].as<bool>(), {true, true, 2.0});
    AccessBatch batch;
    std::uint64_t written = 0;
#ifdef CACHESIM_HAVE_TRACEGEN
    if (backend == "host") generate_trace_host(*sim.workload, writer_sink(writer, progress, batch, written));
#endif
#ifdef CACHESIM_HAVE_CUDA_TRACEGEN
    if (backend == "cuda") generate_trace_cuda(*sim.workload, writer_sink(writer, progress, batch, written));
#endif
    if (backend == "generator" || backend == "file") {
        while (source->next(batch, cst::kBlockAccesses)) {
            writer.append(batch);
            written += batch.accesses.size();
            progress.update(written);
        }
    }
    const cst::TraceHeader& done = writer.finish();
    progress.finish();
    // With -o /dev/stdout the trace itself is on stdout: the summary must not be appended to it.
    std::ostream& summary = writes_to_stdout(out) ? std::cerr : std::cout;
    summary << "wrote " << out << ": " << done.steps << (done.launch ? " threads x " : " steps x ")
            << done.accesses_per_step << " = " << done.accesses << " accesses in " << counted(done.blocks, "block");
    if (done.launch) summary << ", " << done.launch->describe();
    if (backend == "host" || backend == "cuda") summary << " (Thrust, " << backend << " backend)";
    summary << "\n";
    return 0;
}

}  // namespace cachesim::cli
