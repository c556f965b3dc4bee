#include "traces/measured_csv.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <cstdio>

#include "sim/text.hpp"
#include "traces/csv_table.hpp"
#include "traces/choice_hint.hpp"
#include "traces/input_error.hpp"
#include "traces/ncu_metrics.hpp"

namespace cachesim {

namespace {

// The L2 read lookups and hits of every source (lts__t_sector_op_read_hit_rate.pct's quantity).
constexpr std::string_view kL2AllSectors = "lts__t_sectors_op_read.sum";
constexpr std::string_view kL2AllSectorHits = "lts__t_sectors_op_read_lookup_hit.sum";

struct Cell {
    const CsvTable& table;
    std::size_t row;
    std::string where(std::string_view column) const {
        return table.source + ":" + std::to_string(table.lines[row]) + ", column '" + std::string(column) + "'";
    }
};

int require_column(const CsvTable& t, std::string_view name) {
    const int c = t.column(name);
    if (c < 0) throw InputError(t.source + ": missing column '" + std::string(name) + "'");
    return c;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// `text` without its thousands separators, or nullopt when a comma in it is not one: in the
// integer part only, after a first group of one to three digits, each group exactly three digits
// ("1,234", "12,345,678.5"). A decimal comma ("84,94") is then refused rather than read as 8494.
std::optional<std::string> without_thousands_separators(std::string_view text) {
    std::size_t i = (!text.empty() && (text[0] == '-' || text[0] == '+')) ? 1 : 0;
    const std::size_t start = i;
    while (i < text.size() && (is_digit(text[i]) || text[i] == ',')) ++i;
    const std::string_view integer = text.substr(start, i - start);
    if (text.substr(i).find(',') != std::string_view::npos) return std::nullopt;
    std::size_t group = 0;  // digits in the current group
    bool first = true;
    for (char c : integer) {
        if (c != ',') {
            ++group;
            continue;
        }
        if (group == 0 || group > 3 || (!first && group != 3)) return std::nullopt;
        first = false;
        group = 0;
    }
    if (!first && group != 3) return std::nullopt;
    std::string plain(text.substr(0, start));
    for (char c : integer)
        if (c != ',') plain += c;
    plain += text.substr(i);
    return plain;
}

// A plain decimal number, or one with ncu's thousands separators ("167,772,160").
double to_number(std::string_view written, const std::string& where) {
    const std::string text(written);
    const std::string_view trimmed = trim_blanks(written);
    const std::optional<std::string> plain = without_thousands_separators(trimmed);
    double value = 0;
    bool ok = plain && !plain->empty();
    if (ok) {
        const auto [ptr, ec] = std::from_chars(plain->data(), plain->data() + plain->size(), value);
        ok = ec == std::errc() && ptr == plain->data() + plain->size() && std::isfinite(value);
    }
    if (!ok) {
        std::string message = where + ": '" + text + "' is not a number";
        // one comma between digits, no point: most likely written with a decimal comma
        const std::size_t comma = trimmed.find(',');
        if (!plain && comma != std::string_view::npos && comma > 0 && comma + 1 < trimmed.size() &&
            is_digit(trimmed[comma - 1]) && is_digit(trimmed[comma + 1]) &&
            trimmed.find(',', comma + 1) == std::string_view::npos && trimmed.find('.') == std::string_view::npos) {
            std::string point(trimmed);
            point[comma] = '.';
            message += " (a decimal comma? write " + point + "; a comma may only separate thousands, as in 1,234)";
        } else if (!plain) {
            message += " (a comma may only separate thousands, as in 1,234 or 12,345,678)";
        }
        throw InputError(message);
    }
    if (value < 0) throw InputError(where + ": '" + text + "' is negative");
    return value;
}

// A counter of requests, sectors or bytes: whole, however it is written (1152.0 is; 1152.5 is not).
double to_count(std::string_view text, const std::string& where) {
    const double v = to_number(text, where);
    if (v != std::floor(v)) throw InputError(where + ": '" + std::string(text) + "' is not a whole number (a count)");
    return v;
}

std::uint32_t to_whole(const std::string& text, const std::string& where, bool allow_zero) {
    const double v = to_number(text, where);
    if (v != std::floor(v) || v > 4294967295.0 || (!allow_zero && v == 0))
        throw InputError(where + ": '" + text + "' is not a " + (allow_zero ? "whole number" : "positive whole number"));
    return static_cast<std::uint32_t>(v);
}

template <class F>
auto at(const std::string& where, F&& f) {
    try {
        return f();
    } catch (const InputError& e) {
        throw InputError(where + ": " + e.what());
    }
}

// The `<metric>:min` and `<metric>:max` cells of row r, when the file has both columns and the row
// fills them; they must bracket the median.
std::optional<MeasuredRange> read_range(const CsvTable& t, std::size_t r, std::string_view metric, double median) {
    const std::string min_name = std::string(metric) + std::string(ncu::kMinSuffix);
    const std::string max_name = std::string(metric) + std::string(ncu::kMaxSuffix);
    const int lo = t.column(min_name), hi = t.column(max_name);
    if (lo < 0 || hi < 0) return std::nullopt;
    const std::string& lo_text = t.rows[r][static_cast<std::size_t>(lo)];
    const std::string& hi_text = t.rows[r][static_cast<std::size_t>(hi)];
    if (lo_text.empty() && hi_text.empty()) return std::nullopt;
    const MeasuredRange range{to_number(lo_text, Cell{t, r}.where(min_name)), to_number(hi_text, Cell{t, r}.where(max_name))};
    // printed values are rounded, so allow a little slack around the median
    if (range.min > median + 1e-3 || range.max < median - 1e-3)
        throw InputError(Cell{t, r}.where(min_name) + ": the range [" + lo_text + ", " + hi_text +
                         "] does not contain the median");
    return range;
}

// Every source's L2 read lookups and hits (kL2AllSectors, kL2AllSectorHits), when the row has
// them: the counts behind the single-pass L2 rate, read only to check that rate.
struct AllSourceL2 {
    double sectors = 0, hits = 0;
};

// Row r's metrics, and its all-source L2 counts when it has them.
std::optional<AllSourceL2> read_metrics(const CsvTable& t, std::size_t r, const std::vector<int>& columns,
                                        MeasuredMetrics& m) {
    const auto& names = measured_metric_names();
    double* fields[] = {&m.l1_requests, &m.l1_sectors, &m.l1_sector_hits, &m.l1_hit_rate_pct,
                        &m.l2_sectors, &m.l2_sector_hits, &m.dram_bytes_read};
    for (std::size_t i = 0; i < names.size(); ++i) {
        const std::string& text = t.rows[r][static_cast<std::size_t>(columns[i])];
        *fields[i] = names[i] == ncu::kL1HitRate ? to_number(text, Cell{t, r}.where(names[i]))
                                                 : to_count(text, Cell{t, r}.where(names[i]));
    }
    const int l2_rate = t.column(ncu::kL2ReadHitRate);
    if (l2_rate >= 0 && !t.rows[r][static_cast<std::size_t>(l2_rate)].empty())
        m.l2_read_hit_rate_pct = to_number(t.rows[r][static_cast<std::size_t>(l2_rate)], Cell{t, r}.where(ncu::kL2ReadHitRate));
    std::optional<AllSourceL2> all_source;
    const int all_sectors = t.column(kL2AllSectors), all_hits = t.column(kL2AllSectorHits);
    if (all_sectors >= 0 && all_hits >= 0 && !t.rows[r][static_cast<std::size_t>(all_sectors)].empty() &&
        !t.rows[r][static_cast<std::size_t>(all_hits)].empty())
        all_source = AllSourceL2{
            to_count(t.rows[r][static_cast<std::size_t>(all_sectors)], Cell{t, r}.where(kL2AllSectors)),
            to_count(t.rows[r][static_cast<std::size_t>(all_hits)], Cell{t, r}.where(kL2AllSectorHits))};
    if (m.l1_hit_rate_pct > 100.0 + 1e-9)
        throw InputError(Cell{t, r}.where(names[3]) + ": a hit rate over 100%");
    m.l1_hit_rate_range = read_range(t, r, ncu::kL1HitRate, m.l1_hit_rate_pct);
    if (m.l2_read_hit_rate_pct) {
        m.l2_hit_rate_range = read_range(t, r, ncu::kL2ReadHitRate, *m.l2_read_hit_rate_pct);
        m.l2_read_hit_rate_top_pct =
            m.l2_hit_rate_range ? std::max(*m.l2_read_hit_rate_pct, m.l2_hit_rate_range->max) : *m.l2_read_hit_rate_pct;
        if (m.l2_hit_rate_range) {  // capped like l2_hit_rate_pct()
            m.l2_hit_rate_range->min = std::min(100.0, m.l2_hit_rate_range->min);
            m.l2_hit_rate_range->max = std::min(100.0, m.l2_hit_rate_range->max);
        }
    }
    return all_source;
}

std::string count_text(double v) {
    char b[64];
    std::snprintf(b, sizeof b, "%.0f", v);
    return b;
}

std::string rate_text(double v) {
    char b[64];
    std::snprintf(b, sizeof b, "%.2f", v);
    return b;
}

// How far a hit-rate column may lie from the rate its own hit and lookup counts give: measured on
// the same launches, they differ only by the rate's printed decimals.
constexpr double kRoundingPoints = 0.5;
// Where the rate and the counts may come from different launches: medians over repeated launches
// (merge_profile_runs.py puts one run's rates beside another run's counts: up to 4 points apart in
// tests/data/h200/heldout21_matmul.csv), or Hopper's L2 hits and lookups, collected in separate
// passes. As the 110% allowed below for hits over lookups.
constexpr double kSeparateLaunchesPoints = 10.0;

// Metric groups may come from separate launches (a single profiling pass cannot collect them all),
// so hits can exceed lookups by run-to-run variation; far more means a broken row, as does a hit
// rate its own counts contradict. Empty: consistent.
std::string inconsistent_counters(const MeasuredMetrics& m, const std::optional<AllSourceL2>& all_source) {
    const auto& names = measured_metric_names();
    std::string reason;
    auto add = [&](const std::string& what) { reason += (reason.empty() ? "" : "; ") + what; };
    auto check = [&](double hits, double lookups, const std::string& hit_name, const std::string& lookup_name) {
        if (hits <= 1.1 * lookups) return;
        add(hit_name + " " + count_text(hits) + " is more than 110% of " + lookup_name + " " + count_text(lookups) +
            " (hits > lookups)");
    };
    check(m.l1_sector_hits, m.l1_sectors, names[2], names[1]);
    check(m.l2_sector_hits, m.l2_sectors, names[5], names[4]);
    auto check_rate = [&](double rate, std::string_view rate_name, double hits, double lookups, std::string_view hit_name,
                          std::string_view lookup_name, double allowed) {
        if (lookups <= 0) return;
        const double counted = 100.0 * hits / lookups;
        if (std::abs(rate - counted) <= allowed) return;
        add(std::string(rate_name) + " " + rate_text(rate) + "% but " + std::string(hit_name) + " " + count_text(hits) +
            " of " + std::string(lookup_name) + " " + count_text(lookups) + " give " + rate_text(counted) +
            "% (more than " + rate_text(allowed) + " points apart)");
    };
    check_rate(m.l1_hit_rate_pct, names[3], m.l1_sector_hits, m.l1_sectors, names[2], names[1],
               m.l1_hit_rate_range ? kSeparateLaunchesPoints : kRoundingPoints);
    // The single-pass L2 rate counts every source's reads (the L1s' and the link's): only the
    // all-source counts are the same quantity, the tex-only counts above are not.
    if (m.l2_read_hit_rate_pct && all_source)
        check_rate(*m.l2_read_hit_rate_pct, ncu::kL2ReadHitRate, all_source->hits, all_source->sectors,
                   kL2AllSectorHits, kL2AllSectors, kSeparateLaunchesPoints);
    return reason;
}

// Keeps `run`, or, when its counters contradict each other, lists it in `invalid` or throws.
void keep_or_list(MeasuredRun&& run, std::size_t row, const std::optional<AllSourceL2>& all_source,
                  std::vector<MeasuredRun>& runs, std::vector<InvalidMeasuredRow>* invalid) {
    const std::string reason = inconsistent_counters(run.metrics, all_source);
    if (reason.empty()) {
        runs.push_back(std::move(run));
        return;
    }
    if (!invalid)
        throw InconsistentCountersError(run.source + ":" + std::to_string(run.line) + ": inconsistent counters: " + reason);
    invalid->push_back({run.source, run.line, row, reason});
}

// The loop's counter columns: smsp__inst_executed.sum and each sm__pipe_<name>_cycles_active.sum.
struct LoopColumns {
    int instructions = -1;
    std::vector<std::pair<std::string, int>> pipes;  // the pipe's name, its column
};

LoopColumns loop_columns(const CsvTable& t) {
    LoopColumns c;
    c.instructions = t.column(ncu::kInstExecuted);
    for (std::size_t i = 0; i < t.header.size(); ++i)
        if (std::string pipe = pipe_of_metric(t.header[i]); !pipe.empty())
            c.pipes.emplace_back(std::move(pipe), static_cast<int>(i));
    // Instructions alone cannot tell whether a pipe limits the loop: refused. (Pipes alone say
    // nothing of the issue port: read_loop reads such a file as one without the counters.)
    if (c.instructions >= 0 && c.pipes.empty())
        throw InputError(t.source + ": column '" + std::string(ncu::kInstExecuted) + "' without any '" +
                         std::string(ncu::kPipeCyclesPrefix) + "<pipe>" + std::string(ncu::kPipeCyclesSuffix) +
                         "' column: what limits the loop needs both (gpubench --metrics fidelity,loop)");
    return c;
}

// Row r's loop counters, when the file has their columns and the row fills them.
std::optional<LoopCounters> read_loop(const CsvTable& t, std::size_t r, const LoopColumns& c, double requests) {
    if (c.instructions < 0) return std::nullopt;
    const std::string& text = t.rows[r][static_cast<std::size_t>(c.instructions)];
    if (text.empty()) return std::nullopt;  // not collected for this row
    const double instructions = to_number(text, Cell{t, r}.where(ncu::kInstExecuted));
    std::vector<PipeCycles> pipes;
    for (const auto& [pipe, column] : c.pipes) {
        const std::string& cycles = t.rows[r][static_cast<std::size_t>(column)];
        const std::string where = Cell{t, r}.where(t.header[static_cast<std::size_t>(column)]);
        if (cycles.empty()) throw InputError(where + ": empty where " + std::string(ncu::kInstExecuted) + " is given");
        pipes.push_back({pipe, to_number(cycles, where)});
    }
    return at(Cell{t, r}.where(ncu::kInstExecuted), [&] { return loop_counters(requests, instructions, pipes); });
}

std::vector<int> metric_columns(const CsvTable& t) {
    std::vector<int> columns;
    for (const std::string& name : measured_metric_names()) columns.push_back(require_column(t, name));
    return columns;
}

// gpubench writes a metric's run-to-run range as two columns, `<metric>:min` and `<metric>:max`;
// one without the other would silently drop the range.
void refuse_unpaired_range_columns(const CsvTable& t) {
    const std::pair<std::string_view, std::string_view> partners[] = {{ncu::kMinSuffix, ncu::kMaxSuffix},
                                                                      {ncu::kMaxSuffix, ncu::kMinSuffix}};
    for (const std::string& name : t.header)
        for (const auto& [suffix, partner_suffix] : partners) {
            if (name.size() <= suffix.size() || !name.ends_with(suffix)) continue;
            const std::string partner = name.substr(0, name.size() - suffix.size()) + std::string(partner_suffix);
            if (t.column(partner) < 0)
                throw InputError(t.source + ": column '" + name + "' without its partner '" + partner +
                                 "' (a metric's run-to-run range takes both columns)");
        }
}

// Nsight Compute's default CSV page ("details": one metric per row) rather than the raw page.
bool is_ncu_details_page(const CsvTable& t) {
    return t.column("Metric Name") >= 0 && t.column("Metric Value") >= 0;
}

// The rows this file had listed in `invalid` from index `first` on, when none was left.
std::string every_row_left_out(const std::string& source, const std::vector<InvalidMeasuredRow>& invalid,
                               std::size_t first, std::string_view row_word) {
    constexpr std::size_t kListed = 5;  // enough to see a pattern; the report's list has the rest
    // One row a line: a reason may itself list several contradictions, separated by "; ".
    std::string message = source + ": every row was left out by --skip-invalid-rows:";
    const std::size_t count = invalid.size() - first;
    for (std::size_t i = first; i < invalid.size() && i - first < kListed; ++i)
        message += "\n  " + std::string(row_word) + " " + std::to_string(invalid[i].row) + " (line " +
                   std::to_string(invalid[i].line) + "): " + invalid[i].reason;
    if (count > kListed) message += "\n  and " + std::to_string(count - kListed) + " more";
    return message;
}

}  // namespace

const std::vector<std::string>& measured_metric_names() {
    static const std::vector<std::string> names = {
        std::string(ncu::kL1Requests), std::string(ncu::kL1Sectors), std::string(ncu::kL1SectorHits),
        std::string(ncu::kL1HitRate),  std::string(ncu::kL2Sectors), std::string(ncu::kL2SectorHits),
        std::string(ncu::kDramBytesRead),
    };
    return names;
}

bool looks_like_ncu_csv(std::string_view text) {
    return text.find("\"Kernel Name\"") != std::string_view::npos ||
           text.find(",Kernel Name,") != std::string_view::npos;
}

std::string measured_kernel_name(const MeasuredRun& run) {
    return run.recorded() ? run.kernel : std::string(workload_name(run.workload.kind));
}

std::string measured_schedule_name(const MeasuredRun& run) {
    return run.recorded() ? run.order : schedule_name(run.workload.schedule);
}

namespace {

// A recorded kernel's row: the configuration as written, the trace beside the CSV.
void read_recorded_row(const CsvTable& t, std::size_t r, MeasuredRun& run, const std::string& trace) {
    const Cell cell{t, r};
    auto text = [&](std::string_view name) {
        const int c = t.column(name);
        return c < 0 ? std::string() : t.rows[r][static_cast<std::size_t>(c)];
    };
    run.kernel = text("kernel");
    if (run.kernel.empty()) throw InputError(cell.where("kernel") + ": empty");
    run.workload.width = to_whole(text("width"), cell.where("width"), true);
    run.workload.height = to_whole(text("height"), cell.where("height"), true);
    run.workload.depth = to_whole(text("depth"), cell.where("depth"), true);
    run.order = text("schedule");
    run.example = text("example");
    const std::filesystem::path path(trace);
    run.trace = path.is_absolute() ? trace : (std::filesystem::path(t.source).parent_path() / path).string();
    for (auto [name, field] : {std::pair{"shared_bytes", &run.shared_bytes}, std::pair{"registers", &run.registers}}) {
        const std::string value = text(name);
        if (!value.empty()) *field = to_whole(value, cell.where(name), true);
    }
}

}  // namespace

std::vector<MeasuredRun> parse_measured_csv(std::string_view text, const std::string& source,
                                            std::vector<InvalidMeasuredRow>* invalid) {
    const CsvTable t = parse_csv(text, source, "kernel");
    refuse_unpaired_range_columns(t);
    const std::size_t invalid_before = invalid ? invalid->size() : 0;
    const int kernel = require_column(t, "kernel"), width = require_column(t, "width"),
              height = require_column(t, "height"), stencil_w = require_column(t, "stencil_w"),
              stencil_h = require_column(t, "stencil_h"), depth = require_column(t, "depth"),
              schedule = require_column(t, "schedule"), block = require_column(t, "block");
    const int elem = t.column("elem_bytes"), gpu = t.column("gpu"), time = t.column("time_ms"), trace = t.column("trace");
    const int set = t.column("set"), variant = t.column("variant"), l2_start = t.column("l2_start");
    const int smem = t.column("smem_per_block");
    const std::vector<int> metrics = metric_columns(t);
    const LoopColumns loop = loop_columns(t);
    std::vector<MeasuredRun> runs;
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
        const auto& row = t.rows[r];
        const Cell cell{t, r};
        auto field = [&](int c) { return row[static_cast<std::size_t>(c)]; };
        MeasuredRun run;
        run.line = t.lines[r];
        run.source = source;
        if (set >= 0) run.set = field(set);
        if (variant >= 0) run.variant = field(variant);
        if (l2_start >= 0) {
            run.l2_start = field(l2_start);
            if (run.l2_start == "cold") run.l2_start.clear();
            if (!run.l2_start.empty() && run.l2_start != "warm")
                throw InputError(cell.where("l2_start") + ": '" + run.l2_start + "' (expected cold or warm)" +
                                 case_hint(run.l2_start, {"cold", "warm"}));
        }
        WorkloadSpec& w = run.workload;
        if (trace >= 0 && !field(trace).empty()) {
            read_recorded_row(t, r, run, field(trace));
            if (elem >= 0) w.elem_bytes = to_whole(field(elem), cell.where("elem_bytes"), false);
            run.block = to_whole(field(block), cell.where("block"), false);
            if (gpu >= 0) run.gpu = field(gpu);
            if (time >= 0 && !field(time).empty()) run.time_ms = to_number(field(time), cell.where("time_ms"));
            const auto all_source = read_metrics(t, r, metrics, run.metrics);
            run.loop = read_loop(t, r, loop, run.metrics.l1_requests);
            keep_or_list(std::move(run), r + 1, all_source, runs, invalid);
            continue;
        }
        w.kind = at(cell.where("kernel"), [&] { return parse_workload_kind(field(kernel)); });
        w.width = to_whole(field(width), cell.where("width"), false);
        w.height = to_whole(field(height), cell.where("height"), false);
        if (w.kind == WorkloadKind::stencil) {
            w.stencil_w = to_whole(field(stencil_w), cell.where("stencil_w"), false);
            w.stencil_h = to_whole(field(stencil_h), cell.where("stencil_h"), false);
        } else {
            w.depth = to_whole(field(depth), cell.where("depth"), false);
        }
        if (elem >= 0) w.elem_bytes = to_whole(field(elem), cell.where("elem_bytes"), false);
        w.schedule = at(cell.where("schedule"), [&] { return parse_schedule(field(schedule)); });
        at(t.source + ":" + std::to_string(run.line), [&] { validate(w); return 0; });
        run.block = to_whole(field(block), cell.where("block"), false);
        if (smem >= 0 && !field(smem).empty()) run.shared_bytes = to_whole(field(smem), cell.where("smem_per_block"), true);
        if (gpu >= 0) run.gpu = field(gpu);
        if (time >= 0 && !field(time).empty()) run.time_ms = to_number(field(time), cell.where("time_ms"));
        const auto all_source = read_metrics(t, r, metrics, run.metrics);
        run.loop = read_loop(t, r, loop, run.metrics.l1_requests);
        keep_or_list(std::move(run), r + 1, all_source, runs, invalid);
    }
    if (runs.empty() && invalid && invalid->size() > invalid_before)
        throw InputError(every_row_left_out(source, *invalid, invalid_before, "row"));
    if (runs.empty()) throw InputError(source + ": no measured rows");
    return runs;
}

namespace {

// ncu's "(128, 1, 1)": the product of the numbers, and whether all but the first are 1.
struct LaunchDims {
    std::uint64_t product = 0;
    bool one_dimensional = true;
};

LaunchDims launch_dims(const CsvTable& t, std::size_t r, int column, const char* name) {
    const std::string& dims = t.rows[r][static_cast<std::size_t>(column)];
    LaunchDims out;
    std::size_t count = 0;
    std::string number;
    for (char c : dims + ",") {
        if (c >= '0' && c <= '9') {
            number += c;
        } else if (c == ',' && !number.empty()) {
            const std::uint64_t n = to_whole(number, Cell{t, r}.where(name), false);
            out.product = count == 0 ? n : out.product * n;
            if (count > 0 && n != 1) out.one_dimensional = false;
            ++count;
            number.clear();
        }
    }
    if (count == 0) out.product = 0;
    return out;
}

std::string with_separators(std::uint64_t v) {
    std::string s = std::to_string(v);
    for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), ",");
    return s;
}

}  // namespace

std::string ncu_launch_size_mismatch(const MeasuredRun& run) {
    if (run.grid_blocks == 0 || run.block == 0 || run.recorded()) return "";
    const std::uint64_t items = static_cast<std::uint64_t>(run.workload.width) * run.workload.height;
    const std::uint64_t needed = (items + run.block - 1) / run.block;
    const std::uint64_t threads = run.grid_blocks * run.block;
    const bool fits = run.one_dimensional_launch ? run.grid_blocks == needed : threads >= items;
    if (fits) return "";
    return "the launch ran " + with_separators(run.grid_blocks) + " blocks of " + with_separators(run.block) +
           " threads, where " + std::to_string(run.workload.width) + "x" + std::to_string(run.workload.height) +
           " work items take " + with_separators(needed) + " such blocks";
}

std::vector<MeasuredRun> parse_ncu_raw_csv(std::string_view text, const std::string& source,
                                           const WorkloadSpec& base, const std::vector<Schedule>& schedules,
                                           std::vector<InvalidMeasuredRow>* invalid) {
    const CsvTable t = parse_csv(text, source, "Kernel Name");
    if (is_ncu_details_page(t))
        throw InputError(source + ": this is Nsight Compute's details page (one metric per row, in \"Metric Name\" and "
                         "\"Metric Value\"); compare reads its raw page, one launch per row: export with "
                         "ncu --csv --page raw --print-units base --metrics ...");
    refuse_unpaired_range_columns(t);
    const std::size_t invalid_before = invalid ? invalid->size() : 0;
    const int id = require_column(t, "ID");
    const int block = require_column(t, "Block Size");
    const int grid = t.column("Grid Size");
    const int kernel_name = t.column("Kernel Name");
    // ncu names the GPU in device__attribute_display_name ("Device" is its index: 0, 1, ...).
    int device = t.column("device__attribute_display_name");
    if (device < 0) device = t.column("Device Name");
    const std::vector<int> metrics = metric_columns(t);
    const LoopColumns loop = loop_columns(t);
    std::vector<MeasuredRun> runs;
    std::size_t launches = 0;
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
        const auto& row = t.rows[r];
        if (row[static_cast<std::size_t>(id)].empty()) {  // the units row
            auto check_unit = [&](int column, std::initializer_list<std::string_view> base_units) {
                const std::string& unit = row[static_cast<std::size_t>(column)];
                if (!unit.empty() && std::find(base_units.begin(), base_units.end(), unit) == base_units.end())
                    throw InputError(Cell{t, r}.where(t.header[static_cast<std::size_t>(column)]) + ": unit '" + unit +
                                     "' is scaled; collect with ncu --print-units base");
            };
            for (int column : metrics) check_unit(column, {"byte", "sector", "request", "%"});
            if (loop.instructions >= 0) check_unit(loop.instructions, {"inst"});
            for (const auto& pipe : loop.pipes) check_unit(pipe.second, {"cycle"});
            continue;
        }
        MeasuredRun run;
        run.line = t.lines[r];
        run.source = source;
        run.workload = base;
        if (schedules.empty()) throw InputError(source + ": no schedule given for the launches");
        const std::size_t index = launches++;  // launches left out still take their schedule
        if (schedules.size() > 1 && index >= schedules.size())
            throw InputError(source + ": more launches than the " + std::to_string(schedules.size()) + " schedules given");
        run.workload.schedule = schedules.size() == 1 ? schedules[0] : schedules[index];
        const LaunchDims block_dims = launch_dims(t, r, block, "Block Size");
        if (block_dims.product == 0 || block_dims.product > 4096)
            throw InputError(Cell{t, r}.where("Block Size") + ": '" + row[static_cast<std::size_t>(block)] +
                             "' is not a block size");
        run.block = static_cast<std::uint32_t>(block_dims.product);
        if (grid >= 0) {
            const LaunchDims grid_dims = launch_dims(t, r, grid, "Grid Size");
            if (grid_dims.product == 0)
                throw InputError(Cell{t, r}.where("Grid Size") + ": '" + row[static_cast<std::size_t>(grid)] +
                                 "' is not a grid size");
            run.grid_blocks = grid_dims.product;
            run.one_dimensional_launch = grid_dims.one_dimensional && block_dims.one_dimensional;
        }
        if (device >= 0) run.gpu = row[static_cast<std::size_t>(device)];
        if (kernel_name >= 0) run.kernel = row[static_cast<std::size_t>(kernel_name)];
        const auto all_source = read_metrics(t, r, metrics, run.metrics);
        run.loop = read_loop(t, r, loop, run.metrics.l1_requests);
        keep_or_list(std::move(run), index + 1, all_source, runs, invalid);
    }
    if (runs.empty() && invalid && invalid->size() > invalid_before)
        throw InputError(every_row_left_out(source, *invalid, invalid_before, "launch"));
    if (runs.empty()) throw InputError(source + ": no profiled launches");
    if (schedules.size() > 1 && launches != schedules.size())
        throw InputError(source + ": " + std::to_string(launches) + " launches but " +
                         std::to_string(schedules.size()) + " schedules given");
    return runs;
}

}  // namespace cachesim
