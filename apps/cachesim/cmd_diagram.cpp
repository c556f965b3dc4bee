// cachesim diagram: the spatial-temporal diagram (or the array view at one step) of one
// configuration, rendered headless into a PNG.
#include <algorithm>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <utility>

#include "apps/common/atomic_file.hpp"
#include "apps/common/drawable_trace.hpp"
#include "apps/common/memory_estimate.hpp"
#include "apps/common/option_choice.hpp"
#include "apps/common/options.hpp"
#include "apps/cachesim/number_text.hpp"
#include "apps/cachesim/subcommands.hpp"
#include "apps/cachesim/sweep_progress.hpp"
#include "traces/atomic_output.hpp"
#include "traces/choice_hint.hpp"
#include "traces/input_error.hpp"
#include "viz/line_range.hpp"
#include "viz/memory_chart.hpp"
#include "viz/notes.hpp"
#include "viz/record.hpp"
#include "viz/render.hpp"
#include "viz/view_choices.hpp"

namespace cachesim::cli {

namespace {

po::options_description diagram_options() {
    po::options_description d("Diagram");
    d.add_options()
        ("out,output,o", po::value<std::string>(), "write the PNG to FILE (required)")
        ("view", po::value<std::string>()->default_value("time"),
         "time: lines x time steps | array: the 2D arrays at --time")
        ("time", po::value<std::uint64_t>()->default_value(0), "step shown by the array view")
        ("from", po::value<std::uint64_t>(), "time view: first step shown (default 0)")
        ("to", po::value<std::uint64_t>(), "time view: step after the last shown (default: the end)")
        ("width", po::value<int>()->default_value(0), "image width in pixels (default 1400 time, 2000 with a memory chart or wider where the chart needs it, 1200 array)")
        ("height", po::value<int>()->default_value(0), "image height in pixels (default 800 time, 700 array)")
        ("title", po::value<std::string>(), "title (default: the workload and schedule)")
        ("max-cells", po::value<std::uint64_t>()->default_value(std::uint64_t{1} << 25),
         "memory cap: most recorded cells (4 bits each; the pyramid adds up to 3x)")
        ("aggregate", po::value<std::string>()->default_value("density"),
         ("time view, where a pixel shows several cells: " + option_choices_help<viz::AggregateRule>(viz::kAggregateChoices)).c_str())
        ("lines", po::value<std::string>(),
         "time view: only these lines, FROM:TO (rows FROM..TO-1) or by array element, e.g. in[1000]:in[5000] or B[0,8]:B[0,16]")
        ("colour-by,color-by", po::value<std::string>()->default_value("state"),
         ("time view: " + option_choices_help<viz::TimeDiagramStyle::ColourBy>(viz::kColourByChoices)).c_str())
        ("miss-rate", po::value<std::string>()->default_value("auto"),
         ("time view: the miss-rate strip above the time axis: " +
          option_choices_help<viz::TimeDiagramStyle::Strip>(viz::kMissRateChoices)).c_str())
        ("memory-chart", po::value<std::string>()->default_value("auto"),
         "time view: the memory chart of a GPU run (requests and sectors L1 -> L2 -> DRAM): auto (GPU runs) | off")
        ("quiet,q", po::bool_switch(),
         "no progress line (on a terminal, a run that takes over 2 s shows its share done and ETA on stderr)")
        ("dry-run", po::bool_switch(),
         "check the options and the trace's format, print what would be drawn and the memory estimate "
         "('memory estimate: N bytes ...') and exit without simulating or writing the PNG");
    return d;
}

constexpr int kMaxPixels = 16384;

// Whether a layout fits its picture, and the size it names where it does not.
struct Fit {
    bool fits = false;
    int width_needed = 0, height_needed = 0;
};
template <class Layout>
Fit fit_of(const Layout& layout) {
    return {layout.fits, layout.width_needed, layout.height_needed};
}
using FitAt = std::function<Fit(int width, int height)>;

// The lowest of [low, high] at which `fits` holds, given that it holds at high. Bisection keeps a
// value that fits and one below it that does not, so the answer fits and one pixel less does not
// even where fitting is not monotone.
int lowest_fitting(int low, int high, const std::function<bool(int)>& fits) {
    if (fits(low)) return low;
    while (high - low > 1) {
        const int mid = low + (high - low) / 2;
        (fits(mid) ? high : low) = mid;
    }
    return high;
}

// The smallest picture from width x height up in which the layout fits, if one up to kMaxPixels
// does. The size a layout names works but need not be the smallest (a shorter plot that
// aggregates rows adds the miss-rate strip and its notes, a taller one may not), so it is only
// where the search starts: up to a size that fits, then down, a side at a time, until neither
// gives a pixel back.
std::optional<std::pair<int, int>> smallest_fit(const FitAt& layout_at, int width, int height, const Fit& at_given) {
    std::map<std::pair<int, int>, Fit> known{{{width, height}, at_given}};
    const auto fit = [&](int w, int h) {
        const auto [at, added] = known.try_emplace({w, h});
        if (added) at->second = layout_at(w, h);
        return at->second;
    };
    const auto fits = [&](int w, int h) { return fit(w, h).fits; };
    int w = std::min(std::max(width, at_given.width_needed), kMaxPixels);
    int h = std::min(std::max(height, at_given.height_needed), kMaxPixels);
    for (int tries = 0; !fits(w, h); ++tries) {
        const Fit f = fit(w, h);
        const int w2 = std::min(std::max(w, f.width_needed), kMaxPixels);
        const int h2 = std::min(std::max(h, f.height_needed), kMaxPixels);
        if ((w2 == w && h2 == h) || tries == 8) return std::nullopt;
        w = w2;
        h = h2;
    }
    for (int round = 0; round < 16; ++round) {
        const int w2 = lowest_fitting(width, w, [&](int x) { return fits(x, h); });
        const int h2 = lowest_fitting(height, h, [&](int y) { return fits(w2, y); });
        const bool settled = w2 == w && h2 == h;
        w = w2;
        h = h2;
        if (settled) break;
    }
    return std::pair{w, h};
}

// A picture too small for what it holds: a side left to its default grows to the smallest size
// that fits (true: draw again); a side the user gave is refused, naming the smallest size that fits.
bool grow_to_fit(const po::variables_map& vm, const std::string& what, int& width, int& height,
                 const FitAt& layout_at, const Fit& at_given) {
    if (at_given.width_needed <= width && at_given.height_needed <= height) return false;  // nothing to grow
    const std::optional<std::pair<int, int>> smallest = smallest_fit(layout_at, width, height, at_given);
    const int width_needed = smallest ? smallest->first : at_given.width_needed;
    const int height_needed = smallest ? smallest->second : at_given.height_needed;
    const bool width_short = width_needed > width, height_short = height_needed > height;
    const bool width_given = vm["width"].as<int>() != 0, height_given = vm["height"].as<int>() != 0;
    if ((!width_short || !width_given) && (!height_short || !height_given) && width_needed <= kMaxPixels &&
        height_needed <= kMaxPixels) {
        width = std::max(width, width_needed);
        height = std::max(height, height_needed);
        return true;
    }
    std::string need;
    if (width_short) need = "--width " + std::to_string(width_needed);
    if (height_short) need += (need.empty() ? "" : " and ") + std::string("--height ") + std::to_string(height_needed);
    throw InputError(what + " do not fit in " + std::to_string(width) + "x" + std::to_string(height) +
                     " pixels; they need at least " + need);
}

int pixels(const po::variables_map& vm, const char* name, int fallback) {
    const int v = vm[name].as<int>();
    if (v == 0) return fallback;
    if (v < 200 || v > kMaxPixels)
        throw InputError(std::string("--") + name + ": " + std::to_string(v) + " pixels is outside 200.." +
                         std::to_string(kMaxPixels));
    return v;
}

}  // namespace

int run_diagram(int argc, char** argv) {
    po::options_description options;
    options.add(common_options()).add(workload_options()).add(cache_options()).add(gpu_options()).add(timing_options()).add(diagram_options()).add(memory_options());
    const auto vm = parse_command_line(
        argc, argv, options,
        "usage: cachesim diagram --out FILE.png [options]\n\n"
        "Simulates like `simulate` and draws the thesis's spatial-temporal diagram: rows are cache\n"
        "lines grouped by array, columns are work items in launch order (--view time), or the 2D\n"
        "arrays at step --time coloured by where each element's line lives (--view array).\n"
        "With --model gpu a step is one scheduling round of all SMs, and \"in L1\" means in any SM's L1;\n"
        "with --warp-times a step is one request, in the order the GPU ran them.\n"
        "A recorded trace (--trace K.cst: cst version 2, of the kernel recorder or `cachesim trace`) is drawn\n"
        "by the arrays its header holds; a thread-model step is then one thread, in launch order.\n"
        "Rendered in memory; no display needed.");
    if (!vm) return 0;
    if (!vm->count("out")) throw InputError("diagram: --out FILE.png is required");
    const std::string out = (*vm)["out"].as<std::string>();
    check_png_name(out, "--out");
    check_outputs({{out, "--out"}}, input_files(*vm));  // before the simulation, not after it
    const std::string view = (*vm)["view"].as<std::string>();
    if (view != "time" && view != "array")
        throw InputError("--view: expected time or array, not '" + view + "'" + case_hint(view, {"time", "array"}));
    // Each view's own options, refused with the other rather than ignored.
    for (const char* key : {"from", "to", "lines", "aggregate", "colour-by", "miss-rate", "memory-chart"})
        if (view == "array" && given(*vm, key))
            throw InputError(std::string("--") + key + " draws the time view; it does not apply to --view array");
    if (view == "time" && given(*vm, "time"))
        throw InputError("--time is the array view's step; it does not apply to the time view (--view array draws it)");
    const std::uint64_t max_cells = (*vm)["max-cells"].as<std::uint64_t>();
    if (max_cells < 1024) throw InputError("--max-cells: at least 1024");

    const viz::AggregateRule rule =
        option_choice<viz::AggregateRule>(viz::kAggregateChoices, "aggregate", (*vm)["aggregate"].as<std::string>());
    const viz::TimeDiagramStyle::ColourBy colour_by = option_choice<viz::TimeDiagramStyle::ColourBy>(
        viz::kColourByChoices, "colour-by", (*vm)["colour-by"].as<std::string>());
    const bool by_sm = colour_by == viz::ColourBy::sm, by_source = colour_by == viz::ColourBy::hit_source;
    const viz::TimeDiagramStyle::Strip miss_rate = option_choice<viz::TimeDiagramStyle::Strip>(
        viz::kMissRateChoices, "miss-rate", (*vm)["miss-rate"].as<std::string>());
    const std::string chart = (*vm)["memory-chart"].as<std::string>();
    if (chart != "auto" && chart != "off") throw InputError("--memory-chart: expected auto or off, not '" + chart + "'" +
                                                              case_hint(chart, {"auto", "off"}));

    SimulationOptions sim = read_simulation_options(*vm);
    // A recorded trace is drawn by the arrays its header holds (a cst version 2 trace).
    const std::optional<cst::TraceHeader> trace =
        sim.workload ? std::nullopt : std::optional(drawable_trace_header(sim, (*vm)["trace"].as<std::string>()));
    WarpTimeline timeline;
    read_timeline(*vm, sim, timeline);
    // A GPU run's legend splits the L1's hits by who brought the sector (l1_hit_sources.hpp).
    if (sim.model == ModelKind::gpu) sim.gpu.count_l1_hit_sources = true;
    // refuses a run past --max-memory
    const MemoryEstimate memory = estimate_memory(sim, max_memory_option(*vm), max_cells, by_sm || by_source);
    const std::optional<WorkloadSpec>& w = sim.workload;
    const std::vector<ArrayInfo> arrays = w ? w->arrays() : trace->arrays;
    const bool gpu = sim.model == ModelKind::gpu;
    if (by_sm && !gpu) throw InputError("--colour-by sm: needs --model gpu (the thread model has no SMs)");
    if (by_source && !gpu)
        throw InputError("--colour-by source: needs --model gpu (the thread model has no warps or blocks)");
    if ((*vm)["dry-run"].as<bool>()) {
        const std::string drawn = w ? w->describe() : describe_trace((*vm)["trace"].as<std::string>(), *trace);
        std::cout << "would draw the " << view << " view of " << drawn << " (" << model_name(sim.model)
                  << " model) to " << out << "\n"
                  << "memory estimate: " << memory.total() << " bytes, " << memory.describe() << "\n";
        return 0;
    }
    // Thread model: a step is a work item, so the run's length is known up front. GPU model: a step
    // is a scheduling round, known only once the run is over.
    // A trace's steps are its threads, in launch order.
    const std::optional<std::uint64_t> steps = gpu ? std::nullopt : std::optional<std::uint64_t>(w ? w->items() : trace->steps);
    GpuResult gpu_run;  // the GPU model's own result: its steps are rounds (or measured requests)
    auto gpu_steps = [&] { return sim.gpu.timeline ? gpu_run.requests() : gpu_run.rounds; };
    RunProgress progress(!(*vm)["quiet"].as<bool>());
    auto record = [&](viz::RecorderOptions rec) {
        RunControl control;
        control.progress = progress.callback();
        viz::RecordedRun run = [&] {
            if (gpu && w) return viz::record_gpu_model(*w, sim.gpu, rec, control, &gpu_run);
            if (gpu) return viz::record_gpu_trace(sim.trace_path, sim.gpu, rec, control, &gpu_run);
            if (steps) rec.expected_steps = *steps;
            auto source = make_source(sim);
            return viz::record_thread_model(*source, sim.hierarchy, rec, w, control);
        }();
        progress.finish();
        return run;
    };

    viz::RecorderOptions rec;
    rec.max_cells = max_cells;
    const std::string what = w ? w->describe() : describe_trace((*vm)["trace"].as<std::string>(), *trace);
    std::string title = (*vm).count("title") ? (*vm)["title"].as<std::string>()
                                             : what + (gpu ? " (GPU model, block " + std::to_string(sim.gpu.block) + ")" : "");
    // The notes name a trace (a workload names itself in run_notes).
    auto notes = [&](const SimulationResult& result) {
        std::vector<std::string> lines = viz::run_notes(w, sim.hierarchy, result, {gpu, sim.gpu.sms});
        if (trace) lines.insert(lines.begin(), "trace " + what);
        if (gpu && gpu_run.l1_hit_sources.total()) lines.push_back(viz::hit_sources_note(gpu_run.l1_hit_sources));
        if (gpu) {
            const WorkloadSpec* launch = launch_workload(w ? &*w : nullptr, gpu_run.recorded_workload);
            for (std::string& line :
                 viz::known_miss_notes(known_misses(launch, sim.gpu, gpu_run.l1_other_block_points(sim.gpu))))
                lines.push_back(std::move(line));
        }
        return lines;
    };
    std::string encoded;
    if (view == "time") {
        viz::TimeDiagramStyle style;
        // A GPU run's memory chart takes a column of its own.
        style.width = pixels(*vm, "width", gpu && chart == "auto" ? 2000 : 1400);
        style.height = pixels(*vm, "height", 800);
        if (vm->count("from")) style.from = (*vm)["from"].as<std::uint64_t>();
        if (vm->count("to")) style.to = (*vm)["to"].as<std::uint64_t>();
        if (steps && style.from && *style.from >= *steps)
            throw InputError("--from: step " + std::to_string(*style.from) + " is past the last step " +
                             std::to_string(*steps - 1));
        if (style.to && ((steps && *style.to > *steps) || *style.to <= style.from.value_or(0)))
            throw InputError("--to: must be after --from" +
                             (steps ? " and at most " + std::to_string(*steps) : std::string()));
        style.aggregate = rule;
        style.colour_by = colour_by;
        style.miss_rate_strip = miss_rate;
        if (vm->count("lines")) {
            // The recorder's rows: lines of the first enabled level.
            const HierarchyConfig h = gpu ? viz::gpu_hierarchy(sim.gpu) : sim.hierarchy;
            const std::uint32_t line = h.l1.enabled()   ? h.l1.line_bytes
                                       : h.l2.enabled() ? h.l2.line_bytes
                                                        : std::max<std::uint32_t>(h.l1.line_bytes, 1);
            const viz::RowLayout rows(arrays, line);
            style.rows = viz::parse_row_range((*vm)["lines"].as<std::string>(), rows);
            // Record only those lines, at the finest resolution the cap allows.
            rec.first_row = style.rows->first;
            rec.window_rows = style.rows->rows();
        }
        rec.record_sm = by_sm;
        rec.record_hit_sources = by_source;
        // Record only the window, at the finest resolution the cap allows.
        rec.first_step = style.from.value_or(0);
        if (steps || style.to) rec.window_steps = style.to.value_or(steps.value_or(0)) - rec.first_step;
        const viz::RecordedRun run = record(rec);
        if (gpu && style.from && *style.from >= gpu_steps())
            throw InputError("--from: step " + std::to_string(*style.from) + " is past the run's last step " +
                             std::to_string(gpu_steps() - 1));
        if (gpu && style.to && *style.to > gpu_steps())
            throw InputError("--to: step " + std::to_string(*style.to) + " is past the run's end: it has " +
                             counted(gpu_steps(), "step"));
        style.title = title;
        if (trace && !gpu) style.time_label = "time step (the recorded threads in launch order)";
        if (gpu)
            style.time_label = sim.gpu.timeline
                                   ? "time step (requests, in the order the GPU ran them: --warp-times)"
                                   : "time step (scheduling rounds: every SM with work issues one request)";
        style.notes = notes(run.result);
        if (gpu && chart == "auto") {
            style.memory_chart = viz::gpu_memory_chart(gpu_run, sim.gpu);
            // Unless asked for a width, as wide as the chart needs beside the legend's notes.
            if ((*vm)["width"].as<int>() == 0)
                style.width = std::clamp(viz::time_diagram_width_for_chart(run.diagram, style), style.width, kMaxPixels);
        }
        viz::RenderedTimeDiagram rendered = viz::render_time_diagram(run.diagram, style);
        const auto time_layout_at = [&](int width, int height) {
            viz::TimeDiagramStyle at = style;
            at.width = width;
            at.height = height;
            return fit_of(viz::render_time_diagram(run.diagram, at).layout);
        };
        if (!rendered.layout.fits && grow_to_fit(*vm, "--view time: the plot, its axes and the legend", style.width,
                                                 style.height, time_layout_at, fit_of(rendered.layout)))
            rendered = viz::render_time_diagram(run.diagram, style);
        encoded = viz::encode_png(rendered.image);
    } else {
        const std::uint64_t t = (*vm)["time"].as<std::uint64_t>();
        if (steps && t >= *steps)
            throw InputError("--time: step " + std::to_string(t) + " is past the last step " + std::to_string(*steps - 1));
        rec.first_step = t;
        rec.window_steps = 1;
        rec.snapshot_step = t;
        const viz::RecordedRun run = record(rec);
        // Only a GPU run can end before --time: a thread-model step past the end is refused above.
        if (!run.snapshot)
            throw InputError("--time: step " + std::to_string(t) + " is past the run's last " +
                             (sim.gpu.timeline ? "step " : "round ") + std::to_string(gpu_steps() ? gpu_steps() - 1 : 0));
        viz::ArrayViewStyle style;
        style.width = pixels(*vm, "width", 1200);
        style.height = pixels(*vm, "height", 700);
        style.title = title;
        style.notes = notes(run.result);
        // A GPU step is a round of many warps' requests, not one work item.
        const viz::ArrayView av = viz::make_array_view(run.diagram.layout(), *run.snapshot, w,
                                                       viz::step_unit(gpu, trace.has_value(), sim.gpu.timeline != nullptr));
        const viz::ArrayViewLayout fit = viz::layout_array_view(av, style);
        const auto array_layout_at = [&](int width, int height) {
            viz::ArrayViewStyle at = style;
            at.width = width;
            at.height = height;
            return fit_of(viz::layout_array_view(av, at));
        };
        if (!fit.fits)
            grow_to_fit(*vm, "--view array: the arrays, their titles and the legend", style.width, style.height,
                        array_layout_at, fit_of(fit));
        encoded = viz::encode_png(viz::render_array_view(av, style).image);
    }
    write_file_atomically(out, encoded);
    (writes_to_stdout(out) ? std::cerr : std::cout) << "wrote " << out << "\n";
    return 0;
}

}  // namespace cachesim::cli
