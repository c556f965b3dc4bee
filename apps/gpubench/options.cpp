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

namespace {

// What the options write besides Options itself, until parse_options puts the schedules together.
struct ParseState {
    explicit ParseState(Options& options) : o(options) {}
    Options& o;
    bool widths_given = false, schedules_given = false;
    std::vector<std::uint32_t> widths;
    std::vector<cachesim::Schedule> schedules;
};

// The argument list as an option's handler reads it: its value, or its file name.
class OptionValues {
public:
    OptionValues(int argc, char** argv, int& i) : argc_(argc), argv_(argv), i_(i) {}
    std::string_view name() const { return argv_[i_]; }
    std::string_view value() {
        if (i_ + 1 >= argc_) throw InputError(std::string(name()) + " needs a value");
        return argv_[++i_];
    }
    // A path option's value, which must not be empty; an option where it should be means the name
    // was left out ("--describe --device 1"), not a file called "--device".
    std::string file_name();

private:
    int argc_;
    char** argv_;
    int& i_;
};

using OptionHandler = void (*)(ParseState&, OptionValues&);

struct OptionEntry {
    std::string_view name;
    OptionHandler handle;
};

void parse_kernels(ParseState& p, OptionValues& args) {
    const std::string_view v = args.value();
    if (v == "all") {
        p.o.kernels = {cachesim::WorkloadKind::stencil, cachesim::WorkloadKind::matmul};
        return;
    }
    p.o.kernels.clear();
    for (std::string_view part : split(v, ',')) p.o.kernels.push_back(cachesim::parse_workload_kind(part));
}

void parse_variants(ParseState& p, OptionValues& args) {
    p.o.variants.clear();
    for (std::string_view part : split(args.value(), ',')) {
        const std::optional<KernelVariant> v = parse_kernel_variant(part);
        if (!v)
            throw InputError("--variants: unknown variant '" + std::string(part) + "' (index64, index32 or unroll1)" +
                             cachesim::case_hint(part, [](std::string_view lower) {
                                 return parse_kernel_variant(lower).has_value();
                             }));
        p.o.variants.push_back(*v);
    }
}

void parse_metrics(ParseState& p, OptionValues& args) {
    std::vector<std::string>& metrics = p.o.metrics;
    metrics.clear();
    auto add = [&](const std::string& metric) {  // each metric once
        if (std::find(metrics.begin(), metrics.end(), metric) == metrics.end()) metrics.push_back(metric);
    };
    for (std::string_view part : split(args.value(), ',')) {
        if (part.empty()) throw InputError("--metrics: empty metric name");
        // the named sets: cachesim compare's metrics, and what limits the compiled loop
        if (part == "fidelity") for (const std::string& m : default_metrics()) add(m);
        else if (part == "loop") for (const std::string& m : loop_metrics()) add(m);
        else if (const std::string hint = cachesim::case_hint(part, {"fidelity", "loop"}); !hint.empty())
            throw InputError("--metrics: unknown metric '" + std::string(part) + "'" + hint);
        else add(std::string(part));
    }
}

void parse_examples(ParseState& p, OptionValues& args) {
    p.o.examples.clear();
    for (std::string_view part : split(args.value(), ',')) {
        if (part.empty()) throw InputError("--examples: empty example");
        p.o.examples.emplace_back(part);
    }
}

// Every option parse_options takes, each with what it does: the one list of them (the hint at an
// option it does not take, and the check that a file name is not an option, read it too).
constexpr OptionEntry kOptions[] = {
    {"--help", [](ParseState& p, OptionValues&) { p.o.help = true; }},
    {"-h", [](ParseState& p, OptionValues&) { p.o.help = true; }},
    {"--kernel", parse_kernels},
    {"--size", [](ParseState& p, OptionValues& a) { p.o.sizes = parse_dimension_list(a.value(), "--size"); }},
    {"--stencil", [](ParseState& p, OptionValues& a) { p.o.boxes = parse_dimension_list(a.value(), "--stencil"); }},
    {"--depth", [](ParseState& p, OptionValues& a) { p.o.depths = parse_counts(a.value(), "--depth", 1, 1u << 20); }},
    {"--schedules",
     [](ParseState& p, OptionValues& a) {
         p.schedules_given = true;
         for (std::string_view part : split(a.value(), ',')) p.schedules.push_back(cachesim::parse_schedule(part));
     }},
    {"--widths",
     [](ParseState& p, OptionValues& a) {
         p.widths_given = true;
         const std::string_view v = a.value();
         if (v != "none") p.widths = parse_counts(v, "--widths", 1, 1u << 24);
     }},
    {"--blocks", [](ParseState& p, OptionValues& a) { p.o.blocks = parse_counts(a.value(), "--blocks", 1, 1024); }},
    {"--variants", parse_variants},
    {"--warmup",
     [](ParseState& p, OptionValues& a) { p.o.warmup = static_cast<int>(parse_count(a.value(), "--warmup", 0, 1000)); }},
    {"--reps",
     [](ParseState& p, OptionValues& a) {
         p.o.repetitions = static_cast<int>(parse_count(a.value(), "--reps", 1, 100000));
     }},
    {"--profile-reps",
     [](ParseState& p, OptionValues& a) {
         const ProfileReps launches = parse_profile_reps(a.value());  // --profile-spread keeps its own
         p.o.profile_reps.least = launches.least;
         p.o.profile_reps.most = launches.most;
     }},
    {"--profile-spread",
     [](ParseState& p, OptionValues& a) {
         p.o.profile_reps.spread_points = parse_spread_points(std::string(a.value()));
         p.o.profile_spread_given = true;
     }},
    {"--counters", [](ParseState& p, OptionValues& a) { p.o.counters = parse_counter_mode(a.value()); }},
    {"--metrics", parse_metrics},
    {"--no-check", [](ParseState& p, OptionValues&) { p.o.check = false; }},
    {"--seed", [](ParseState& p, OptionValues& a) { p.o.seed = parse_count(a.value(), "--seed", 0, 0xffffffffu); }},
    {"--device",
     [](ParseState& p, OptionValues& a) { p.o.device = static_cast<int>(parse_count(a.value(), "--device", 0, 1023)); }},
    {"--out", [](ParseState& p, OptionValues& a) { p.o.out_path = a.file_name(); }},
    {"--placement", [](ParseState& p, OptionValues& a) { p.o.placement_path = a.file_name(); }},
    {"--warp-ends", [](ParseState& p, OptionValues& a) { p.o.warp_ends_path = a.file_name(); }},
    {"--warp-times", [](ParseState& p, OptionValues& a) { p.o.warp_times_path = a.file_name(); }},
    {"--placement-reps",
     [](ParseState& p, OptionValues& a) {
         p.o.placement_repetitions = static_cast<int>(parse_count(a.value(), "--placement-reps", 1, 100));
     }},
    {"--warm-l2", [](ParseState& p, OptionValues&) { p.o.warm_l2 = true; }},
    {"--smem-per-block",
     [](ParseState& p, OptionValues& a) {
         p.o.smem_per_block =
             static_cast<std::uint32_t>(parse_count(a.value(), "--smem-per-block", 0, kMaxDefaultSmemPerBlock));
     }},
    {"--describe", [](ParseState& p, OptionValues& a) { p.o.describe_path = a.file_name(); }},
    {"--dry-run", [](ParseState& p, OptionValues&) { p.o.dry_run = true; }},
    {"--examples", parse_examples},
    {"--trace-dir", [](ParseState& p, OptionValues& a) { p.o.trace_dir = a.file_name(); }},
    {"--merge-ncu", [](ParseState& p, OptionValues& a) { p.o.merge_ncu_csv = a.file_name(); }},
    {"--rows", [](ParseState& p, OptionValues& a) { p.o.merge_rows_csv = a.file_name(); }},
};

const OptionEntry* find_option(std::string_view name) {
    const auto found = std::ranges::find(kOptions, name, &OptionEntry::name);
    return found == std::end(kOptions) ? nullptr : found;
}

std::string OptionValues::file_name() {
    const bool missing = i_ + 1 >= argc_ || *argv_[i_ + 1] == '\0' || find_option(argv_[i_ + 1]) != nullptr;
    if (missing)
        throw InputError(std::string(name()) + " needs a file name" +
                         (i_ + 1 < argc_ && *argv_[i_ + 1] ? std::string(" before ") + argv_[i_ + 1] : std::string()));
    return std::string(value());
}

// " (did you mean --schedules?)" for a long option that is a slip of a known one, as cachesim
// names them; "" otherwise.
std::string option_hint(std::string_view arg) {
    if (!arg.starts_with("--")) return "";
    std::vector<std::string_view> long_names;
    for (const OptionEntry& known : kOptions)
        if (known.name.starts_with("--")) long_names.push_back(known.name.substr(2));
    const std::optional<std::string> closest = cachesim::closest_name(arg.substr(2, arg.find('=') - 2), long_names);
    return closest ? " (did you mean --" + *closest + "?)" : "";
}

}  // namespace

Options parse_options(int argc, char** argv) {
    Options o;
    ParseState state(o);
    std::string other_option;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        // --describe runs nothing else: the first other option, to name it if both are given
        if (other_option.empty() && arg != "--describe" && arg != "--device" && arg != "--help" && arg != "-h")
            other_option = std::string(arg);
        if (const OptionEntry* option = find_option(arg)) {
            OptionValues values(argc, argv, i);
            option->handle(state, values);
        } else if (!arg.starts_with("-")) {
            throw InputError("unexpected argument '" + std::string(arg) +
                             "' (every value follows its option, as in --kernel stencil,matmul)");
        } else {
            throw InputError("unknown option '" + std::string(arg) + "'" + option_hint(arg) + " (see --help)");
        }
    }
    std::vector<std::uint32_t>& widths = state.widths;
    std::vector<cachesim::Schedule>& schedules = state.schedules;
    const bool widths_given = state.widths_given, schedules_given = state.schedules_given;
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
