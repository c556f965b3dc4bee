// cachesim compare: simulate every measured configuration with the GPU model and put the
// simulated counters beside the measured ones.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include <unistd.h>

#include "apps/common/atomic_file.hpp"
#include "apps/common/config_origins.hpp"
#include "traces/atomic_output.hpp"
#include "apps/cachesim/compare_plot.hpp"
#include "apps/cachesim/number_text.hpp"
#include "apps/cachesim/compare_stats.hpp"
#include "apps/cachesim/gpu_description.hpp"
#include "apps/cachesim/sweep_progress.hpp"
#include "apps/cachesim/sweep_run.hpp"
#include "apps/common/options.hpp"
#include "apps/cachesim/report.hpp"
#include "apps/cachesim/subcommands.hpp"
#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/gpu_parameters.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "sim/gpu/known_misses.hpp"
#include "sim/gpu/loop_issue_cost.hpp"
#include "sim/gpu/warp_rate.hpp"
#include "sim/text.hpp"
#include "traces/csv_table.hpp"
#include "traces/choice_hint.hpp"
#include "traces/input_error.hpp"
#include "traces/trace_format_reader.hpp"

namespace cachesim::cli {

namespace {

// "--rows 3-10" (1-based data rows, inclusive) or "--rows 5".
std::pair<std::size_t, std::size_t> parse_rows(const std::string& text) {
    const auto dash = text.find('-');
    const std::uint64_t first = parse_size(text.substr(0, dash), "--rows");
    const std::uint64_t last = dash == std::string::npos ? first : parse_size(text.substr(dash + 1), "--rows");
    if (first == 0 || last < first) throw InputError("--rows: expected A-B with 1 <= A <= B, not '" + text + "'");
    return {first, last};
}

// "--where schedule=linear" keeps rows whose named field has that value.
// The fields --where can name (where_field reads each).
constexpr std::string_view kWhereFields[] = {"kernel", "schedule", "block",   "width",         "height",
                                             "stencil", "depth",   "variant", "smem_per_block"};

// The value of --where's `key` in a row.
std::string where_field(const MeasuredRun& run, const std::string& key) {
    const WorkloadSpec& w = run.workload;
    if (key == "kernel") return measured_kernel_name(run);
    if (key == "schedule") return measured_schedule_name(run);
    if (key == "block") return std::to_string(run.block);
    if (key == "width") return std::to_string(w.width);
    if (key == "height") return std::to_string(w.height);
    // What the file says of a field the workload does not have (gpubench writes 0), not the
    // model's default for it.
    if (key == "stencil")
        return w.kind == WorkloadKind::stencil ? std::to_string(w.stencil_w) + "x" + std::to_string(w.stencil_h) : "0x0";
    if (key == "depth") return run.recorded() || w.kind == WorkloadKind::matmul ? std::to_string(w.depth) : "0";
    if (key == "variant") return run.variant.empty() ? "index64" : run.variant;
    if (key == "smem_per_block") return std::to_string(run.shared_bytes.value_or(0));
    std::string fields;
    for (std::string_view field : kWhereFields) fields += (fields.empty() ? "" : ", ") + std::string(field);
    throw InputError("--where: unknown field '" + key + "' (" + fields + ")" + case_hint(key, [](std::string_view lower) {
                         return std::find(std::begin(kWhereFields), std::end(kWhereFields), lower) != std::end(kWhereFields);
                     }));
}

bool matches(const MeasuredRun& run, const std::vector<std::string>& filters) {
    for (const std::string& f : filters) {
        const auto eq = f.find('=');
        if (eq == std::string::npos) throw InputError("--where: expected field=value, not '" + f + "'");
        const std::string key = f.substr(0, eq), value = f.substr(eq + 1);
        const std::string actual = where_field(run, key);
        // A value no row could have is a typo, not a filter that leaves nothing.
        const bool whole = key == "block" || key == "width" || key == "height" || key == "depth" || key == "smem_per_block";
        if (whole && (value.empty() || value.find_first_not_of("0123456789") != std::string::npos))
            throw InputError("--where " + f + ": " + key + " is a whole number");
        if (key == "stencil" && value != "0x0") {
            std::uint32_t sw = 0, sh = 0;
            parse_dimensions(value, "--where " + f, sw, sh);
        }
        if (actual != value) return false;
    }
    return true;
}

// Numbers in numeric order (128 before 1024), other values as text.
struct FieldOrder {
    bool operator()(const std::string& a, const std::string& b) const {
        const auto number = [](const std::string& v) { return !v.empty() && v.find_first_not_of("0123456789") == std::string::npos; };
        if (number(a) && number(b) && a.size() != b.size()) return a.size() < b.size();
        return a < b;
    }
};
using FieldValues = std::vector<std::pair<std::string, std::set<std::string, FieldOrder>>>;

// What the rows held of each --where field before filtering, for the message when none is left.
std::string where_values_note(const FieldValues& fields) {
    std::string note;
    for (const auto& [key, values] : fields) {
        std::string list;
        std::size_t shown = 0;
        for (const std::string& v : values) {
            if (shown++ == 8) {
                list += ", ...";
                break;
            }
            list += (list.empty() ? "" : ", ") + v;
        }
        note += (note.empty() ? " (" : "; ") + key + " in the rows: " + list;
    }
    return note.empty() ? note : note + ")";
}

std::string describe(const MeasuredRun& r) {
    const WorkloadSpec& w = r.workload;
    if (r.recorded()) {  // e.g. "gemm 2048x2048 d2048"
        // Appended piecewise: GCC 12 warns (-Wrestrict, falsely) on the chained operator+ form.
        std::string s = r.kernel;
        s.append(" ").append(std::to_string(w.width)).append("x").append(std::to_string(w.height));
        if (w.depth) s.append(" d").append(std::to_string(w.depth));
        return s;
    }
    std::string s(workload_name(w.kind));
    s.append(" ").append(std::to_string(w.width)).append("x").append(std::to_string(w.height));
    if (w.kind == WorkloadKind::stencil)
        s.append(" ").append(std::to_string(w.stencil_w)).append("x").append(std::to_string(w.stencil_h));
    else
        s.append(" d").append(std::to_string(w.depth));
    return s;
}

// The options that describe an Nsight Compute CSV's launches.
constexpr const char* kNcuLaunchOptions[] = {"workload", "size", "stencil", "depth", "elem-bytes", "schedule"};

// The simulated over the measured count, n/a where nothing was measured.
std::string ratio_text(double simulated, double measured) {
    return measured > 0 ? fixed_text(simulated / measured, 3) : "n/a";
}

void print_table(std::ostream& out, const std::vector<ComparedRun>& runs) {
    // The name columns are as wide as their longest entry (recorded kernels have long names).
    int workload_width = 24, schedule_width = 13;
    for (const ComparedRun& r : runs) {
        workload_width = std::max(workload_width, static_cast<int>(describe(r.measured).size()) + 1);
        schedule_width = std::max(schedule_width, static_cast<int>(measured_schedule_name(r.measured).size()) + 1);
    }
    // A number column: a space, then right-aligned, so that a value wider than its column still
    // stands apart from the one before it.
    const auto column = [&out](const std::string& text, int width) { out << ' ' << std::setw(width - 1) << text; };
    out << std::left << std::setw(workload_width) << "workload" << std::setw(schedule_width) << "schedule" << std::right << std::setw(6)
        << "block" << " |";
    // (the first column after a bar is one wider: the space after the bar is its own)
    column("L1 meas", 9);
    column("L1 sim", 8);
    column("error", 8);
    out << " |";
    column("L2 meas", 9);
    column("L2 sim", 8);
    column("error", 8);
    out << " |";
    column("L1 sectors", 14);
    column("sim/hw", 8);
    out << " |";
    column("DRAM MB", 11);
    column("sim/hw", 8);
    out << "\n";
    for (const ComparedRun& r : runs) {
        const MeasuredMetrics& m = r.measured.metrics;
        out << std::left << std::setw(workload_width) << describe(r.measured) << std::setw(schedule_width)
            << measured_schedule_name(r.measured) << std::right << std::setw(6) << r.measured.block << " |";
        // (a rate over no lookups is no rate: n/a, as its error)
        const bool rated1 = r.l1_rate_measured(), rated2 = r.l2_rate_measured();
        column(rated1 ? fixed_text(m.l1_hit_rate_pct, 2) : "n/a", 9);
        column(fixed_text(r.simulated.l1_hit_rate_pct(), 2), 8);
        column(rated1 ? fixed_text(r.l1_error_pp(), 2) : "n/a", 8);
        out << " |";
        column(rated2 ? fixed_text(m.l2_hit_rate_pct(), 2) : "n/a", 9);
        column(fixed_text(r.simulated_l2_hit_rate_pct(), 2), 8);
        column(rated2 ? fixed_text(r.l2_error_pp(), 2) : "n/a", 8);
        out << " |";
        column(std::to_string(static_cast<std::uint64_t>(m.l1_sectors)), 14);
        column(ratio_text(r.simulated.l1_sectors_ld, m.l1_sectors), 8);
        out << " |";
        column(fixed_text(m.dram_bytes_read / 1e6, 1), 11);
        column(ratio_text(r.simulated.dram_bytes_read, m.dram_bytes_read), 8);
        out << "\n";
    }
}

void print_summary(std::ostream& out, const CompareSummary& s) {
    // The rate statistics are over the runs with a measured rate at that level, which the
    // denominators give.
    out << "\n" << counted(s.runs, "run") << ": L1 hit rate |error| mean " << fixed_text(s.l1_mean_abs_pp, 2) << " pp, worst "
        << fixed_text(s.l1_worst_abs_pp, 2) << " pp, within 3 pp: " << s.l1_within_3pp << "/" << s.l1_rated_runs
        << "\n        L2 hit rate |error| mean " << fixed_text(s.l2_mean_abs_pp, 2) << " pp, worst "
        << fixed_text(s.l2_worst_abs_pp, 2) << " pp, within 5 pp: " << s.l2_within_5pp << "/" << s.l2_rated_runs
        << "\n        L1 global-load sectors equal to the hardware's: " << s.sector_count_exact << "/" << s.runs
        << "\n        schedule rank correlation (Spearman, mean over " << s.ranked_groups
        << " groups of >= 3 schedules): L1 " << fixed_text(s.l1_rank_correlation, 3) << ", L2 "
        << fixed_text(s.l2_rank_correlation, 3) << "\n";
    // (docs/fidelity.md, "Which launches to trust")
    out << "        L1 within 3 pp where >= " << fixed_text(kTimingDependentPoints, 0)
        << " points of the simulated rate come from other blocks (hits that need the SM's blocks in step): "
        << s.timing_dependent_l1_within_3pp << "/" << s.timing_dependent_runs << ", elsewhere "
        << s.other_runs_l1_within_3pp << "/" << (s.l1_rated_runs - s.timing_dependent_runs) << "\n";
    if (s.known_miss_runs > 0)
        out << "        in a region where the model is known to miss the chip (simulate's caution lines; "
               "the list: docs/cli.md): "
            << counted(s.known_miss_runs, "run") << ", L1 within 3 pp " << s.known_miss_l1_within_3pp << "/"
            << s.known_miss_runs << "\n";
    if (s.ranged_runs > 0)
        out << "        against the hardware's run-to-run range (min..max over the profiled launches, "
            << counted(s.ranged_runs, "run") << "): L1 within 3 pp of it: " << s.l1_within_3pp_of_range << "/" << s.ranged_runs
            << ", L2 within 5 pp of it: " << s.l2_within_5pp_of_range << "/" << s.ranged_runs << "\n";
    if (s.best_groups > 0)
        out << "        best schedule of a group (highest hit rate) is the hardware's best: L1 " << s.l1_best_same << "/"
            << s.best_groups << ", L2 " << s.l2_best_same << "/" << s.best_groups
            << "; the hardware loses at most " << fixed_text(s.l1_best_worst_loss_pp, 2) << " pp (L1), "
            << fixed_text(s.l2_best_worst_loss_pp, 2) << " pp (L2) running the simulated best instead\n";
    if (s.ranged_best_groups > 0)
        out << "        best schedule not repeatably worse on the hardware than its best (run-to-run ranges "
               "meeting, "
            << s.ranged_best_groups << " groups with ranges): L1 " << s.l1_best_not_repeatably_worse << "/"
            << s.ranged_best_groups << ", L2 " << s.l2_best_not_repeatably_worse << "/" << s.ranged_best_groups
            << "\n";
    // The fidelity targets (docs/fidelity.md), counted.
    out << "        targets: L1 within 3 pp " << s.l1_within_3pp << "/" << s.l1_rated_runs << ", beyond 6 pp " << s.l1_beyond_6pp
        << "; L2 within 5 pp on stencil launches " << s.stencil_l2_within_5pp << "/" << s.stencil_runs
        << "; best schedule the hardware's best or within 1 pp: L1 " << s.l1_best_within_1pp << "/" << s.best_groups
        << ", L2 " << s.l2_best_within_1pp << "/" << s.best_groups << "; requests exact " << s.request_count_exact
        << "/" << s.runs << ", sectors exact " << s.sector_count_exact << "/" << s.runs << "\n";
    if (s.l1_repeatable_pairs + s.l2_repeatable_pairs > 0)
        out << "        schedule pairs the hardware orders repeatably (run-to-run ranges apart), simulated in the "
               "same order: L1 "
            << s.l1_repeatable_same_order << "/" << s.l1_repeatable_pairs << ", L2 " << s.l2_repeatable_same_order
            << "/" << s.l2_repeatable_pairs << "\n";
}

// A row that carries its loop's counters (smsp__inst_executed, sm__pipe_*) is simulated with its
// loop as measured, where the options leave the loop to auto: what limits it decides the Hopper
// presets' scheduling rules, as the H200's table does for gpubench's loops. The counters are of
// the compiled code (instructions and pipe cycles per load request), not of the caches.
void apply_loop_counters(const MeasuredRun& run, GpuConfig& config) {
    if (run.loop) apply_launch_loop(config, *run.loop, 0);  // the burst is the compilation's (variant)
}

// Where a measured row's L2 started: gpubench's l2_start column (warm with --warm-l2), else cold.
L2Start l2_start_of(const MeasuredRun& run) { return run.l2_start == "warm" ? L2Start::warm : L2Start::cold; }

std::string joined_csv(const std::vector<ComparedRun>& runs, const std::string& preset) {
    std::ostringstream out;
    out << "line,kernel,width,height,stencil_w,stencil_h,depth,schedule,block,elem_bytes,gpu,time_ms,preset";
    const auto& names = measured_metric_names();
    for (const std::string& n : names) out << ",measured:" << n << ",simulated:" << n;
    out << ",measured:l2_hit_rate.pct,simulated:l2_hit_rate.pct,l1_hit_rate_error_pp,l2_hit_rate_error_pp"
        << ",measured:l1_hit_rate.pct:min,measured:l1_hit_rate.pct:max,measured:l2_hit_rate.pct:min"
        << ",measured:l2_hit_rate.pct:max,set,variant,l2_start,simulated:l1_hit_rate_other_block.pct"
        << ",measured:loop_cycles_per_request,measured:loop_busiest\n";
    for (const ComparedRun& r : runs) {
        const MeasuredRun& m = r.measured;
        const WorkloadSpec& w = m.workload;
        const bool stencil = !m.recorded() && w.kind == WorkloadKind::stencil;
        out << m.line << "," << csv_field(measured_kernel_name(m)) << "," << w.width << "," << w.height << ","
            << (stencil ? w.stencil_w : 0) << "," << (stencil ? w.stencil_h : 0) << ","
            << (m.recorded() || w.kind == WorkloadKind::matmul ? w.depth : 0) << ","
            << csv_field(measured_schedule_name(m)) << "," << m.block
            << "," << w.elem_bytes << "," << csv_field(m.gpu) << ","
            << (m.time_ms ? fixed_text(*m.time_ms, 6) : std::string()) << "," << preset;
        const MeasuredMetrics& mm = m.metrics;
        const NcuCounters& s = r.simulated;
        const double measured[] = {mm.l1_requests, mm.l1_sectors, mm.l1_sector_hits, mm.l1_hit_rate_pct,
                                   mm.l2_sectors, mm.l2_sector_hits, mm.dram_bytes_read};
        const double simulated[] = {static_cast<double>(s.l1_requests_ld), static_cast<double>(s.l1_sectors_ld),
                                    static_cast<double>(s.l1_sectors_ld_hit), s.l1_hit_rate_pct(),
                                    static_cast<double>(s.l2_sectors_tex_read),
                                    static_cast<double>(s.l2_sectors_tex_read_hit),
                                    static_cast<double>(s.dram_bytes_read)};
        for (std::size_t i = 0; i < names.size(); ++i)
            out << "," << fixed_text(measured[i], i == 3 ? 4 : 0) << "," << fixed_text(simulated[i], i == 3 ? 4 : 0);
        out << "," << fixed_text(mm.l2_hit_rate_pct(), 4) << "," << fixed_text(r.simulated_l2_hit_rate_pct(), 4) << ","
            << (r.l1_rate_measured() ? fixed_text(r.l1_error_pp(), 4) : std::string()) << ","
            << (r.l2_rate_measured() ? fixed_text(r.l2_error_pp(), 4) : std::string());  // no rate, no error
        for (const std::optional<MeasuredRange>& range : {mm.l1_hit_rate_range, mm.l2_hit_rate_range})
            out << "," << (range ? fixed_text(range->min, 4) : std::string()) << ","
                << (range ? fixed_text(range->max, 4) : std::string());
        out << "," << csv_field(m.set) << "," << csv_field(m.variant) << ","
            << (l2_start_of(m) == L2Start::warm ? "warm" : "cold") << "," << fixed_text(r.other_block_hit_pct(), 4) << ","
            << (m.loop ? fixed_text(m.loop->cycles_per_request, 2) : std::string()) << ","
            << (m.loop ? csv_field(m.loop->busiest) : std::string()) << "\n";
    }
    return out.str();
}

// The compilation a row was measured with (its `variant` column), which --issue-burst auto reads;
// nullopt when the file does not say, or for a recorded kernel, which is not one of gpubench's
// compiled loops (gpubench labels its rows `example`).
std::optional<KernelCompilation> compilation_of(const MeasuredRun& run) {
    if (run.variant.empty() || run.recorded()) return std::nullopt;
    const auto c = parse_choice<KernelCompilation>(kKernelCompilationChoices, run.variant);
    if (!c)
        throw InputError(run.source + ":" + std::to_string(run.line) + ", column 'variant': unknown compilation '" +
                         run.variant + "' (" +
                         choice_list(choice_texts<KernelCompilation>(kKernelCompilationChoices)) + ")");
    return c;
}

// "--measured SET=FILE" names the file's set; a plain FILE's set is its name up to the first '_'
// (training_stencil.csv: training), so the files say which set they hold.
std::pair<std::string, std::string> set_and_path(const std::string& arg) {
    if (arg == "-") return {"stdin", arg};  // standard input: no file name to take a set from
    const std::size_t eq = arg.find('=');
    if (eq != std::string::npos && eq > 0 && arg.find('/') > eq && !std::filesystem::exists(arg))
        return {arg.substr(0, eq), arg.substr(eq + 1)};
    std::string stem = std::filesystem::path(arg).stem().string();
    return {stem.substr(0, stem.find('_')), arg};
}

// How messages name a --measured path.
std::string measured_name(const std::string& path) { return path == "-" ? "standard input" : path; }

// The text of a --measured path: "-" is standard input (a pipe: gpubench ... --out - | cachesim
// compare --measured -); a directory is said to be one rather than read as a file without rows.
std::string read_measured_text(const std::string& path) {
    if (path == "-") {
        std::ostringstream text;
        text << std::cin.rdbuf();
        return text.str();
    }
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw InputError(path + ": a directory, not a measured CSV");
    return read_text_file(path);
}

// What the report groups rows by: the set, and the compilation where it is not the training one.
std::string report_group(const MeasuredRun& run) {
    return run.variant.empty() || run.variant == "index64" ? run.set : run.set + " " + run.variant;
}

// The kernel's own footprint in `config`: a recorded launch's shared memory and registers, or
// gpubench --smem-per-block's shared memory.
void with_row_footprint(const MeasuredRun& row, GpuConfig& config) {
    if (row.shared_bytes) config.smem_per_block = *row.shared_bytes;
    if (row.registers) config.regs_per_thread = *row.registers;
}

// The model's configuration for one row: `base` with the row's block, L2 start, compilation, loop
// counters and footprint.
GpuConfig row_config(const MeasuredRun& row, const GpuConfig& base) {
    GpuConfig config = base;
    config.block = row.block;
    config.l2_start = l2_start_of(row);
    if (const auto compilation = compilation_of(row)) config.compilation = *compilation;
    apply_loop_counters(row, config);
    with_row_footprint(row, config);
    return config;
}

// Simulates every run, `jobs` at once, each on `threads` threads of the GPU model; results keep
// the input order, whatever the timing. Progress weighs each run by its warp requests.
std::vector<ComparedRun> simulate_all(const std::vector<MeasuredRun>& measured, const GpuConfig& base,
                                      unsigned jobs, unsigned threads, bool progress) {
    std::vector<ComparedRun> runs(measured.size());
    std::atomic<std::size_t> next{0};
    std::mutex error_mutex, print_mutex;
    std::exception_ptr error;
    std::vector<double> work;
    for (const MeasuredRun& m : measured) {
        GpuConfig config = base;
        config.block = m.block;
        // (a recorded launch: its accesses over the warp width, from the trace's header)
        double requests = 0;
        try {
            requests = m.recorded() ? static_cast<double>(cst::TraceFileSource(m.trace).header().accesses) / config.warp_size
                                    : static_cast<double>(gpu_warp_requests(m.workload, config));
        } catch (const InputError& e) {
            // which row names the trace, in the user's file; an Accel-Sim trace is converted first
            const bool traceg = m.trace.find(".traceg") != std::string::npos;
            throw InputError(m.source + ":" + std::to_string(m.line) + ": the row's trace: " + e.what() +
                             (traceg ? " (a row replays a cst trace: convert an Accel-Sim kernel trace with "
                                       "cachesim trace --trace FILE.traceg --out FILE.cst)"
                                     : ""));
        }
        work.push_back(l2_start_of(m) == L2Start::warm ? 2 * requests : requests);  // a warm start runs it twice
    }
    WorkProgress done(std::move(work));
    const auto start = std::chrono::steady_clock::now();
    auto last_print = start - std::chrono::seconds(1);
    auto print = [&](bool always) {
        if (!progress) return;
        std::lock_guard lock(print_mutex);
        const auto now = std::chrono::steady_clock::now();
        if (!always && now - last_print < std::chrono::seconds(1)) return;
        last_print = now;
        const double elapsed = std::chrono::duration<double>(now - start).count();
        const double fraction = done.fraction();
        const std::size_t finished = done.finished();
        const double eta = eta_seconds(elapsed, fraction);
        std::fprintf(stderr, "\rcompare: %zu/%zu configurations simulated (%.0f%% of the work), %.0f s elapsed, %s   ",
                     finished, measured.size(), 100 * fraction, elapsed,
                     eta < 0 ? "ETA unknown" : ("ETA " + std::to_string(static_cast<long long>(eta + 0.5)) + " s").c_str());
        if (finished == measured.size()) std::fputc('\n', stderr);
    };
    // The first failure is kept and ends the work: no further row is started.
    auto stop = [&](std::exception_ptr failure) {
        std::lock_guard lock(error_mutex);
        if (!error) error = failure;
        next = measured.size();
    };
    auto worker = [&] {
        for (std::size_t i; (i = next++) < measured.size();) {
            try {
                GpuConfig config = row_config(measured[i], base);
                config.count_l1_hit_sources = true;  // the joined CSV's simulated:l1_hit_rate_other_block.pct
                runs[i].measured = measured[i];
                RunControl control;
                control.threads = threads;
                control.progress = [&, i](double fraction) {
                    done.report(i, fraction);
                    print(false);
                };
                const GpuResult g = measured[i].recorded() ? simulate_gpu_trace(measured[i].trace, config, control)
                                                           : simulate_gpu_model(measured[i].workload, config, control);
                runs[i].simulated = g.ncu;
                runs[i].simulated_hit_sources = g.l1_hit_sources;
                const WorkloadSpec* workload =
                    launch_workload(measured[i].recorded() ? nullptr : &measured[i].workload, g.recorded_workload);
                runs[i].in_known_miss_region = !known_misses(workload, config, runs[i].other_block_hit_pct()).empty();
            } catch (const SimulationError& e) {
                // which row could not be simulated, in the user's file
                stop(std::make_exception_ptr(InputError(measured[i].source + ":" + std::to_string(measured[i].line) +
                                                        ": this row cannot be simulated: " + e.what())));
            } catch (...) {
                stop(std::current_exception());
            }
            done.finish(i);
            print(true);
        }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < jobs; ++t) pool.emplace_back(worker);
    for (std::thread& t : pool) t.join();
    if (error) std::rethrow_exception(error);
    return runs;
}

// The overrides of parameters that size the L1 (GpuParameter::sizes_l1), as the user
// gave them: the first `from_config` come from the --config file `config_path`, the rest from --gpu.
std::vector<std::string> l1_size_options(const std::vector<std::string>& overrides, std::size_t from_config,
                                         const std::string& config_path) {
    std::vector<std::string> given;
    for (std::size_t i = 0; i < overrides.size(); ++i) {
        const std::string key = overrides[i].substr(0, overrides[i].find('='));
        const GpuParameter* parameter = find_gpu_parameter(key);
        if (parameter == nullptr || !parameter->sizes_l1) continue;
        given.push_back(i < from_config ? overrides[i] + " (--config " + config_path + ")" : "--gpu " + overrides[i]);
    }
    return given;
}

// What leaves a row's L1 below the size the rates were fitted at: its shared memory, the L1
// options given, the preset's own L1; each that takes part is set.
struct SmallL1Causes {
    bool shared_memory = false, options = false, preset = false;
};

void add_small_l1_causes(const GpuConfig& config, const GpuConfig& preset_config, bool options_given,
                         SmallL1Causes& causes) {
    GpuConfig without_smem = config;
    without_smem.smem_per_block = 0;
    GpuConfig preset_without_smem = preset_config;
    preset_without_smem.block = config.block;
    preset_without_smem.smem_per_block = 0;
    const std::uint64_t l1 = gpu_occupancy(config).l1_bytes, l1_without_smem = gpu_occupancy(without_smem).l1_bytes;
    const std::uint64_t l1_of_preset = gpu_occupancy(preset_without_smem).l1_bytes;
    causes.shared_memory |= l1 < l1_without_smem;
    causes.options |= options_given && l1_without_smem < l1_of_preset;
    causes.preset |= l1_of_preset < kRatesFittedL1Bytes;
}

// "(their shared memory takes the rest)", or what else made the rows' L1 small.
std::string small_l1_cause_text(const SmallL1Causes& causes, const std::vector<std::string>& l1_options,
                                const std::string& preset_name) {
    if (causes.shared_memory && !causes.options && !causes.preset) return "their shared memory takes the rest";
    std::vector<std::string> parts;
    if (causes.options) {
        std::string options;
        for (const std::string& o : l1_options) options += (options.empty() ? "" : ", ") + o;
        parts.push_back("the L1 size given with " + options);
    }
    if (causes.preset) parts.push_back("the " + preset_name + " preset's own L1 size");
    if (causes.shared_memory) parts.push_back("their shared memory");
    std::string text = "made so by ";
    for (std::size_t i = 0; i < parts.size(); ++i) text += (i == 0 ? "" : " and ") + parts[i];
    return text;
}

// Says how many rows the rounds simulate with drawn rates and an L1 smaller than the one those
// rates were fitted at, what made it so (the rows' shared memory, the L1 options given
// (`l1_options`), the preset's own L1), and what is known of the form there: with per-warp rates
// given, the nearer form; with the presets' own, how far it was off (empty: none, or one rate per
// block given).
std::string small_l1_note(const std::vector<MeasuredRun>& rows, const GpuConfig& base, const GpuPreset& preset,
                          const std::vector<std::string>& l1_options) {
    if (base.warp_rate_scope == WarpRateScope::block) return {};  // the user's own choice of form
    std::size_t below = 0;
    SmallL1Causes causes;
    for (const MeasuredRun& r : rows) {
        const GpuConfig config = row_config(r, base);
        try {
            // as the row runs: in lock step where its SM's schedulers keep pace (a recorded row's
            // workload is known only once its trace is read: none here)
            if (!runs_rates_below_fitted_l1(config, r.recorded() ? nullptr : &r.workload)) continue;
            ++below;
            add_small_l1_causes(config, preset.config, !l1_options.empty(), causes);
        } catch (const SimulationError&) {  // a row no SM can hold is refused where it is simulated
        }
    }
    if (below == 0) return {};
    const std::string rows_below = std::to_string(below) + " of the " + std::to_string(rows.size()) +
                                   " rows leave the L1 smaller than the " + std::to_string(kRatesFittedL1Bytes / 1024) +
                                   " KiB the per-warp rates were fitted at (" +
                                   small_l1_cause_text(causes, l1_options, preset.name) + ")";
    if (base.warp_rate_scope == WarpRateScope::warp)
        return rows_below + "; there one rate per block (--gpu warp-rate-scope=block --gpu block-start-skip=4) is "
                            "nearer the H200 (docs/fidelity-shared-memory.md, \"A second shared-memory set\")";
    return rows_below + "; there the presets draw one rate per block, which on the H200's launches measured after "
                        "that choice was up to 32 points low where the chip keeps an SM's blocks in step "
                        "(docs/fidelity-shared-memory.md, \"A small L1 over many waves\")";
}

// Says how many rows report a single-pass L2 rate above 100%, which compare reads as 100 (empty:
// none): more hits than lookups in one pass is no hit rate, and a user should not take the capped
// figure for a measured one.
std::string l2_over_100_note(const std::vector<MeasuredRun>& rows) {
    std::size_t over = 0, median_over = 0;
    double top = 0;
    for (const MeasuredRun& r : rows) {
        const MeasuredMetrics& m = r.metrics;
        if (m.l2_read_hit_rate_top_pct <= 100.0) continue;
        ++over;
        median_over += m.l2_read_hit_rate_pct && *m.l2_read_hit_rate_pct > 100.0;
        top = std::max(top, m.l2_read_hit_rate_top_pct);
    }
    if (over == 0) return {};
    const std::string highest = fixed_text(top, 1);
    return std::to_string(over) + " of the " + std::to_string(rows.size()) + " rows report an L2 read hit rate above 100% (" +
           std::to_string(median_over) + " in their median, the highest " + highest +
           "%), read here as 100%: such a pass counted more hits than lookups, so there a launch's L2 rate is good to a "
           "few points at best, and a median over more launches (gpubench --profile-reps 3..21) steadies it "
           "(docs/h200-data.md, \"What to trust, and how far\")";
}

// Says how many rows carry their loop's counters and what they were taken for (empty: none).
std::string loop_counters_note(const std::vector<MeasuredRun>& rows, const GpuConfig& base) {
    const auto with = std::count_if(rows.begin(), rows.end(), [](const MeasuredRun& r) { return r.loop.has_value(); });
    if (with == 0) return {};
    const auto pipe = std::count_if(rows.begin(), rows.end(),
                                    [](const MeasuredRun& r) { return r.loop && r.loop->pipe_bound(); });
    std::string note = std::to_string(with) + " of the " + std::to_string(rows.size()) +
                       " rows carry their loop's counters (" + std::to_string(pipe) + " bound by a pipe, " +
                       std::to_string(with - pipe) + " by the issue port)";
    const bool limit = base.loop_limit == LoopLimit::automatic, cost = base.loop_issue_cost == kLoopIssueCostAuto;
    if (limit && cost) return note + ": each such row is simulated with its loop's limit and issue cost";
    if (!limit && !cost) return note + ": not used, --gpu loop-limit and loop-issue-cost are given";
    return note + ": each such row is simulated with its loop's " + (limit ? "limit" : "issue cost") + ", --gpu " +
           (limit ? "loop-issue-cost" : "loop-limit") + " being given";
}

// The GPUs the rows were measured on (their `gpu` cells, or an Nsight Compute page's device name,
// each once, in the order they come; rows that name none left out).
std::vector<std::string> gpus_of(const std::vector<MeasuredRun>& rows) {
    std::vector<std::string> gpus;
    for (const MeasuredRun& r : rows)
        if (!r.gpu.empty() && std::find(gpus.begin(), gpus.end(), r.gpu) == gpus.end()) gpus.push_back(r.gpu);
    return gpus;
}

// Without --preset, the preset of the GPU the rows name: a GPU no preset describes, or rows of
// GPUs of different presets, are refused rather than simulated as some other chip.
std::string preset_for_rows(const std::vector<MeasuredRun>& rows) {
    const std::vector<std::string> gpus = gpus_of(rows);
    if (gpus.empty()) {
        std::cerr << "compare: the measured rows name no GPU; simulating them with the " << kDefaultGpuPreset
                  << " preset (--preset chooses another)\n";
        return std::string(kDefaultGpuPreset);
    }
    std::string chosen;
    for (const std::string& gpu : gpus) {
        const GpuPreset* p = find_gpu_preset_for_device(gpu);
        if (!p)
            throw InputError("the measured rows were taken on '" + gpu + "', which no preset describes; give "
                             "--preset NAME to simulate them with one (" + gpu_preset_names() +
                             "), or --config FILE with the description `gpubench --describe FILE` writes for "
                             "that GPU (docs/gpu-model.md, \"Your own GPU\")");
        if (!chosen.empty() && p->name != chosen)
            throw InputError("the measured rows were taken on GPUs of different presets ('" + gpus.front() +
                             "': " + chosen + ", '" + gpu + "': " + p->name + "); compare one GPU at a time, or "
                             "give --preset NAME");
        chosen = p->name;
    }
    std::cerr << "compare: rows measured on " << gpus.front() << ": the " << chosen
              << " preset (--preset chooses another)\n";
    return chosen;
}

// With --preset, a note for each GPU of the rows that the preset does not describe.
void warn_other_gpus(const std::vector<MeasuredRun>& rows, const std::string& preset) {
    for (const std::string& gpu : gpus_of(rows)) {
        const GpuPreset* p = find_gpu_preset_for_device(gpu);
        if (p && p->name == preset) continue;
        std::cerr << "compare: note: rows measured on '" << gpu << "' ("
                  << (p ? "the " + p->name + " preset's GPU" : "no preset's GPU") << ") are simulated with --preset "
                  << preset << "\n";
    }
}

// The preset's GPU configuration with `--gpu KEY=VALUE` overrides applied exactly as `cachesim
// simulate --preset NAME --KEY=VALUE` would apply them (the same options, checks and messages,
// after `prefix`). They are checked at the smallest block a measured row has (`block`), as a row's
// own block replaces the preset's default in every simulation.
GpuConfig apply_gpu_overrides(const std::string& preset, const std::vector<std::string>& overrides, std::uint32_t block,
                              const std::string& prefix) {
    std::vector<std::string> args = {"cachesim compare", "--model=gpu", "--preset=" + preset,
                                     "--block=" + std::to_string(block)};
    for (const std::string& o : overrides) {
        const std::size_t eq = o.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == o.size())
            throw InputError("--gpu: expected KEY=VALUE (a GPU model option of cachesim simulate), not '" + o + "'");
        const std::string key = o.substr(0, eq);
        if (key == "block" || key == "l2-start" || key == "model" || key == "preset" || key == "config")
            throw InputError("--gpu " + key + ": not an override here (each measured row gives its block size and "
                             "where its L2 starts; --preset names the base)");
        const auto& parameters = gpu_parameters();
        // The seed draws the model's warp rates: the one simulate option beside the table's.
        if (key != "seed" &&
            std::none_of(parameters.begin(), parameters.end(), [&](const GpuParameter& p) { return p.option == key; }))
            throw InputError("--gpu " + key + ": not a GPU model option (the rows give the workload and schedule; "
                             "`cachesim simulate --preset " + preset + " --explain` lists the options)");
        args.push_back("--" + o);
    }
    return read_simulation_args(std::move(args), simulation_option_groups(), prefix).gpu;
}

// An override's parameter name (`sms` of `sms=132`).
std::string override_key(const std::string& override_text) { return override_text.substr(0, override_text.find('=')); }

// The overrides applied, each from its source (`sources`: "--gpu", or a description's "--config
// FILE:LINE"). A refusal names the option it is about (`--carveouts: 132 KiB is more than ...`):
// where that option is a description's line, the message names the file and line instead of --gpu,
// which the user did not give.
GpuConfig gpu_config_with(const std::string& preset, const std::vector<std::string>& overrides,
                          const std::vector<std::string>& sources, std::uint32_t block) {
    const std::string gpu_prefix = "--gpu: ";
    try {
        return apply_gpu_overrides(preset, overrides, block, gpu_prefix);
    } catch (const InputError& e) {
        const std::string what = e.what();
        if (what.rfind(gpu_prefix, 0) != 0) throw;
        const std::string message = what.substr(gpu_prefix.size());
        // the override of the option the message names first; of several of one option, the
        // last (it replaced the others)
        std::size_t about = overrides.size(), first = std::string::npos;
        for (std::size_t i = 0; i < overrides.size(); ++i) {
            const std::size_t at = option_named_at(message, override_key(overrides[i]));
            if (at != std::string::npos && at <= first) {
                about = i;
                first = at;
            }
        }
        if (about == overrides.size() || sources[about] == "--gpu") throw;
        throw InputError(sources[about] + ": " + message);
    }
}

// The rows whose chip counted no L1 global-load sectors but whose simulation loads.
std::vector<const ComparedRun*> simulated_loads_none_counted(const std::vector<ComparedRun>& runs) {
    std::vector<const ComparedRun*> rows;
    for (const ComparedRun& r : runs)
        if (r.measured.metrics.l1_sectors <= 0 && r.simulated.l1_sectors_ld > 0) rows.push_back(&r);
    return rows;
}

// Rows whose simulated L1 sectors are off the measured by more than a factor of two, or that
// simulate loads where the chip counted none: the model counts a described launch's sectors
// exactly (docs/fidelity.md), so such a row simulated another launch than the one measured.
std::string sector_mismatch_note(const std::vector<ComparedRun>& runs) {
    const std::string advice =
        ": the launch simulated is not the one measured (an Nsight Compute CSV's launches take --workload, "
        "--size, --stencil, --depth and --elem-bytes; rows of other kernels: profile one with ncu -k, or keep its "
        "rows with --rows)";
    const std::vector<const ComparedRun*> none_counted = simulated_loads_none_counted(runs);
    const std::string none_note =
        none_counted.empty()
            ? std::string()
            : counted(none_counted.size(), "row") + " (the first " + none_counted.front()->measured.source + " line " +
                  std::to_string(none_counted.front()->measured.line) +
                  ") simulated L1 global-load sectors where the chip counted none" + advice;
    std::size_t off = 0;
    double low = 0, high = 0;
    std::string first;
    for (const ComparedRun& r : runs) {
        const double measured = r.measured.metrics.l1_sectors;
        if (measured <= 0) continue;  // (none counted: above)
        const double ratio = static_cast<double>(r.simulated.l1_sectors_ld) / measured;
        if (ratio <= 2 && ratio >= 0.5) continue;
        if (off++ == 0) {
            low = high = ratio;
            first = r.measured.source + " line " + std::to_string(r.measured.line);
        }
        low = std::min(low, ratio);
        high = std::max(high, ratio);
    }
    if (off == 0) return none_note;
    return counted(off, "row") + " (the first " + first + ") simulated " + fixed_text(low, 3) +
           (high > low ? " to " + fixed_text(high, 3) : std::string()) + " times the L1 sectors measured" + advice +
           (none_note.empty() ? std::string() : "; " + none_note);
}

// Says how many rows have no measured hit rate at a level, their chip having counted no lookups
// there, and that the rate statistics leave them out (empty: every row has both rates). A rate
// over no lookups is undefined: the 0 a profiler writes there is no 0% launch.
std::string unmeasured_rates_note(const std::vector<ComparedRun>& runs) {
    const auto no_l1 = std::count_if(runs.begin(), runs.end(), [](const ComparedRun& r) { return !r.l1_rate_measured(); });
    const auto no_l2 = std::count_if(runs.begin(), runs.end(), [](const ComparedRun& r) { return !r.l2_rate_measured(); });
    if (no_l1 == 0 && no_l2 == 0) return {};
    const auto rows_count = [](long n) { return counted(static_cast<unsigned long long>(n), "row") + (n == 1 ? " counts" : " count"); };
    std::string note;
    if (no_l1 > 0) note = rows_count(no_l1) + " no L1 global-load sectors: no hit rate to compare; ";
    if (no_l2 > 0) note += rows_count(no_l2) + " no L2 read sectors from the L1s: no L2 hit rate to compare; ";
    note += "such a rate is left out of that level's statistics (means, worst, within and beyond counts, schedule "
            "ranks and best schedules), the row's counts are still compared";
    if (const auto loads = simulated_loads_none_counted(runs).size(); loads > 0)
        note += "; " + std::to_string(loads) + " of them " + (loads == 1 ? "simulates" : "simulate") +
                " loads the chip did not count: the launch simulated is not the one measured";
    return note;
}

// The report's first line: the model the rows were simulated with (`device`: the GPU a --config
// file describes) and the GPUs they were measured on, each with its rows, so that a saved report
// says what it held against what.
std::string model_line(const std::string& model, const std::string& device, const std::vector<MeasuredRun>& rows) {
    std::string line = "GPU model: " + model + (device.empty() ? "" : " (describing " + device + ")") + "; rows measured on ";
    std::string gpus;
    for (const std::string& gpu : gpus_of(rows)) {
        const auto n = std::count_if(rows.begin(), rows.end(), [&](const MeasuredRun& r) { return r.gpu == gpu; });
        gpus += (gpus.empty() ? "" : ", ") + gpu + " (" + counted(static_cast<unsigned long long>(n), "row") + ")";
    }
    const auto unnamed = std::count_if(rows.begin(), rows.end(), [](const MeasuredRun& r) { return r.gpu.empty(); });
    if (unnamed > 0) gpus += (gpus.empty() ? "" : ", ") + std::string("a GPU they do not name (") +
                             counted(static_cast<unsigned long long>(unnamed), "row") + ")";
    return line + gpus + "\n\n";
}

// How the joined CSV and the plot name the model: the preset, then its overrides in the order
// given (commas, as in carveouts=0,8,16, become semicolons: the name is one CSV field).
std::string model_name(const std::string& preset, const std::vector<std::string>& overrides) {
    std::string name = preset;
    for (const std::string& o : overrides) name += " " + o;
    std::replace(name.begin(), name.end(), ',', ';');
    return name;
}

}  // namespace

int run_compare(int argc, char** argv) {
    po::options_description options("cachesim compare options");
    options.add_options()
        ("help,h", "show this help")
        ("measured", po::value<std::vector<std::string>>()->composing(),
         "[SET=]FILE: measured CSV, gpubench's output or ncu --csv --page raw --print-units base; repeatable. "
         "Its rows' set (training, heldout, ...) is the file's set column, else SET, else the file name up "
         "to its first '_'; with more than one set the report gives each its own table and summary")
        ("skip-invalid-rows", po::bool_switch(),
         "leave out rows whose counters contradict each other (hits more than 110% of lookups, a hit rate "
         "its own hit and lookup counts do not give) and list "
         "them, instead of refusing the file")
        ("ignore-loop-counters", po::bool_switch(),
         "simulate rows that carry their loop's counters (smsp__inst_executed, sm__pipe_*) as rows without "
         "them: gpubench's loops as the H200's table has them")
        ("preset", po::value<std::string>(),
         "GPU preset to simulate with (default: the preset of the GPU the rows' gpu column names; h200 for rows "
         "that name none)")
        ("config", po::value<std::string>(),
         "FILE: simulate every row with the GPU it describes, `preset = NAME` and GPU model parameters as "
         "`name = value` lines (gpubench --describe writes one for its device); --gpu overrides apply after it")
        ("gpu", po::value<std::vector<std::string>>()->composing(),
         ("KEY=VALUE: override one of the preset's GPU model parameters, as cachesim simulate's --KEY=VALUE "
          "(e.g. block-start-skip=0, issue-burst=1, warp-rate-spread=0); repeatable. KEY: " + gpu_parameter_keys())
             .c_str())
        ("out,output,o", po::value<std::string>(), "write the joined CSV (measured and simulated side by side) to FILE; nothing is written unless asked")
        ("plot", po::value<std::string>(), "write a PNG plot to FILE: scatter with identity line and per-schedule bars")
        ("rows", po::value<std::string>(), "only data rows A-B (1-based) of the measured file")
        ("where", po::value<std::vector<std::string>>()->composing(), "only rows with field=value (kernel, schedule, block, width, height, stencil, depth, variant: "
                                                                    "the compilation, index64 where the file has none; smem_per_block, "
                                                                    "0 where the file has none); repeatable")
        ("jobs,j", po::value<unsigned>()->default_value(0),
         "configurations simulated at once (0: all cores, or cores / --threads)")
        ("threads", po::value<unsigned>()->default_value(0),
         "threads of each configuration's GPU-model run (0: the cores --jobs leaves; by default jobs x threads "
         "<= cores); results do not depend on it")
        ("quiet,q", po::bool_switch(), "no progress line (without it, one shows on stderr where stderr is a terminal)")
        ("no-progress", po::bool_switch(), "the same as --quiet")
        ("workload", po::value<std::string>()->default_value("stencil"), "ncu input: the workload that was run")
        ("size", po::value<std::string>()->default_value("4096x4096"), "ncu input: IwxIh")
        ("stencil", po::value<std::string>()->default_value("9x9"), "ncu input: SWxSH")
        ("depth", po::value<std::uint32_t>()->default_value(1024), "ncu input: matmul depth")
        ("elem-bytes", po::value<std::uint32_t>()->default_value(4), "ncu input: element size")
        ("schedule", po::value<std::string>()->default_value("linear"),
         "ncu input: one schedule for every launch, or a comma-separated list, one per launch in order");
    // Parsed here rather than by parse_command_line: --preset names a GPU preset of the model,
    // not an option bundle to expand.
    po::variables_map vm;
    note_known_options(options);  // for an unrecognised option's "did you mean"
    const po::parsed_options parsed = po::command_line_parser(argc, argv).style(kCommandLineStyle).options(options).run();
    check_parsed(parsed, "");
    po::store(parsed, vm);
    if (vm.count("help")) {
        std::cout << "usage: cachesim compare --measured FILE.csv [--measured MORE.csv ...] [--preset NAME]\n"
                     "                        [--out joined.csv] [--plot plot.png]\n\n"
                     "Simulates every measured configuration with the GPU model and prints measured vs simulated\n"
                     "L1 and L2 hit rates, sector counts and DRAM bytes, with summary statistics.\n\n"
                  << options << "\n";
        return 0;
    }
    po::notify(vm);
    // A bad output path is reported before minutes of simulation, not after.
    std::vector<NamedPath> outputs;
    for (const char* key : {"out", "plot"})
        if (vm.count(key) && vm[key].as<std::string>() != "none") outputs.push_back({vm[key].as<std::string>(), std::string("--") + key});
    if (vm.count("plot") && vm["plot"].as<std::string>() != "none") check_png_name(vm["plot"].as<std::string>(), "--plot");
    check_outputs(outputs, input_files(vm));
    if (!vm.count("measured")) throw InputError("--measured FILE is required");
    const std::vector<std::string> paths = vm["measured"].as<std::vector<std::string>>();
    const bool preset_given = vm.count("preset") > 0;
    if (preset_given && !find_gpu_preset(vm["preset"].as<std::string>()))
        throw InputError("--preset: unknown GPU preset '" + vm["preset"].as<std::string>() + "' (" + gpu_preset_names() +
                         ")" + case_hint(vm["preset"].as<std::string>(), [](std::string_view n) { return find_gpu_preset(n) != nullptr; }));
    if (preset_given && vm.count("config"))
        throw InputError("--preset and --config: give one (the description names its preset)");
    std::optional<GpuDescription> described;
    if (vm.count("config")) described = read_gpu_description(vm["config"].as<std::string>());
    // The description's parameters, then --gpu's; a --gpu override replaces the description's
    // value of its parameter (--gpu applies after the file).
    std::vector<std::string> overrides, override_sources;
    if (described)
        for (std::size_t i = 0; i < described->overrides.size(); ++i) {
            overrides.push_back(described->overrides[i]);
            override_sources.push_back("--config " + vm["config"].as<std::string>() + ":" +
                                       std::to_string(described->lines[i]));
        }
    if (vm.count("gpu"))
        for (const std::string& o : vm["gpu"].as<std::vector<std::string>>()) {
            for (std::size_t i = 0; i < overrides.size(); ++i)
                if (override_sources[i] != "--gpu" && override_key(overrides[i]) == override_key(o)) {
                    std::cerr << "compare: note: --gpu " << o << " replaces " << overrides[i] << " of "
                              << override_sources[i] << "\n";
                    overrides.erase(overrides.begin() + static_cast<std::ptrdiff_t>(i));
                    override_sources.erase(override_sources.begin() + static_cast<std::ptrdiff_t>(i));
                    break;
                }
            overrides.push_back(o);
            override_sources.push_back("--gpu");
        }
    const auto from_config = static_cast<std::size_t>(
        std::count_if(override_sources.begin(), override_sources.end(), [](const std::string& s) { return s != "--gpu"; }));

    const bool skip_invalid = vm["skip-invalid-rows"].as<bool>();
    const bool ignore_loop_counters = vm["ignore-loop-counters"].as<bool>();
    std::vector<InvalidMeasuredRow> invalid;
    std::vector<MeasuredRun> measured;
    // A file given twice would count each of its launches twice in every statistic.
    for (std::size_t i = 0; i < paths.size(); ++i)
        for (std::size_t j = 0; j < i; ++j) {
            std::error_code ec;
            if (std::filesystem::equivalent(set_and_path(paths[i]).second, set_and_path(paths[j]).second, ec))
                throw InputError("--measured " + paths[i] + ": the same file as --measured " + paths[j]);
        }
    if (std::count_if(paths.begin(), paths.end(), [](const std::string& p) { return set_and_path(p).second == "-"; }) > 1)
        throw InputError("--measured -: standard input is given more than once (it can be read once)");
    for (const std::string& arg : paths) {
        const auto [set, given_path] = set_and_path(arg);
        const std::string path = measured_name(given_path);  // as messages and the rows name it
        std::string text;
        try {
            text = read_measured_text(given_path);
        } catch (const InputError& e) {
            throw InputError(std::string("--measured: ") + e.what());
        }
        std::vector<MeasuredRun> runs;
        try {
            const bool ncu = looks_like_ncu_csv(text);
            if (!ncu)
                for (const char* key : kNcuLaunchOptions)
                    if (given(vm, key))
                        throw InputError(std::string("--") + key + " describes the launches of an Nsight Compute CSV (ncu --csv); " +
                                         path + " is a measured CSV whose rows give their own");
            if (ncu) {
                reject_options_of_another_workload(vm);
                WorkloadSpec base;
                base.kind = parse_workload_kind(vm["workload"].as<std::string>());
                parse_dimensions(vm["size"].as<std::string>(), "--size", base.width, base.height);
                parse_dimensions(vm["stencil"].as<std::string>(), "--stencil", base.stencil_w, base.stencil_h);
                base.depth = vm["depth"].as<std::uint32_t>();
                base.elem_bytes = vm["elem-bytes"].as<std::uint32_t>();
                std::vector<Schedule> schedules;
                std::stringstream list(vm["schedule"].as<std::string>());
                for (std::string item; std::getline(list, item, ',');) schedules.push_back(parse_schedule(item));
                validate(base);
                runs = parse_ncu_raw_csv(text, path, base, schedules, skip_invalid ? &invalid : nullptr);
                // An ncu CSV does not say what its kernel computed: the options do, and the
                // defaults are gpubench's default launch, which the user may not have profiled.
                // (Said once the page is read: a page refused needs other advice.)
                if (std::none_of(std::begin(kNcuLaunchOptions), std::end(kNcuLaunchOptions),
                                 [&](const char* key) { return given(vm, key); }))
                    std::cerr << "compare: note: " << path << " is an Nsight Compute CSV, which does not say what its "
                              << "launches computed; they are simulated as gpubench's default launch, --workload "
                              << vm["workload"].as<std::string>() << " --size " << vm["size"].as<std::string>()
                              << " --stencil " << vm["stencil"].as<std::string>() << " --schedule "
                              << vm["schedule"].as<std::string>() << " (give the options of the launches profiled)\n";
            } else {
                runs = parse_measured_csv(text, path, skip_invalid ? &invalid : nullptr);
            }
        } catch (const InconsistentCountersError& e) {
            throw InputError(std::string(e.what()) + "; the file is refused (--skip-invalid-rows leaves such rows out "
                             "and lists them)");
        }
        for (MeasuredRun& r : runs) {
            if (r.set.empty()) r.set = set;
            if (ignore_loop_counters) r.loop.reset();
            compilation_of(r);  // an unknown variant is refused before minutes of simulation
        }
        measured.insert(measured.end(), runs.begin(), runs.end());
    }
    const std::string source_name =
        paths.size() == 1 ? measured_name(set_and_path(paths[0]).second) : std::to_string(paths.size()) + " measured files";
    if (vm.count("rows")) {
        const auto [first, last] = parse_rows(vm["rows"].as<std::string>());
        if (first > measured.size())
            throw InputError("--rows: the file has only " + std::to_string(measured.size()) + " data rows");
        measured = std::vector<MeasuredRun>(measured.begin() + static_cast<std::ptrdiff_t>(first - 1),
                                            measured.begin() + static_cast<std::ptrdiff_t>(std::min(last, measured.size())));
    }
    FieldValues before_where;  // each filter's field: the values the rows had
    if (vm.count("where")) {
        const auto filters = vm["where"].as<std::vector<std::string>>();
        for (const std::string& f : filters) {
            if (f.find('=') == std::string::npos) continue;  // matches() says what is wrong
            std::set<std::string, FieldOrder> values;
            const std::string key = f.substr(0, f.find('='));
            // (a field filtered twice, block=128 and block=256, is listed once)
            if (std::any_of(before_where.begin(), before_where.end(), [&](const auto& field) { return field.first == key; }))
                continue;
            for (const MeasuredRun& r : measured) values.insert(where_field(r, key));
            before_where.push_back({key, std::move(values)});
        }
        std::vector<MeasuredRun> kept;
        for (MeasuredRun& r : measured)
            if (matches(r, filters)) kept.push_back(std::move(r));
        measured = std::move(kept);
    }
    if (measured.empty()) throw InputError("no measured rows left after --rows/--where" + where_values_note(before_where));
    // An Nsight Compute page's launches are all simulated as the one workload the options give:
    // launches of several kernels cannot all be it.
    std::vector<std::string> ncu_kernels;
    for (const MeasuredRun& r : measured)
        if (!r.recorded() && !r.kernel.empty() && std::find(ncu_kernels.begin(), ncu_kernels.end(), r.kernel) == ncu_kernels.end())
            ncu_kernels.push_back(r.kernel);
    if (ncu_kernels.size() > 1) {
        std::string names;
        for (const std::string& k : ncu_kernels) names += (names.empty() ? "'" : ", '") + k + "'";
        throw InputError("the Nsight Compute launches are of " + counted(ncu_kernels.size(), "kernel") + " (" + names +
                         "), and every launch is simulated as the one workload --workload and the rest give: keep one "
                         "kernel's launches (ncu -k NAME, or --rows)");
    }
    // Nor can a launch whose grid is of another size be the workload given: simulated, it would
    // pass for a model error.
    for (const MeasuredRun& r : measured)
        if (const std::string mismatch = ncu_launch_size_mismatch(r); !mismatch.empty())
            throw InputError(r.source + " line " + std::to_string(r.line) + ": " + mismatch + " (--size " +
                             std::to_string(r.workload.width) + "x" + std::to_string(r.workload.height) +
                             "): it computed another size; give the --size it ran (a page of several sizes: one "
                             "size at a time, with --rows A-B or ncu's own launch filters)");
    // The recorded kernels' traces the rows name are inputs too: an output there would destroy one.
    std::vector<NamedPath> row_traces;
    for (const MeasuredRun& r : measured)
        if (r.recorded()) row_traces.push_back({r.trace, "the row at " + r.source + " line " + std::to_string(r.line)});
    for (const NamedPath& output : outputs) check_output_not_an_input(output.path, output.option, row_traces);
    // Rows that started warm are simulated warm; under the rounds the L1 does not depend on where
    // a miss is served from, which the chip's does: said where the figures are.
    const auto warm_rows = std::count_if(measured.begin(), measured.end(),
                                         [](const MeasuredRun& r) { return l2_start_of(r) == L2Start::warm; });
    const std::string warm_note =
        warm_rows == 0 ? std::string()
                       : std::to_string(warm_rows) + " of the " + std::to_string(measured.size()) +
                             " rows were measured with their arrays in the L2 (gpubench --warm-l2) and are simulated "
                             "so (--l2-start warm); where sharers sit in different blocks the chip's L1 rate is then "
                             "lower than a cold start's, which the rounds' L1 does not follow (docs/model-studies.md, "
                             "\"Where a launch's first reads come from\")";
    if (!warm_note.empty()) std::cerr << "compare: note: " << warm_note << "\n";
    const std::string preset_name = described ? described->preset
                                    : preset_given ? vm["preset"].as<std::string>()
                                                   : preset_for_rows(measured);
    if (preset_given) warn_other_gpus(measured, preset_name);
    if (described) {
        std::cerr << "compare: simulating with the GPU described in " << vm["config"].as<std::string>() << " ("
                  << (described->device.empty() ? "" : described->device + ": ") << "the " << preset_name
                  << " preset with its " << counted(described->overrides.size(), "parameter") << ")\n";
        // as with --preset: rows of another GPU are a test of how far the description transfers
        if (!described->device.empty())
            for (const std::string& gpu : gpus_of(measured))
                if (trim_blanks(gpu) != described->device)
                    std::cerr << "compare: note: rows measured on '" << gpu << "' are simulated with the GPU described in "
                              << vm["config"].as<std::string>() << " (" << described->device << ")\n";
    }
    const GpuPreset* preset = find_gpu_preset(preset_name);
    std::uint32_t smallest_block = preset->config.block;
    for (const MeasuredRun& run : measured)
        if (run.block) smallest_block = std::min(smallest_block, run.block);
    const GpuConfig base =
        overrides.empty() ? preset->config : gpu_config_with(preset_name, overrides, override_sources, smallest_block);
    const std::string loop_note = loop_counters_note(measured, base);
    if (!loop_note.empty()) std::cerr << "compare: note: " << loop_note << "\n";
    const std::string l1_note = small_l1_note(
        measured, base, *preset,
        l1_size_options(overrides, from_config,
                        vm.count("config") ? vm["config"].as<std::string>() : std::string()));
    if (!l1_note.empty()) std::cerr << "compare: note: " << l1_note << "\n";
    const std::string l2_note = l2_over_100_note(measured);
    if (!l2_note.empty()) std::cerr << "compare: note: " << l2_note << "\n";
    const std::string config_name =
        described ? "config=" + std::filesystem::path(vm["config"].as<std::string>()).filename().string() : "";
    const std::string model = described ? model_name(preset_name + " " + config_name,
                                                     {overrides.begin() + static_cast<std::ptrdiff_t>(from_config),
                                                      overrides.end()})
                                        : model_name(preset_name, overrides);

    const unsigned threads_given = vm["threads"].as<unsigned>();
    if (threads_given > 1024) throw InputError("--threads " + std::to_string(threads_given) + " must be between 0 and 1024");
    const Parallelism parallel = choose_parallelism("compare", vm["jobs"].as<unsigned>(), threads_given,
                                                    workers_or_all_cores(0), measured.size(), true);
    if (!parallel.note.empty()) std::cerr << parallel.note << "\n";
    const unsigned jobs = std::min<unsigned>(parallel.jobs, static_cast<unsigned>(measured.size()));
    const std::vector<ComparedRun> runs =
        simulate_all(measured, base, jobs, parallel.threads,
                     !vm["quiet"].as<bool>() && !vm["no-progress"].as<bool>() && isatty(STDERR_FILENO));
    const CompareSummary summary = summarize(runs);
    const std::string mismatch = sector_mismatch_note(runs);
    if (!mismatch.empty()) std::cerr << "compare: note: " << mismatch << "\n";
    const std::string unmeasured_note = unmeasured_rates_note(runs);
    if (!unmeasured_note.empty()) std::cerr << "compare: note: " << unmeasured_note << "\n";

    std::ostringstream report;
    report << model_line(model, described ? described->device : std::string(), measured);
    std::vector<std::string> groups;  // in the order the rows come
    for (const ComparedRun& r : runs)
        if (std::find(groups.begin(), groups.end(), report_group(r.measured)) == groups.end())
            groups.push_back(report_group(r.measured));
    if (groups.size() == 1) {
        print_table(report, runs);
        print_summary(report, summary);
    } else {
        for (const std::string& g : groups) {
            std::vector<ComparedRun> members;
            for (const ComparedRun& r : runs)
                if (report_group(r.measured) == g) members.push_back(r);
            report << "== " << g << " ==\n";
            print_table(report, members);
            print_summary(report, summarize(members));
            report << "\n";
        }
        report << "== all sets ==";
        print_summary(report, summary);
    }
    if (!unmeasured_note.empty()) report << "\nnote: " << unmeasured_note << "\n";
    if (!warm_note.empty()) report << "\nnote: " << warm_note << "\n";
    if (!l1_note.empty()) report << "\nnote: " << l1_note << "\n";
    if (!loop_note.empty()) report << "\nnote: " << loop_note << "\n";
    if (!l2_note.empty()) report << "\nnote: " << l2_note << "\n";
    if (!invalid.empty()) {
        report << "\nleft out (--skip-invalid-rows), " << invalid.size() << " rows with inconsistent counters:\n";
        for (const InvalidMeasuredRow& row : invalid)
            report << "  " << row.source << ":" << row.line << ": " << row.reason << "\n";
    }
    // Only the files asked for ('none', the old spelling of "skip", is still accepted).
    const std::string out = vm.count("out") ? vm["out"].as<std::string>() : "none";
    const std::string plot = vm.count("plot") ? vm["plot"].as<std::string>() : "none";
    if (out != "none") write_file_atomically(out, joined_csv(runs, model));
    if (plot != "none")
        write_file_atomically(plot, render_compare_plot(runs, summary,
                                                        "cachesim compare: " + source_name + " vs the " + model + " GPU model"));
    std::cout << report.str();
    return 0;
}

}  // namespace cachesim::cli
