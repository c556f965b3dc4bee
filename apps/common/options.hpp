#pragma once
// The options shared by simulate, sweep, diagram and compare: workload, trace, caches, output.
#include <boost/program_options.hpp>
#include <memory>
#include <optional>
#include <string_view>
#include <string>
#include <utility>
#include <vector>

#include "apps/common/cli_errors.hpp"
#include "apps/common/model_kind.hpp"
#include "sim/gpu/gpu_config.hpp"
#include "sim/thread_model.hpp"
#include "traces/accelsim_reader.hpp"
#include "traces/atomic_output.hpp"
#include "traces/access_source.hpp"
#include "traces/trace_format.hpp"
#include "traces/trace_input.hpp"
#include "traces/trace_readers.hpp"
#include "traces/warp_times.hpp"
#include "traces/workload_spec.hpp"

namespace cachesim::cli {

namespace po = boost::program_options;

// Boost's default command-line style without its guessing: an abbreviation is an unknown option,
// never another option that begins the same way (--threads taken for --threads-per-sm).
inline constexpr int kCommandLineStyle =
    po::command_line_style::default_style & ~po::command_line_style::allow_guessing;

struct SimulationOptions {
    std::optional<WorkloadSpec> workload;  // absent when replaying a trace
    std::string trace_path;
    TraceFormat trace_format = TraceFormat::din;
    bool trace_cst = false;  // a cachesim trace file (traces/trace_format.hpp); trace_format unused
    TraceInput trace_input;  // the trace's resolved format and, for a pipe, its opened stream
    std::shared_ptr<const accelsim::ConvertedTrace> traceg;  // --trace-format traceg: trace_path is its cst
    // The trace as the user named it, for reports (a traceg's temporary conversion is not).
    const std::string& trace_shown() const { return traceg ? traceg->source_path() : trace_path; }
    // The replayed trace's kernel loop (cst version 3), applied to gpu's auto loop options.
    std::optional<RecordedLoop> trace_loop;
    ModelKind model = ModelKind::thread;
    std::string preset;
    HierarchyConfig hierarchy;  // gpu: the L1 as simulated (carve-out resolved) and the whole L2
    GpuConfig gpu;              // gpu: SMs, launch, caches and policies (what simulate_gpu_model takes)
    std::string gpu_base;       // gpu: the GPU preset the values not given come from
    std::vector<std::string> gpu_given;  // gpu: the parameters given as options (sim/gpu/gpu_parameters.hpp)
    // gpu: the parameters the replayed trace set (its launch's block and resources, its loop's
    // auto options), which --explain attributes to it.
    std::vector<std::string> gpu_from_trace;
    // gpu: RunControl::gpu_traffic_memory_limit, where the memory estimate leaves the run a share
    // (MemoryEstimate::gpu_traffic_limit; run_gpu_model applies it).
    std::uint64_t gpu_traffic_memory_limit = 0;
};

// Option groups; add the ones a subcommand needs to its description.
po::options_description workload_options();
po::options_description cache_options();
po::options_description common_options();  // --preset, --config, --seed, --help
po::options_description gpu_options();     // --block, --sms, ... (--model gpu): the GPU parameter table's
po::options_description timing_options();  // --warp-times, --warp-times-launch (--model gpu)

// Parses argv, then the --config file, then the --preset's option bundle; earlier sources win.
// A GPU preset is no bundle: read_simulation_options starts from its configuration. The file's
// shape options of a workload other than the one the command line chooses are left out; a file
// that names a workload and shapes the other is an InputError unless the command line runs the other.
// Returns nullopt (after printing help) when --help was given.
// `unused_file_settings` names settings of the --config file left out as if the file lacked them
// (a sweep's row without the cache level they describe).
std::optional<po::variables_map> parse_command_line(int argc, char** argv,
                                                    const po::options_description& options,
                                                    const std::string& usage,
                                                    const std::vector<std::string>& unused_file_settings = {});

// What the --config file named in `args` (a command line parse_command_line accepts, without the
// program's name) means for that command line: each setting parse_command_line takes from it, as
// (name, value) in name order, leaving out comments, layout and the entries it does not take (the
// other workload's shape, an option the command line gives). Empty without --config; InputError
// for a file it would refuse.
std::vector<std::pair<std::string, std::string>> config_file_settings_taken(const std::vector<std::string>& args,
                                                                             const po::options_description& options);

// The options given that shape the built-in workload the command line does not run (--depth with
// the stencil, --stencil with the matmul; a preset's own bundle exempt, and a --config file's where
// the command line chooses the workload, as parse_command_line leaves those out). read_simulation_options
// refuses them; a sweep crossing both workloads gives each row only its own.
std::vector<std::string> options_of_another_workload(const po::variables_map& vm);
// The built-in workload that `option` shapes (stencil: stencil, depth: matmul), if any.
std::optional<WorkloadKind> workload_shaped_by(std::string_view option);
// InputError naming the first of them, if any.
void reject_options_of_another_workload(const po::variables_map& vm);
// The options given (not a preset's) that describe a cache level the run does not have (--l2-ways
// with --l2-size 0); read_simulation_options refuses them, and a sweep whose rows differ in the
// level's size gives them only to the rows that have it.
std::vector<std::string> options_of_a_missing_level(const po::variables_map& vm);

// Turns parsed values into a validated configuration; throws InputError / SimulationError.
SimulationOptions read_simulation_options(const po::variables_map& vm);
// What a simulation is made of (common, workload, cache and GPU options): the options that sweep
// axes and compare's --gpu overrides are read against, as simulate reads them.
po::options_description simulation_option_groups();
// Parses `args` (args[0] names the caller) as a command line against `options`, presets
// expanded, and reads the simulation it describes. Every error (unknown option, bad value,
// invalid configuration) becomes an InputError whose message starts with `context`.
SimulationOptions read_simulation_args(std::vector<std::string> args, const po::options_description& options,
                                       const std::string& context,
                                       const std::vector<std::string>& unused_file_settings = {});
// The measured timeline that option `file_key` names (the recorded launch: option `launch_key`) for
// `workload` run in blocks of `block`, or nothing without the option. InputError for a bad file,
// or the launch option alone.
std::optional<WarpTimeline> timeline_option(const po::variables_map& vm, const char* file_key, const char* launch_key,
                                            const WorkloadSpec& workload, std::uint32_t block);
// With --warp-times: reads the measured timeline of sim's launch into `timeline` and points
// sim.gpu at it (which must then outlive the run). InputError for a bad file or combination.
void read_timeline(const po::variables_map& vm, SimulationOptions& sim, WarpTimeline& timeline);

std::unique_ptr<AccessSource> make_source(const SimulationOptions& options);

// Throws InputError (prefixed by `where`) for a word no option took (`simulate trace.din`) and
// for a negative value of an unsigned option, which boost would wrap to 2^64 - 1.
void check_parsed(const po::parsed_options& parsed, const std::string& where);

// The files a command's options name for it to read (--trace, --config, --warp-times,
// --measured), for check_output_not_an_input.
std::vector<NamedPath> input_files(const po::variables_map& vm);

// Whether option `key` was given (command line, --config or a preset's bundle), not defaulted.
bool given(const po::variables_map& vm, const std::string& key);

// A count of workers as --jobs and --threads take it: 0 is one per core the machine reports.
unsigned workers_or_all_cores(unsigned given);

// "--l1-ways full|N" parsing, shared with sweeps.
std::uint32_t parse_ways(const std::string& text, const std::string& what);
// --reuse-sample's rate, in (0, 1].
double parse_sample_rate(const std::string& text);

}  // namespace cachesim::cli
