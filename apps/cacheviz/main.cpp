// cacheviz: the interactive desktop GUI (SFML 2.5 + Dear ImGui 1.86).
//   cacheviz [simulation options as for `cachesim simulate`] [--compare "OPTIONS"]
//   cacheviz --screenshot FILE.png --frames N [...]   renders N frames, then saves the window
#include <SFML/Graphics.hpp>
#include <SFML/OpenGL.hpp>
#include <X11/Xlib.h>
#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <numeric>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "apps/cacheviz/app.hpp"
#include "apps/cacheviz/config.hpp"
#include "apps/cacheviz/diagram_command.hpp"
#include "apps/cacheviz/input_script.hpp"
#include "apps/cacheviz/job_threads.hpp"
#include "apps/cacheviz/start_view.hpp"
#include "apps/common/atomic_file.hpp"
#include "apps/common/cli_errors.hpp"
#include "apps/common/memory_estimate.hpp"
#include "apps/common/option_choice.hpp"
#include "apps/common/options.hpp"
#include "sim/gpu/gpu_parameters.hpp"
#include "sim/thread_model.hpp"
#include "traces/atomic_output.hpp"
#include "traces/choice_hint.hpp"
#include "traces/input_error.hpp"
#include "viz/canvas.hpp"
#include "viz/gui/imgui_sfml.hpp"
#include "viz/view_choices.hpp"

namespace po = boost::program_options;
using namespace cachesim;

namespace {

// Frames a second while a screenshot only waits for its simulations (hold_waiting_frames).
constexpr unsigned kWaitingFrameRate = 4;

po::options_description gui_options() {
    po::options_description d("Window");
    d.add_options()
        ("compare", po::value<std::string>(), "open a second pane: these options on top of the first's, e.g. \"--schedule column:32\"")
        ("screenshot", po::value<std::string>(), "render --frames frames (and wait for the simulations), save the window as PNG, exit")
        ("frames", po::value<int>()->default_value(3), "frames to render before --screenshot (at least 1)")
        ("window", po::value<std::string>()->default_value("1600x1000"), "window size WxH in pixels")
        ("start-gpu", po::value<std::string>(),
         "start with the GPU model and this GPU preset (v100, t4, a100, h100, h200), in both panes; the other way to "
         "the first pane's GPU than --model gpu (or a GPU preset) and the GPU model's options, which it does not take")
        ("start-block", po::value<std::uint32_t>(), "with --start-gpu: threads per block (not with --block)")
        ("start-sms", po::value<std::uint32_t>(), "with --start-gpu: number of SMs (not with --sms)")
        ("start-warp-times", po::value<std::string>(),
         "with --start-gpu: the first pane replays this measured warp order (gpubench --warp-times or "
         "progressprobe's samples, as cachesim simulate --warp-times; a checkbox switches it off); a --compare "
         "pane stays in lockstep")
        ("start-warp-times-launch", po::value<std::uint32_t>(), "with --start-warp-times: which recorded launch")
        ("layout", po::value<std::string>(), "--screenshot: also write where the first diagram was drawn (x y w h t0 t1 r0 r1), its base cell and its full-resolution window")
        ("playhead", po::value<std::uint64_t>()->default_value(0), "initial playhead step")
        ("zoom", po::value<std::string>(), "initial view: steps FROM:TO (TO excluded), e.g. 96:128; zoomed in past the diagram's "
                                           "base cells, the window is re-simulated at one step x one line per cell")
        ("zoom-lines", po::value<std::string>(), "initial view: cache lines (diagram rows) FROM:TO (TO excluded)")
        ("max-cells", po::value<std::uint64_t>()->default_value(std::uint64_t{1} << 25),
         "base cells of a diagram (as for `cachesim diagram`); a longer run shares a cell among several steps / lines")
        ("detail-cells", po::value<std::uint64_t>()->default_value(std::uint64_t{1} << 24),
         "deep zoom budget: cells of a full-resolution window at most (4 bits each, 3x more for its pyramid); 0: off")
        ("frame-stats", po::bool_switch(), "print frame-time statistics at exit")
        ("auto-motion", po::bool_switch(), "pan and zoom by itself every frame (for frame-time measurements)")
        ("max-seconds", po::value<double>(), "end the session after this many seconds (--screenshot: give up on "
                                             "simulations still running then, exit 1; default 120 there, no limit otherwise)")
        ("script", po::value<std::string>(), "feed the keys and mouse events in FILE at given frames (see docs/gui.md)")
        ("state", po::value<std::string>(), "at exit (or with the screenshot) write the visible state as 'key value' lines")
        ("save-png", po::value<std::string>()->default_value("cacheviz-view.png"), "where Ctrl+S and 'save PNG' save the window")
        ("tab", po::value<std::string>()->default_value("stats"), "the bottom right panel's first tab: stats | contents | chart")
        ("aggregate", po::value<std::string>()->default_value("density"),
         ("what a cell standing for several shows when zoomed out: " +
          cli::option_choices_help<viz::AggregateRule>(viz::kAggregateChoices)).c_str())
        ("colour-by,color-by", po::value<std::string>()->default_value("state"),
         cli::option_choices_help<viz::TimeDiagramStyle::ColourBy>(viz::kColourByChoices).c_str())
        ("miss-rate", po::value<std::string>()->default_value("on"),
         ("the miss-rate strip under the cells: " + cli::option_choices_help(viz::kMissRateOnOffChoices)).c_str());
    return d;
}

// "FROM:TO" with FROM < TO, for --zoom and --zoom-lines.
std::pair<double, double> parse_range(const std::string& text, const std::string& option) {
    const std::size_t colon = text.find(':');
    const auto number = [&](const std::string& part) {
        if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos || part.size() > 18)
            throw InputError(option + ": expected FROM:TO (whole numbers), got '" + text + "'");
        return std::stoull(part);
    };
    if (colon == std::string::npos) throw InputError(option + ": expected FROM:TO (whole numbers), got '" + text + "'");
    const std::uint64_t from = number(text.substr(0, colon)), to = number(text.substr(colon + 1));
    if (from >= to) throw InputError(option + ": FROM must be below TO, got '" + text + "'");
    return {static_cast<double>(from), static_cast<double>(to)};
}

// The GPU model's checks name `cachesim simulate`'s options (--sms, --block); cacheviz takes
// them as --start-sms and --start-block.
std::string start_option_names(std::string text) {
    for (const auto& [from, to] : {std::pair<std::string, std::string>{"--sms", "--start-sms"}, {"--block", "--start-block"}}) {
        std::size_t at = 0;
        while ((at = text.find(from, at)) != std::string::npos) {
            const std::size_t end = at + from.size();
            // Whole option names only: not --blocks-per-sm or --block-start-skip.
            const bool longer = end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '-');
            if (longer) {
                at = end;
                continue;
            }
            text.replace(at, from.size(), to);
            at += to.size();
        }
    }
    return text;
}

// The first pane's GPU comes either from the simulation options (--model gpu or a GPU preset,
// with --block, --sms, ...) or from --start-gpu (with --start-block, --start-sms); mixing the two
// would leave one of them unused, so it is refused naming both.
void refuse_two_ways_to_one_gpu(const po::variables_map& vm) {
    using Pair = std::tuple<const char*, const char*, const char*>;
    for (const auto& [option, start_option, what] :
         {Pair{"block", "start-block", "threads per block"}, Pair{"sms", "start-sms", "number of SMs"}})
        if (cli::given(vm, option) && vm.count(start_option))
            throw InputError(std::string("--") + option + " and --" + start_option + " both set the first pane's " + what +
                             ": give one (--" + option + " with --model gpu or a GPU preset, --" + start_option +
                             " with --start-gpu)");
    if (!vm.count("start-gpu")) return;
    if (vm.count("warp-times"))
        throw InputError("--warp-times and --start-gpu: the measured warp order of a --start-gpu pane is "
                         "--start-warp-times (--warp-times goes with --model gpu or a GPU preset)");
    for (const GpuParameter& p : gpu_parameters()) {
        const std::string key(p.option);
        if (!p.cache_option && cli::given(vm, key))
            throw InputError("--" + key + " and --start-gpu both describe the first pane's GPU: give it with --model gpu "
                             "(or a GPU preset) and its options, or with --start-gpu, --start-block and --start-sms");
    }
}

// --hit-sources counts the GPU model's L1 hits, as in `cachesim simulate`; `context` names the pane.
void refuse_hit_sources_off_the_gpu(bool hit_sources, const gui::PaneConfig& pane, const std::string& context) {
    if (hit_sources && pane.model != cli::ModelKind::gpu)
        throw InputError(context +
                         "--hit-sources counts the GPU model's L1 hits: it needs --model gpu (or a GPU preset) or --start-gpu");
}

// Checks every file the run will write before any window opens, so that a run that could not
// write one of them writes none: an empty name, a missing or read-only directory, two outputs
// naming one file, an output that is a file the run reads (`inputs`: it would be destroyed).
void check_gui_outputs(const po::variables_map& vm, const std::vector<gui::ScriptedEvent>& script,
                       const std::vector<NamedPath>& inputs) {
    std::vector<NamedPath> outputs;
    for (const char* key : {"screenshot", "state", "layout"})
        if (vm.count(key)) outputs.push_back({vm[key].as<std::string>(), std::string("--") + key});
    // Written only on request (Ctrl+S): a given name is checked here, the default (which most
    // sessions never use) when it is used (save_window).
    if (!vm["save-png"].defaulted()) outputs.push_back({vm["save-png"].as<std::string>(), "--save-png"});
    for (const gui::ScriptedEvent& se : script)
        if (se.kind == gui::ScriptedEvent::Kind::snapshot)
            for (const char* ext : {".png", ".txt"}) outputs.push_back({se.path + ext, "--script's snapshot"});
    check_outputs(outputs, inputs);
    for (const char* key : {"screenshot", "save-png"})
        if (vm.count(key) && !vm[key].defaulted()) cli::check_png_name(vm[key].as<std::string>(), std::string("--") + key);
}

// Ctrl+S: writes the window's PNG (`png`) to --save-png's `path` and returns the status line's
// message. A file the run reads (`inputs`) is never replaced: the default name, which start-up
// leaves unchecked as most sessions never save, is checked here, as a given one was at start-up.
std::string save_window(const std::string& path, bool default_name, const std::vector<NamedPath>& inputs,
                        const std::function<std::string()>& png) {
    try {
        check_output_not_an_input(path, default_name ? "the default --save-png" : "--save-png", inputs);
        cli::write_file_atomically(path, png());
        std::cout << "saved " << path << "\n";
        return "saved the window to " + path;
    } catch (const std::exception& e) {
        return std::string("not saved: ") + cli::error_text(e);
    }
}

struct FrameStats {
    std::vector<double> all_ms, busy_ms, build_ms, render_ms;
    std::size_t texels = 0;
    void print(std::ostream& out, std::uint64_t visible_cells) const {
        auto summary = [&](const char* what, std::vector<double> v) {
            if (v.empty()) { out << what << ": no frames\n"; return; }
            std::sort(v.begin(), v.end());
            const double mean = std::accumulate(v.begin(), v.end(), 0.0) / v.size();
            auto pct = [&](double p) { return v[std::min(v.size() - 1, static_cast<std::size_t>(p * v.size()))]; };
            char buf[200];
            std::snprintf(buf, sizeof buf, "%s: %zu frames, mean %.2f ms, median %.2f ms, p95 %.2f ms, max %.2f ms", what, v.size(), mean,
                          pct(0.5), pct(0.95), v.back());
            out << buf << "\n";
        };
        summary("frame times", all_ms);
        summary("frame times while simulating", busy_ms);
        summary("  of which building the UI and updating textures (our CPU work)", build_ms);
        summary("  of which OpenGL rendering and presenting", render_ms);
        out << "texels written: " << texels << ", cell buckets (texels) in the last view: " << visible_cells << "\n";
    }
};

int run(int argc, char** argv) {
    po::options_description options;
    options.add(gui::simulation_options()).add(gui_options()).add(cli::memory_options());
    const auto vm = cli::parse_command_line(
        argc, argv, options,
        "usage: cacheviz [options]\n\n"
        "Explore how a thread schedule uses the caches: the spatial-temporal diagram, the arrays at\n"
        "the playhead, counters and the thesis's bounds. Simulation options as for `cachesim simulate`.");
    if (!vm) return 0;
    for (const char* key : {"start-block", "start-sms"})
        if (vm->count(key) && !vm->count("start-gpu")) throw InputError(std::string("--") + key + " needs --start-gpu");
    refuse_two_ways_to_one_gpu(*vm);
    const gui::PaneConfig first = [&] {
        const cli::SimulationOptions o = cli::read_simulation_options(*vm);
        if (vm->count("start-gpu") && o.model == cli::ModelKind::gpu)
            throw InputError("--start-gpu " + (*vm)["start-gpu"].as<std::string>() + " and " +
                             (cli::given(*vm, "model") ? std::string("--model gpu") : "--preset " + o.preset) +
                             " both put the first pane on the GPU model: give one");
        gui::PaneConfig c = gui::pane_config(o, *vm);  // a trace without an array layout is refused here
        // Refused up front (exit 2) past --max-memory, as `cachesim diagram` does, before any window opens.
        // (a GPU run records its SMs and hit sources beside the cells)
        cli::estimate_memory(o, cli::max_memory_option(*vm), (*vm)["max-cells"].as<std::uint64_t>(),
                             o.model == cli::ModelKind::gpu ? 2 : 0);
        return c;
    }();
    auto apply_gpu = [&](gui::PaneConfig& c) {
        if (!vm->count("start-gpu")) return;
        const std::string name = (*vm)["start-gpu"].as<std::string>();
        const GpuPreset* p = find_gpu_preset(name);
        if (!p) throw InputError("--start-gpu: unknown GPU preset '" + name + "'" + case_hint(name, [](std::string_view n) { return find_gpu_preset(n) != nullptr; }));
        c.model = cli::ModelKind::gpu;
        c.gpu = p->config;
        if (vm->count("start-block")) c.gpu.block = (*vm)["start-block"].as<std::uint32_t>();
        if (vm->count("start-sms")) c.gpu = with_sms(c.gpu, (*vm)["start-sms"].as<std::uint32_t>());
        try {
            validate(c.gpu);
        } catch (const SimulationError& e) {
            throw SimulationError(start_option_names(e.what()));
        }
    };
    gui::PaneConfig first_pane = first;
    apply_gpu(first_pane);
    refuse_hit_sources_off_the_gpu((*vm)["hit-sources"].as<bool>(), first_pane, "");
    if (vm->count("start-warp-times") && first_pane.model != cli::ModelKind::gpu)
        throw InputError("--start-warp-times needs --start-gpu");
    if (vm->count("start-warp-times") && first_pane.trace)
        throw InputError("--start-warp-times replays the launches of the built-in workloads, not a recorded trace");
    if (auto timeline = cli::timeline_option(*vm, "start-warp-times", "start-warp-times-launch", first_pane.workload,
                                             first_pane.gpu.block)) {
        first_pane.timeline = std::make_shared<const WarpTimeline>(std::move(*timeline));
        first_pane.use_timeline = true;
    }
    // Every file the run reads, for check_gui_outputs: the compare pane's are added below.
    std::vector<NamedPath> inputs = cli::input_files(*vm);
    for (const char* key : {"start-warp-times", "script"})
        if (vm->count(key)) inputs.push_back({(*vm)[key].as<std::string>(), std::string("--") + key});
    std::optional<gui::PaneConfig> compare;
    if (vm->count("compare")) {
        // The first pane's explicit options, overridden by the compare options.
        std::vector<std::string> base;
        const auto parsed = po::command_line_parser(argc, argv).style(cli::kCommandLineStyle).options(options).run();
        // Only the options describing a run: the window's and --max-memory are the session's.
        const auto simulation_desc = gui::simulation_options();
        for (const auto& opt : parsed.options) {
            if (!simulation_desc.find_nothrow(opt.string_key, false)) continue;
            base.push_back("--" + opt.string_key);
            for (const std::string& v : opt.value) base.push_back(v);
        }
        std::vector<NamedPath> compare_inputs;
        const std::string compare_words = (*vm)["compare"].as<std::string>();
        const std::string compare_context = "--compare \"" + compare_words + "\": ";
        bool compare_hit_sources = false;
        try {
            compare = gui::config_from_args(gui::merge_args(base, gui::split_words(compare_words)), &compare_inputs,
                                            &compare_hit_sources);
        } catch (const std::exception& e) {  // the second pane's own mistake: say which pane
            throw InputError(compare_context + cli::error_text(e));
        }
        for (NamedPath& input : compare_inputs) inputs.push_back({std::move(input.path), "--compare's " + input.option});
        // --start-gpu would replace the GPU the compare options chose (the first pane's cannot
        // choose one with it).
        if (vm->count("start-gpu") && compare->model == cli::ModelKind::gpu)
            throw InputError(compare_context + "--start-gpu " + (*vm)["start-gpu"].as<std::string>() +
                             " puts both panes on its GPU, and these options choose the GPU model too: give one");
        apply_gpu(*compare);
        refuse_hit_sources_off_the_gpu(compare_hit_sources, *compare, compare_context);
    }
    std::uint32_t ww = 0, wh = 0;
    parse_dimensions((*vm)["window"].as<std::string>(), "--window", ww, wh);
    if (ww < 640 || wh < 480 || ww > 8192 || wh > 8192) throw InputError("--window: between 640x480 and 8192x8192");
    const int frames = (*vm)["frames"].as<int>();
    if (frames < 1) throw InputError("--frames: at least 1");
    const std::string screenshot = vm->count("screenshot") ? (*vm)["screenshot"].as<std::string>() : "";
    const bool auto_motion = (*vm)["auto-motion"].as<bool>();
    // No limit: infinity (an interactive session without --max-seconds).
    const double max_seconds = vm->count("max-seconds") ? (*vm)["max-seconds"].as<double>()
                               : screenshot.empty()     ? std::numeric_limits<double>::infinity()
                                                        : 120.0;
    if (!(max_seconds > 0)) throw InputError("--max-seconds: a positive number of seconds");
    std::vector<gui::ScriptedEvent> script;
    if (vm->count("script")) {
        const std::string path = (*vm)["script"].as<std::string>();
        if (path.empty()) throw InputError("--script: empty file name");
        std::ifstream in(path, std::ios::binary);
        if (!in) throw InputError("--script: cannot read '" + path + "'");
        std::ostringstream text;
        text << in.rdbuf();
        script = gui::parse_input_script(text.str(), path);
    }
    check_gui_outputs(*vm, script, inputs);
    const int last_scripted_frame = script.empty() ? -1 : std::max_element(script.begin(), script.end(), [](const auto& a, const auto& b) {
                                                              return a.frame < b.frame;
                                                          })->frame;
    const std::string tab = (*vm)["tab"].as<std::string>();
    if (tab != "stats" && tab != "contents" && tab != "chart")
        throw InputError("--tab: expected stats, contents or chart, not '" + tab + "'" + case_hint(tab, {"stats", "contents", "chart"}));
    const viz::AggregateRule rule =
        cli::option_choice<viz::AggregateRule>(viz::kAggregateChoices, "aggregate", (*vm)["aggregate"].as<std::string>());
    const viz::TimeDiagramStyle::ColourBy colour_by = cli::option_choice<viz::TimeDiagramStyle::ColourBy>(
        viz::kColourByChoices, "colour-by", (*vm)["colour-by"].as<std::string>());
    // The thread model records neither SMs nor who brought a line, as in `cachesim diagram`.
    if (first_pane.model != cli::ModelKind::gpu) {
        if (colour_by == viz::TimeDiagramStyle::ColourBy::sm)
            throw InputError("--colour-by sm: needs --model gpu or --start-gpu (the thread model has no SMs)");
        if (colour_by == viz::TimeDiagramStyle::ColourBy::hit_source)
            throw InputError("--colour-by source: needs --model gpu or --start-gpu (the thread model has no warps or blocks)");
    }
    const viz::TimeDiagramStyle::Strip miss_rate =
        cli::option_choice(viz::kMissRateOnOffChoices, "miss-rate", (*vm)["miss-rate"].as<std::string>());

    gui::StartView start_view;
    start_view.playhead = (*vm)["playhead"].as<std::uint64_t>();
    if (vm->count("zoom")) start_view.zoom_steps = parse_range((*vm)["zoom"].as<std::string>(), "--zoom");
    if (vm->count("zoom-lines")) start_view.zoom_lines = parse_range((*vm)["zoom-lines"].as<std::string>(), "--zoom-lines");
    // The thread model's steps are known before it runs: where every pane runs it, its steps are
    // checked before any window opens (the axis spans the longer pane); the rest once the runs
    // have ended (in the frame loop).
    const bool steps_known = first_pane.model == cli::ModelKind::thread &&
                             (!compare || compare->model == cli::ModelKind::thread);
    if (steps_known) {
        std::uint64_t thread_steps = gui::thread_model_steps(first_pane.workload, first_pane.trace.get());
        if (compare) thread_steps = std::max(thread_steps, gui::thread_model_steps(compare->workload, compare->trace.get()));
        if (const std::string refused = gui::start_view_error(start_view, thread_steps, std::nullopt); !refused.empty())
            throw InputError(refused);
    }

    gui::AppOptions app_options;
    app_options.max_cells = (*vm)["max-cells"].as<std::uint64_t>();
    if (app_options.max_cells < 1024) throw InputError("--max-cells: at least 1024");
    app_options.detail.max_cells = (*vm)["detail-cells"].as<std::uint64_t>();
    app_options.zoom_steps = start_view.zoom_steps;
    app_options.zoom_lines = start_view.zoom_lines;
    app_options.bottom_tab = tab;
    app_options.aggregate = rule;
    app_options.colour_by = colour_by;
    app_options.miss_rate_strip = miss_rate == viz::TimeDiagramStyle::Strip::on;
    app_options.save_path = (*vm)["save-png"].as<std::string>();
    app_options.playhead = start_view.playhead;

    // Without a display SFML would abort: say what is missing instead. The connection stays open
    // until the window has its own (an X server with no clients left resets, and would refuse
    // SFML's connection meanwhile).
    Display* display = XOpenDisplay(nullptr);
    if (!display) {
        const char* name = std::getenv("DISPLAY");
        std::cerr << "cacheviz: error: cannot open the X display" << (name && *name ? std::string(" '") + name + "'" : std::string(" (DISPLAY is not set)"))
                  << "; cacheviz needs a display: run it on a desktop or under xvfb-run, or draw the diagram without one with "
                     "`cachesim diagram`\n";
        return 1;
    }

    // The runs start before the window opens: opening it and setting up OpenGL takes about a
    // second, which a large simulation can use.
    auto owned_app = std::make_unique<gui::App>(first_pane, compare, app_options);
    sf::ContextSettings gl;
    sf::RenderWindow window(sf::VideoMode(ww, wh), "cacheviz", sf::Style::Default, gl);
    XCloseDisplay(display);
    window.setVerticalSyncEnabled(false);
    const unsigned frame_limit = screenshot.empty() && !auto_motion ? 60 : 0;
    window.setFramerateLimit(frame_limit);
    // A screenshot waits for its simulations: the frames drawn meanwhile are never seen, so they
    // come at most kWaitingFrameRate a second and leave the cores to the simulations (a software
    // renderer takes one for itself). Frames being measured are not held back.
    const bool hold_waiting_frames = !screenshot.empty() && !auto_motion && !(*vm)["frame-stats"].as<bool>();
    viz::gui::imgui_init(window);
    if (!script.empty()) viz::gui::imgui_take_modifiers_from_events_only();
    ImGui::StyleColorsLight();
    int exit_code = 0;
    // Why the start view was refused once the runs' extent was known (then nothing is written).
    std::string start_view_refused;
    {
        gui::App& app = *owned_app;
        bool start_view_checked = false;
        FrameStats stats;
        sf::Clock clock;
        const auto start = std::chrono::steady_clock::now();
        int frame = 0, script_frame = 0;
        bool idle_before = false;
        bool running = true;
        while (running && window.isOpen()) {
            const auto t0 = std::chrono::steady_clock::now();
            // The script's clock stops at an `idle` line while simulations run.
            std::vector<std::string> snapshots;
            const bool hold = std::any_of(script.begin(), script.end(), [&](const gui::ScriptedEvent& se) {
                return se.frame == script_frame && se.kind == gui::ScriptedEvent::Kind::idle;
            }) && app.busy();
            if (!hold) {
                for (const gui::ScriptedEvent& se : script) {
                    if (se.frame != script_frame) continue;
                    if (se.kind == gui::ScriptedEvent::Kind::event) viz::gui::imgui_process_event(se.event);
                    if (se.kind == gui::ScriptedEvent::Kind::snapshot) snapshots.push_back(se.path);
                }
                ++script_frame;
            }
            sf::Event e;
            while (window.pollEvent(e)) {
                if (e.type == sf::Event::Closed) running = false;
                viz::gui::imgui_process_event(e);
            }
            const bool busy = app.busy();
            viz::gui::imgui_new_frame(window, clock.restart().asSeconds());
            if (auto_motion) app.auto_motion(frame);
            app.frame(ImGui::GetIO().DeltaTime);
            if (!start_view_checked) {
                if (const auto extent = app.run_extent()) {
                    start_view_checked = true;
                    start_view_refused = gui::start_view_error(start_view, extent->steps, extent->rows);
                    if (!start_view_refused.empty()) running = false;
                }
            }
            ImGui::Render();  // closes the frame: everything up to here is our CPU work
            const auto t_built = std::chrono::steady_clock::now();
            window.clear(sf::Color(240, 240, 240));
            viz::gui::imgui_render(window);
            ++frame;
            // A frame after the results arrived: ImGui applies some layout (scrolling) a frame late.
            const bool idle = !app.busy();
            const bool capture = !screenshot.empty() && start_view_refused.empty() && frame >= frames &&
                                 script_frame > last_scripted_frame && !viz::gui::imgui_input_pending() && idle && idle_before;
            idle_before = idle;
            const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            // --screenshot: give up waiting for simulations (the frames themselves always end);
            // otherwise the session ends.
            if (running && waited > max_seconds && !capture && (screenshot.empty() || !idle)) {
                if (!screenshot.empty()) {
                    std::cerr << "cacheviz: simulations still running after " << max_seconds << " s (--max-seconds); no screenshot\n";
                    exit_code = 1;
                } else {
                    std::cout << "cacheviz: --max-seconds " << max_seconds << " reached; exiting\n";
                }
                running = false;
            }
            if (app.quit_requested()) running = false;
            // The back buffer holds the frame just rendered: Ctrl+S and --screenshot save it.
            const auto window_png = [&] {
                sf::Texture grab;
                grab.create(window.getSize().x, window.getSize().y);
                grab.update(window);
                const sf::Image img = grab.copyToImage();
                viz::Canvas canvas(static_cast<int>(img.getSize().x), static_cast<int>(img.getSize().y));
                std::copy(img.getPixelsPtr(), img.getPixelsPtr() + canvas.size_bytes(), canvas.data());
                for (std::size_t i = 3; i < canvas.size_bytes(); i += 4) canvas.data()[i] = 255;  // opaque window
                return viz::encode_png(canvas);
            };
            if (const std::string save = app.take_save_request(); !save.empty())
                app.saved(save_window(save, (*vm)["save-png"].defaulted(), inputs, window_png));
            for (const std::string& path : snapshots) {
                cli::write_file_atomically(path + ".png", window_png());
                cli::write_file_atomically(path + ".txt", app.state_text());
            }
            if (capture) {
                cli::write_file_atomically(screenshot, window_png());
                if (vm->count("layout")) {
                    // Per pane (B's keys end in _b): where the diagram was drawn, the coarse base
                    // cell, and the full-resolution window drawn over it (deep zoom), if any.
                    std::string text;
                    for (int i = 0; i < (app.comparing() ? 2 : 1); ++i) {
                        const gui::App::Placement& p = app.placement(i);
                        const char* suffix = i == 0 ? "" : "_b";
                        char buf[512];
                        std::snprintf(buf, sizeof buf, "diagram%s %.1f %.1f %.1f %.1f %.3f %.3f %.3f %.3f\ncell%s %llu %llu\n", suffix,
                                      p.x, p.y, p.w, p.h, p.t0, p.t1, p.r0, p.r1, suffix,
                                      static_cast<unsigned long long>(p.steps_per_column),
                                      static_cast<unsigned long long>(p.rows_per_bucket));
                        text += buf;
                        if (p.detail) {
                            std::snprintf(buf, sizeof buf, "detail%s %llu %llu %llu %llu\n", suffix,
                                          static_cast<unsigned long long>(p.detail->first_step),
                                          static_cast<unsigned long long>(p.detail->steps),
                                          static_cast<unsigned long long>(p.detail->first_row),
                                          static_cast<unsigned long long>(p.detail->rows));
                            text += buf;
                        }
                    }
                    cli::write_file_atomically((*vm)["layout"].as<std::string>(), text);
                }
                if (vm->count("state")) cli::write_file_atomically((*vm)["state"].as<std::string>(), app.state_text());
                (cli::writes_to_stdout(screenshot) ? std::cerr : std::cout)
                    << "wrote " << screenshot << " after " << frame << " frames\n";
                running = false;
            }
            if (hold_waiting_frames) {
                const bool only_waiting = frame >= frames && (script_frame > last_scripted_frame || hold) && app.busy();
                window.setFramerateLimit(only_waiting ? kWaitingFrameRate : frame_limit);
            }
            window.display();
            const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            stats.all_ms.push_back(ms);
            stats.build_ms.push_back(std::chrono::duration<double, std::milli>(t_built - t0).count());
            stats.render_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t_built).count());
            if (busy) stats.busy_ms.push_back(ms);
            stats.texels += app.texels_written_last_frame();
            if (auto_motion && screenshot.empty() && frame >= frames) running = false;
        }
        if (vm->count("state") && screenshot.empty() && start_view_refused.empty())
            cli::write_file_atomically((*vm)["state"].as<std::string>(), app.state_text());
        if ((*vm)["frame-stats"].as<bool>()) {
            // Which OpenGL implementation drew the frames: a GPU driver or a software rasteriser.
            window.setActive(true);
            const auto gl_string = [](GLenum name) {
                const GLubyte* s = glGetString(name);
                return s ? std::string(reinterpret_cast<const char*>(s)) : std::string("unknown");
            };
            std::cout << "OpenGL: " << gl_string(GL_VENDOR) << " | " << gl_string(GL_RENDERER) << " | "
                      << gl_string(GL_VERSION) << "\n";
            stats.print(std::cout, app.visible_cells());
        }
        // Simulations still running were given up, and a cancelled one can run on for seconds:
        // the App, whose jobs would wait for them, is left to the process's end (main).
        if (gui::running_job_threads > 0) static_cast<void>(owned_app.release());
        owned_app.reset();  // before the window and ImGui go
    }
    viz::gui::imgui_shutdown();
    window.close();
    if (!start_view_refused.empty()) throw InputError(start_view_refused);
    return exit_code;
}

}  // namespace

int main(int argc, char** argv) {
    const int code = cli::guarded("cacheviz", [&] { return run(argc, argv); });
    // Jobs given up at exit may still run: end without waiting for them, and without running
    // static destructors under them. Every output file is complete by now (written whole or not
    // at all); the standard streams are flushed here.
    if (cachesim::gui::running_job_threads > 0) {
        std::fflush(nullptr);
        std::_Exit(code);
    }
    return code;
}
