#pragma once
// gpubench's command line: what to sweep, how to time and which counters to collect.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "apps/gpubench/bench_config.hpp"
#include "apps/gpubench/profile_reps.hpp"

namespace gpubench {

enum class CounterMode { cupti, ncu, none };

struct Dimensions {
    std::uint32_t w = 0, h = 0;
};

struct Options {
    std::vector<cachesim::WorkloadKind> kernels{cachesim::WorkloadKind::stencil,
                                                cachesim::WorkloadKind::matmul};
    std::vector<Dimensions> sizes;  // empty: 4096x4096 for the stencil, 1024x1024 for matmul
    std::vector<Dimensions> boxes{{9, 9}};
    std::vector<std::uint32_t> depths;  // empty: the matmul's width (square matrices)
    std::vector<cachesim::Schedule> schedules;
    std::vector<std::uint32_t> blocks{32, 64, 128, 256, 512, 1024};
    std::vector<KernelVariant> variants{KernelVariant::index64};
    int warmup = 3;
    int repetitions = 21;
    ProfileReps profile_reps;  // profiled launches per metric group; the median is reported
    bool profile_spread_given = false;  // --profile-spread, which needs a range of launches
    CounterMode counters = CounterMode::cupti;
    std::vector<std::string> metrics;
    std::string out_path = "-";  // "-" is stdout
    std::string placement_path;  // --placement: where every block ran, one extra launch per configuration
    int placement_repetitions = 1;  // --placement-reps, also for --warp-times
    std::string warp_times_path;    // --warp-times: every warp's SM, slot, start and end, same launches
    std::string warp_ends_path;     // --warp-ends: every warp's SM, slot and end only (EndStampedLaunch)
    bool check = true;
    bool warm_l2 = false;  // --warm-l2: each measured launch starts with its arrays in the L2
    // --smem-per-block: dynamic shared memory each block is launched with, never touched: a kernel
    // that uses shared memory, as far as the L1 left beside it goes. Given (even 0), the CSV has
    // its column.
    std::optional<std::uint32_t> smem_per_block;
    std::uint64_t seed = 20240601;
    int device = 0;
    bool dry_run = false;        // print the configurations and exit (no GPU needed)
    std::string describe_path;   // --describe: write the device's GPU-model description and exit
    std::string merge_ncu_csv;   // --merge-ncu: fill metric columns of --rows from ncu's CSV
    std::string merge_rows_csv;
    bool help = false;
    // --examples: example launches (examples/example_spec.hpp) instead of the built-in sweep; their
    // rows name the trace of each launch as TRACE_DIR/<name>.cst (relative to the CSV).
    std::vector<std::string> examples;
    std::string trace_dir = "examples";
};

// The widths of the thesis's tables (figure 5.1).
const std::vector<std::uint32_t>& thesis_column_widths();
// The metrics collected unless --metrics says otherwise (Nsight Compute names).
const std::vector<std::string>& default_metrics();
// What limits the compiled loop (traces/loop_counters.hpp): warp instructions and pipe cycles.
const std::vector<std::string>& loop_metrics();

// Throws cachesim::InputError with a message naming the option.
Options parse_options(int argc, char** argv);
std::string usage();

// Throws cachesim::InputError naming the option when an output of the run cannot be written (a
// directory, a folder that does not exist, a file this user may not write) or two outputs are one
// file: checked before the GPU is touched, not when a sweep's rows are committed.
void check_output_paths(const Options& options);

// Every configuration the options describe, validated; throws cachesim::InputError.
std::vector<BenchConfig> expand_configs(const Options& options);

}  // namespace gpubench
