#include "apps/gpubench/options.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <iterator>
#include <optional>
#include <string_view>

#include "examples/example_spec.hpp"
#include "traces/atomic_output.hpp"
#include "traces/choice_hint.hpp"
#include "traces/input_error.hpp"
#include "traces/ncu_metrics.hpp"

namespace gpubench {

using cachesim::InputError;

const std::vector<std::uint32_t>& thesis_column_widths() {
    static const std::vector<std::uint32_t> widths{4,  8,  16,  30,  31,  32,  33,   34,  48,
                                                   64, 96, 128, 256, 512, 1024, 2048};
    return widths;
}

const std::vector<std::string>& default_metrics() {
    namespace ncu = cachesim::ncu;
    static const std::vector<std::string> metrics{
        std::string(ncu::kL1Requests), std::string(ncu::kL1Sectors),     std::string(ncu::kL1SectorHits),
        std::string(ncu::kL1HitRate),  std::string(ncu::kL2Sectors),     std::string(ncu::kL2SectorHits),
        std::string(ncu::kL2ReadHitRate), std::string(ncu::kDramBytesRead),
    };
    return metrics;
}

const std::vector<std::string>& loop_metrics() {
    namespace ncu = cachesim::ncu;
    static const std::vector<std::string> metrics = [] {
        std::vector<std::string> m{std::string(ncu::kInstExecuted)};
        for (std::string_view pipe : ncu::kLoopPipes)
            m.push_back(std::string(ncu::kPipeCyclesPrefix) + std::string(pipe) + std::string(ncu::kPipeCyclesSuffix));
        return m;
    }();
    return metrics;
}

namespace {

std::vector<std::string_view> split(std::string_view text, char separator) {
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = text.find(separator, start);
        parts.push_back(text.substr(start, end == std::string_view::npos ? end : end - start));
        if (end == std::string_view::npos) break;
        start = end + 1;
    }
    return parts;
}

// Dynamic shared memory a launch may ask for without opting in to more per kernel.
constexpr std::uint32_t kMaxDefaultSmemPerBlock = 48 * 1024;

std::uint32_t parse_count(std::string_view text, std::string_view option, std::uint32_t min,
                          std::uint32_t max) {
    std::uint32_t value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() || value < min ||
        value > max)
        throw InputError(std::string(option) + ": '" + std::string(text) +
                         "' is not a whole number between " + std::to_string(min) + " and " +
                         std::to_string(max));
    return value;
}

std::vector<std::uint32_t> parse_counts(std::string_view text, std::string_view option,
                                        std::uint32_t min, std::uint32_t max) {
    std::vector<std::uint32_t> values;
    for (std::string_view part : split(text, ',')) values.push_back(parse_count(part, option, min, max));
    return values;
}

// A whole number above 0 that fits 32 bits, or nothing.
std::optional<std::uint32_t> positive_count(std::string_view text) {
    std::uint32_t value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() || value == 0) return std::nullopt;
    return value;
}

std::optional<Dimensions> dimensions(std::string_view text) {
    const std::vector<std::string_view> parts = split(text, 'x');
    if (parts.size() != 2) return std::nullopt;
    const std::optional<std::uint32_t> w = positive_count(parts[0]), h = positive_count(parts[1]);
    if (!w || !h) return std::nullopt;
    return Dimensions{*w, *h};
}

// The message names the whole value ("'4x'"), not the half that failed.
std::vector<Dimensions> parse_dimension_list(std::string_view text, std::string_view option) {
    std::vector<Dimensions> values;
    for (std::string_view part : split(text, ',')) {
        const std::optional<Dimensions> d = dimensions(part);
        if (!d)
            throw InputError(std::string(option) + ": '" + std::string(part) +
                             "' is not WxH (two whole numbers from 1 to 4294967295, such as 1024x1024)" +
                             cachesim::case_hint(part, [](std::string_view lower) { return dimensions(lower).has_value(); }));
        values.push_back(*d);
    }
    return values;
}

CounterMode parse_counter_mode(std::string_view text) {
    if (text == "cupti") return CounterMode::cupti;
    if (text == "ncu") return CounterMode::ncu;
    if (text == "none") return CounterMode::none;
    throw InputError("--counters: unknown mode '" + std::string(text) +
                     "' (expected cupti, ncu or none)" + cachesim::case_hint(text, {"cupti", "ncu", "none"}));
}

// Every option parse_options takes, for the hint at one it does not.
constexpr std::string_view kOptionNames[] = {
    "--help",       "-h",          "--kernel",         "--size",           "--stencil",   "--depth",
    "--schedules",  "--widths",    "--blocks",         "--variants",       "--warmup",    "--reps",
    "--profile-reps", "--profile-spread", "--counters", "--metrics",       "--no-check",  "--seed",
    "--device",     "--out",       "--placement",      "--warp-ends",      "--warp-times", "--placement-reps",
    "--warm-l2",    "--smem-per-block", "--describe",  "--dry-run",        "--examples",  "--trace-dir",
    "--merge-ncu",  "--rows",
};

// " (did you mean --schedules?)" for a long option that is a slip of a known one, as cachesim
// names them; "" otherwise.
std::string option_hint(std::string_view arg) {
    if (!arg.starts_with("--")) return "";
    std::vector<std::string_view> long_names;
    for (std::string_view known : kOptionNames)
        if (known.starts_with("--")) long_names.push_back(known.substr(2));
    const std::optional<std::string> closest = cachesim::closest_name(arg.substr(2, arg.find('=') - 2), long_names);
    return closest ? " (did you mean --" + *closest + "?)" : "";
}

// An example spec is refused where it is given, with the hint for one in the wrong case, not
// when the examples are about to run.
void check_example_spec(std::string_view text) {
    const auto parses = [](std::string_view spec) {
        try {
            cachesim::examples::parse_example_spec(std::string(spec));
            return true;
        } catch (const std::invalid_argument&) {
            return false;
        }
    };
    try {
        cachesim::examples::parse_example_spec(std::string(text));
    } catch (const std::invalid_argument& e) {
        throw InputError(std::string("--examples: ") + e.what() + cachesim::case_hint(text, parses));
    }
}

// --profile-spread's points: a plain decimal number (no sign, blanks, hex or exponent) above 0,
// at most 100.
double parse_spread_points(const std::string& text) {
    const bool plain = !text.empty() && text.find_first_not_of("0123456789.") == std::string::npos;
    char* end = nullptr;
    const double points = plain ? std::strtod(text.c_str(), &end) : 0;
    if (!plain || end != text.c_str() + text.size() || !(points > 0 && points <= 100))
        throw InputError("--profile-spread: '" + text + "' is not a number of points above 0 and at most 100");
    return points;
}

}  // namespace

std::string usage() {
    return R"(usage: gpubench [options]
Runs the box-blur stencil and the naive matmul on the GPU with the simulator's thread schedules,
checks each output against a CPU reference, and writes one CSV row per configuration: median
kernel time (CUDA events, L2 flushed before every repetition) and hardware counters named after
their Nsight Compute metrics.

Sweep (comma-separated lists; every combination is run):
  --kernel K          stencil, matmul or all (default all)
  --size WxH          output sizes (default 4096x4096 for stencil, 1024x1024 for matmul)
  --stencil SWxSH     stencil box sizes (default 9x9)
  --depth D           matmul inner dimension (default: the output width)
  --schedules S       linear, column:W, zigzag:W, tiled:TWxTH, morton
                      (default linear plus the column widths below)
  --widths W          adds column:W for each W (default, only when --schedules is not given:
                      4,8,16,30,31,32,33,34,48,64,96,128,256,512,1024,2048; 'none' for none)
  --blocks B          threads per block, 1..1024 (default 32,64,128,256,512,1024)
  --variants V        how the kernels are compiled (same accesses, different instructions):
                      index64 (64-bit index arithmetic, the default), index32 (32-bit
                      index arithmetic), unroll1 ('#pragma unroll 1' on every loop)
Measurement:
  --warmup N          untimed launches before timing (default 3)
  --reps N            timed repetitions; the median is reported (default 21)
  --counters M        cupti (in-process range profiler, default), ncu (one extra launch per
                      configuration of a kernel whose name contains ProfiledLaunch, for
                      'ncu --kernel-name regex:ProfiledLaunch'), or none
  --metrics LIST      Nsight Compute metric names, or the sets 'fidelity' (the default: what
                      cachesim compare reads) and 'loop' (what limits the compiled loop:
                      warp instructions and pipe cycles, which cachesim compare also reads);
                      see docs/gpubench.md
  --profile-reps N    profiled launches per metric group, median reported (default 3; cupti);
                      N..M: N, and M for a configuration whose hit rates (the .pct metrics)
                      move by more than --profile-spread points over its first N; the CSV then
                      gains a profile_reps column (how many each row got)
  --profile-spread P  the points a hit rate may move before N..M takes M (default 2: the H200's
                      stencil rates repeat within 1.4 points, its matmul L2 rate by tens)
  --no-check          skip the CPU reference check
  --warm-l2           start every timed, profiled and recorded launch with its arrays in the
                      L2 (the flush, then one unmeasured launch of the same configuration)
                      instead of a cold L2; with --counters cupti or none (ncu flushes itself)
  --smem-per-block B  launch every stencil and matmul block with B bytes of dynamic shared
                      memory (0..49152), never used: the driver then takes a larger shared-memory
                      carve-out and leaves the L1 less, as beside a kernel that uses shared
                      memory; the CSV gains a smem_per_block column
  --seed N            seed of the random inputs (default 20240601)
  --device N          CUDA device index (default 0)
  --out FILE          CSV output (default: standard output); it appears only when complete
                      (rows go to FILE.partial meanwhile)
  --placement FILE    also record where and when every block ran (one extra launch per
                      configuration, after an L2 flush): CSV of the configuration, launch, block,
                      SM (%smid), start and end (ns from the launch's first start)
  --warp-times FILE   also record every warp's SM, warp slot (%warpid), start and end (same
                      launches as --placement, which may be given too; the clocks are read
                      outside the loops, but the loops may still compile, and so run,
                      differently from the timed kernel's): CSV of the configuration, launch,
                      block, warp, SM, slot, start_ns, end_ns
  --warp-ends FILE    also record, in launches of their own, only when and where every warp
                      ended (nothing before or in the loop; the loop may still compile
                      differently): the configuration, launch, block, warp, SM, slot, end_ns
                      (ns after a one-thread kernel just before the launch); any one
                      compilation (--variants with one variant)
  --placement-reps N  launches recorded per configuration (default 1)
  --dry-run           print the configurations and exit
  -h, --help          this text
Describing the GPU (instead of the sweep):
  --describe FILE     write the device's description for the GPU model, a cachesim config file
                      (cachesim simulate|compare --config FILE): its SMs, L2 size and per-SM
                      limits as cudaGetDeviceProperties reports them, the L1/shared sizes NVIDIA
                      documents for its compute capability, the rest from the preset of its
                      architecture (docs/gpu-model.md, "Your own GPU"); '-' for standard output.
                      Runs alone: only --device may be given beside it
Example kernels (instead of the sweep above; the measurement options apply, counters from CUPTI):
  --examples LIST     example launches, comma separated: transpose:WxH, transpose_tiled:WxH,
                      stencil3d:WxHxD, gemm:MxNxK:rowmajor, gemm:MxNxK:grouped:G, spmv:ROWS[:seed=S]
                      (docs/gpubench.md, "Example kernels"); each row names its trace in a
                      'trace' column
  --trace-dir DIR     the traces' folder in that column, relative to the CSV (default examples)
Merging an Nsight Compute run (no GPU needed):
  --merge-ncu NCU.csv --rows ROWS.csv --out FILE
                      fills the metric columns of ROWS.csv (written with --counters ncu) from
                      'ncu --csv --page raw --print-units base' output, in launch order
Output: the configuration and time columns, one column per metric (with cupti the median over
  --profile-reps), then, with cupti only, '<metric>:min' and '<metric>:max' for every metric: the
  smallest and largest value over the profiled launches (the hardware's run-to-run spread), and
  with --profile-reps N..M a column profile_reps. With --counters ncu there is one launch per
  configuration and no min/max columns.
Every output is checked before the GPU is touched: a directory, a folder that does not exist, a
  file this user may not write or two outputs naming one file are refused.
Exit codes: 0 ok, 1 output check failed, 2 bad input, 3 no GPU (or no driver), 4 CUPTI failure,
  5 CUDA error.
)";
}

Options parse_options(int argc, char** argv) {
    Options o;
    bool widths_given = false, schedules_given = false;
    std::vector<std::uint32_t> widths;
    std::vector<cachesim::Schedule> schedules;
    std::string other_option;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        auto value = [&]() -> std::string_view {
            if (i + 1 >= argc) throw InputError(std::string(arg) + " needs a value");
            return argv[++i];
        };
        // A path option's value, which must not be empty; an option where it should be means the
        // name was left out ("--describe --device 1"), not a file called "--device".
        auto file_name = [&]() -> std::string {
            const bool missing = i + 1 >= argc || std::string_view(argv[i + 1]).empty() ||
                                 std::ranges::find(kOptionNames, std::string_view(argv[i + 1])) != std::end(kOptionNames);
            if (missing)
                throw InputError(std::string(arg) + " needs a file name" +
                                 (i + 1 < argc && *argv[i + 1] ? std::string(" before ") + argv[i + 1] : std::string()));
            return std::string(value());
        };
        // --describe runs nothing else: the first other option, to name it if both are given
        if (other_option.empty() && arg != "--describe" && arg != "--device" && arg != "--help" && arg != "-h")
            other_option = std::string(arg);
        if (arg == "--help" || arg == "-h") {
            o.help = true;
        } else if (arg == "--kernel") {
            const std::string_view v = value();
            if (v == "all") {
                o.kernels = {cachesim::WorkloadKind::stencil, cachesim::WorkloadKind::matmul};
            } else {
                o.kernels.clear();
                for (std::string_view part : split(v, ','))
                    o.kernels.push_back(cachesim::parse_workload_kind(part));
            }
        } else if (arg == "--size") {
            o.sizes = parse_dimension_list(value(), "--size");
        } else if (arg == "--stencil") {
            o.boxes = parse_dimension_list(value(), "--stencil");
        } else if (arg == "--depth") {
            o.depths = parse_counts(value(), "--depth", 1, 1u << 20);
        } else if (arg == "--schedules") {
            schedules_given = true;
            for (std::string_view part : split(value(), ','))
                schedules.push_back(cachesim::parse_schedule(part));
        } else if (arg == "--widths") {
            widths_given = true;
            const std::string_view v = value();
            if (v != "none") widths = parse_counts(v, "--widths", 1, 1u << 24);
        } else if (arg == "--blocks") {
            o.blocks = parse_counts(value(), "--blocks", 1, 1024);
        } else if (arg == "--variants") {
            o.variants.clear();
            for (std::string_view part : split(value(), ',')) {
                const std::optional<KernelVariant> v = parse_kernel_variant(part);
                if (!v)
                    throw InputError("--variants: unknown variant '" + std::string(part) + "' (index64, index32 or unroll1)" +
                                     cachesim::case_hint(part, [](std::string_view lower) {
                                         return parse_kernel_variant(lower).has_value();
                                     }));
                o.variants.push_back(*v);
            }
        } else if (arg == "--warmup") {
            o.warmup = static_cast<int>(parse_count(value(), "--warmup", 0, 1000));
        } else if (arg == "--reps") {
            o.repetitions = static_cast<int>(parse_count(value(), "--reps", 1, 100000));
        } else if (arg == "--profile-reps") {
            const ProfileReps launches = parse_profile_reps(value());  // --profile-spread keeps its own
            o.profile_reps.least = launches.least;
            o.profile_reps.most = launches.most;
        } else if (arg == "--profile-spread") {
            o.profile_reps.spread_points = parse_spread_points(std::string(value()));
            o.profile_spread_given = true;
        } else if (arg == "--counters") {
            o.counters = parse_counter_mode(value());
        } else if (arg == "--metrics") {
            o.metrics.clear();
            auto add = [&](const std::string& metric) {  // each metric once
                if (std::find(o.metrics.begin(), o.metrics.end(), metric) == o.metrics.end())
                    o.metrics.push_back(metric);
            };
            for (std::string_view part : split(value(), ',')) {
                if (part.empty()) throw InputError("--metrics: empty metric name");
                // the named sets: cachesim compare's metrics, and what limits the compiled loop
                if (part == "fidelity") for (const std::string& m : default_metrics()) add(m);
                else if (part == "loop") for (const std::string& m : loop_metrics()) add(m);
                else if (const std::string hint = cachesim::case_hint(part, {"fidelity", "loop"}); !hint.empty())
                    throw InputError("--metrics: unknown metric '" + std::string(part) + "'" + hint);
                else add(std::string(part));
            }
        } else if (arg == "--no-check") {
            o.check = false;
        } else if (arg == "--seed") {
            o.seed = parse_count(value(), "--seed", 0, 0xffffffffu);
        } else if (arg == "--device") {
            o.device = static_cast<int>(parse_count(value(), "--device", 0, 1023));
        } else if (arg == "--out") {
            o.out_path = file_name();
        } else if (arg == "--placement") {
            o.placement_path = file_name();
        } else if (arg == "--warp-ends") {
            o.warp_ends_path = file_name();
        } else if (arg == "--warp-times") {
            o.warp_times_path = file_name();
        } else if (arg == "--placement-reps") {
            o.placement_repetitions = static_cast<int>(parse_count(value(), "--placement-reps", 1, 100));
        } else if (arg == "--warm-l2") {
            o.warm_l2 = true;
        } else if (arg == "--smem-per-block") {
            o.smem_per_block = static_cast<std::uint32_t>(parse_count(value(), "--smem-per-block", 0, kMaxDefaultSmemPerBlock));
        } else if (arg == "--describe") {
            o.describe_path = file_name();
        } else if (arg == "--dry-run") {
            o.dry_run = true;
        } else if (arg == "--examples") {
            o.examples.clear();
            for (std::string_view part : split(value(), ',')) {
                if (part.empty()) throw InputError("--examples: empty example");
                o.examples.emplace_back(part);
            }
        } else if (arg == "--trace-dir") {
            o.trace_dir = file_name();
        } else if (arg == "--merge-ncu") {
            o.merge_ncu_csv = file_name();
        } else if (arg == "--rows") {
            o.merge_rows_csv = file_name();
        } else if (!arg.starts_with("-")) {
            throw InputError("unexpected argument '" + std::string(arg) +
                             "' (every value follows its option, as in --kernel stencil,matmul)");
        } else {
            throw InputError("unknown option '" + std::string(arg) + "'" + option_hint(arg) + " (see --help)");
        }
    }
    if (o.metrics.empty()) o.metrics = default_metrics();
    if (!schedules_given) schedules.push_back(cachesim::Schedule{});  // linear, the thesis's naive
    if (!widths_given && !schedules_given) widths = thesis_column_widths();
    for (std::uint32_t w : widths)
        schedules.push_back(cachesim::Schedule{cachesim::ScheduleKind::column, w, 0});
    o.schedules = schedules;
    const bool only_index64 = o.variants.size() == 1 && o.variants[0] == KernelVariant::index64;
    if (!only_index64 && !(o.placement_path.empty() && o.warp_times_path.empty()))
        throw InputError("--placement and --warp-times record the index64 kernels only (leave out --variants)");
    // the warp ends' rows name no compilation: one file holds one
    if (o.variants.size() != 1 && !o.warp_ends_path.empty())
        throw InputError("--warp-ends records one compilation per file (give --variants one of them)");
    if (!o.describe_path.empty() && !other_option.empty())
        throw InputError("--describe writes the device's description and runs nothing else; " + other_option +
                         " belongs to a run of its own (--device picks the GPU to describe)");
    if (o.warm_l2 && o.counters == CounterMode::ncu)
        throw InputError("--warm-l2 with --counters ncu: Nsight Compute's --cache-control all flushes the L2 before "
                         "the profiled launch (use --counters cupti)");
    if (o.counters == CounterMode::ncu && !o.examples.empty())
        throw InputError("--examples: counters come from CUPTI (--counters cupti) or none");
    if (o.smem_per_block && !o.examples.empty())
        throw InputError("--smem-per-block applies to the stencil and matmul sweeps, not to --examples");
    if (o.warm_l2 && !o.examples.empty())
        throw InputError("--warm-l2 applies to the stencil and matmul sweeps, not to --examples");
    if (o.profile_spread_given && !o.profile_reps.adaptive())
        throw InputError("--profile-spread says when --profile-reps N..M takes M; give --profile-reps a range");
    if (o.profile_reps.adaptive() && !o.examples.empty())
        throw InputError("--profile-reps N..M applies to the stencil and matmul sweeps; give --examples a fixed number");
    if (o.profile_reps.adaptive() && o.counters != CounterMode::cupti)
        throw InputError("--profile-reps N..M profiles with --counters cupti only (ncu profiles one launch)");
    if (o.merge_ncu_csv.empty() != o.merge_rows_csv.empty())
        throw InputError("--merge-ncu and --rows go together");
    for (const std::string& example : o.examples) check_example_spec(example);
    return o;
}

void check_output_paths(const Options& o) {
    std::vector<cachesim::NamedPath> outputs;
    if (!o.describe_path.empty()) {
        outputs.push_back({o.describe_path, "--describe"});  // the only output of --describe
    } else {
        outputs.push_back({o.out_path, "--out"});
        for (const cachesim::NamedPath& record : {cachesim::NamedPath{o.placement_path, "--placement"},
                                                  cachesim::NamedPath{o.warp_times_path, "--warp-times"},
                                                  cachesim::NamedPath{o.warp_ends_path, "--warp-ends"}})
            if (!record.path.empty()) outputs.push_back(record);
    }
    cachesim::check_outputs(outputs, {});
}

std::vector<BenchConfig> expand_configs(const Options& o) {
    std::vector<BenchConfig> configs;
    for (cachesim::WorkloadKind kind : o.kernels) {
        const bool stencil = kind == cachesim::WorkloadKind::stencil;
        std::vector<Dimensions> sizes = o.sizes;
        if (sizes.empty()) sizes.push_back(stencil ? Dimensions{4096, 4096} : Dimensions{1024, 1024});
        for (const Dimensions& size : sizes) {
            // The stencil sweeps box sizes, the matmul depths; the other list is unused.
            std::vector<std::uint32_t> inner;
            if (stencil) {
                for (std::size_t b = 0; b < o.boxes.size(); ++b) inner.push_back(static_cast<std::uint32_t>(b));
            } else {
                inner = o.depths.empty() ? std::vector<std::uint32_t>{size.w} : o.depths;
            }
            for (std::uint32_t v : inner) {
                for (const cachesim::Schedule& schedule : o.schedules) {
                    for (std::uint32_t block : o.blocks) {
                      for (KernelVariant variant : o.variants) {
                        BenchConfig c;
                        c.variant = variant;
                        c.spec.kind = kind;
                        c.spec.width = size.w;
                        c.spec.height = size.h;
                        c.spec.elem_bytes = 4;
                        c.spec.schedule = schedule;
                        if (stencil) {
                            c.spec.stencil_w = o.boxes[v].w;
                            c.spec.stencil_h = o.boxes[v].h;
                            c.spec.depth = 0;
                        } else {
                            c.spec.stencil_w = c.spec.stencil_h = 0;
                            c.spec.depth = v;
                        }
                        c.block = block;
                        cachesim::validate(c.spec);
                        configs.push_back(c);
                      }
                    }
                }
            }
        }
    }
    return configs;
}

}  // namespace gpubench
