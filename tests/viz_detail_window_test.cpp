// Deep zoom (cacheviz): a window of steps and lines recorded at full resolution equals the same
// cells of a full-resolution recording of the whole run; the rules choosing the window; and the
// GUI started zoomed deep shows single steps (under xvfb-run; the suite name VizGui* lets the
// sanitizer run skip leak checks for the OpenGL driver, as for the other GUI tests).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "sim/gpu/gpu_model.hpp"
#include "tests/viz_gui_util.hpp"
#include "traces/workload_source.hpp"
#include "viz/canvas.hpp"
#include "viz/detail_window.hpp"
#include "viz/record.hpp"

using namespace cachesim;
using namespace cachesim::viz;

namespace {

// Table 3.1 (the `thesis-stencil` preset): 7x7 stencil on 16x16, one fully associative LRU L1
// of 24 lines of 16 B, write-through no-allocate, no L2. 256 steps; rows: 64 lines of `in`, 64
// of `out`.
WorkloadSpec thesis_stencil(Schedule schedule = {}) {
    WorkloadSpec w;
    w.schedule = schedule;
    return w;
}
HierarchyConfig thesis_cache() {
    HierarchyConfig h;
    h.l1.size_bytes = 384;
    h.l1.line_bytes = 16;
    return h;
}

RecordedRun record(const WorkloadSpec& w, const HierarchyConfig& h, const RecorderOptions& options,
                   const RunControl& control = {}) {
    WorkloadSource source(w);
    return record_thread_model(source, h, options, w, control);
}

// A full-resolution recording of the whole run.
RecorderOptions full_resolution() {
    RecorderOptions o;
    o.max_cells = std::uint64_t{1} << 26;
    o.max_rows = std::uint64_t{1} << 20;
    return o;
}

// The window as cacheviz records it: one step x one line per cell, stopping after the window.
RecordedRun record_window(const WorkloadSpec& w, const HierarchyConfig& h, const DetailWindow& window) {
    std::atomic<bool> stop{false};
    RecorderOptions o = detail_recorder_options(window);
    o.stop_when_recorded = &stop;
    RunControl control;
    control.cancel = &stop;
    return record(w, h, o, control);
}

// Every cell of the window agrees with the full recording; the window's diagram has exactly
// the window's extent at one step x one line per cell. Returns the cells compared.
std::uint64_t expect_window_equals(const Diagram& full, const Diagram& win, const DetailWindow& w) {
    EXPECT_TRUE(win.exact());
    EXPECT_EQ(win.first_step(), w.first_step);
    EXPECT_EQ(win.steps(), w.steps);
    EXPECT_EQ(win.first_row(), w.first_row);
    EXPECT_EQ(win.recorded_rows(), w.rows);
    EXPECT_EQ(win.rows(), full.rows());  // the layout is the whole run's
    EXPECT_EQ(win.level(0, 0).columns(), w.steps);
    EXPECT_EQ(win.level(0, 0).rows(), w.rows);
    std::uint64_t compared = 0, differing = 0;
    for (std::uint64_t t = w.first_step; t < w.step_end(); ++t)
        for (std::uint64_t r = w.first_row; r < w.row_end(); ++r) {
            differing += win.at_step(t, r) != full.at_step(t, r);
            ++compared;
        }
    EXPECT_EQ(differing, 0u) << "window " << w.first_step << "+" << w.steps << " x " << w.first_row << "+" << w.rows;
    return compared;
}

}  // namespace

// The thesis stencil: windows inside the run, at its start, and at its end. (Its 12,544 accesses
// are one batch of the thread model, which checks for a stop between batches: it runs to the end.)
TEST(VizDetailWindow, WindowEqualsFullRecordingThesisStencil) {
    const WorkloadSpec w = thesis_stencil();
    const HierarchyConfig h = thesis_cache();
    const RecordedRun full = record(w, h, full_resolution());
    ASSERT_TRUE(full.diagram.exact());
    ASSERT_EQ(full.diagram.steps(), 256u);
    ASSERT_EQ(full.diagram.rows(), 128u);
    for (const DetailWindow& win : {DetailWindow{96, 32, 0, 128}, DetailWindow{37, 50, 5, 70}, DetailWindow{0, 10, 60, 8},
                                    DetailWindow{236, 20, 121, 7}, DetailWindow{100, 1, 89, 1}}) {
        const RecordedRun part = record_window(w, h, win);
        EXPECT_EQ(expect_window_equals(full.diagram, part.diagram, win), win.cells());
    }
    // Hand-checked (viz_gui_test): out[6][4..7] is line 25 of `out` (row 89), written at step 100.
    const RecordedRun one = record_window(w, h, {100, 1, 89, 1});
    EXPECT_EQ(one.diagram.at_step(100, 89), CellState::accessed);
    EXPECT_EQ(one.diagram.at_step(100, 88), CellState::not_cached);  // outside the window of lines
}

// L1 and L2 of different line sizes (an L2 line covers 4 rows, some outside the window), a
// write-allocate L1, set associativity and a column schedule; and a matmul.
TEST(VizDetailWindow, WindowEqualsFullRecordingWithL2) {
    WorkloadSpec w = thesis_stencil(parse_schedule("column:4"));
    w.width = 24;
    w.height = 20;
    w.stencil_w = w.stencil_h = 5;
    HierarchyConfig h;
    h.l1.size_bytes = 512;
    h.l1.line_bytes = 16;
    h.l1.ways = 2;
    h.l1.write_policy = WritePolicy::write_back_allocate;
    h.l2.size_bytes = 2048;
    h.l2.line_bytes = 64;
    h.l2.ways = 4;
    const RecordedRun full = record(w, h, full_resolution());
    ASSERT_EQ(full.diagram.steps(), 480u);
    ASSERT_EQ(full.diagram.rows(), 240u);  // 24 x 20 x 4 B / 16 B per array
    std::uint64_t from_l2 = 0;
    for (std::uint64_t t = 0; t < 480; ++t)
        for (std::uint64_t r = 0; r < 240; ++r) from_l2 += full.diagram.at_step(t, r) == CellState::fetched_from_l2;
    ASSERT_GT(from_l2, 0u);  // the windows see L2's part
    for (const DetailWindow& win : {DetailWindow{200, 90, 6, 101}, DetailWindow{0, 480, 119, 3}, DetailWindow{479, 1, 0, 240}}) {
        const RecordedRun part = record_window(w, h, win);
        expect_window_equals(full.diagram, part.diagram, win);
    }

    WorkloadSpec m;
    m.kind = WorkloadKind::matmul;
    m.width = m.height = m.depth = 12;
    const RecordedRun mfull = record(m, h, full_resolution());
    for (const DetailWindow& win : {DetailWindow{30, 40, 10, 50}, DetailWindow{100, 44, 0, mfull.diagram.rows()}})
        expect_window_equals(mfull.diagram, record_window(m, h, win).diagram, win);
}

// The GPU model: a step is a scheduling round; its window stops after the window's last round.
TEST(VizDetailWindow, WindowEqualsFullRecordingGpuModel) {
    WorkloadSpec w = thesis_stencil();
    w.width = w.height = 32;
    w.stencil_w = w.stencil_h = 3;
    GpuConfig g;
    g.sms = 2;
    g.block = 64;
    g.l1_auto = false;
    g.l1.size_bytes = 1024;
    g.l2.size_bytes = 4096;
    g.l2_partitions = 1;
    GpuResult gpu;
    const RecordedRun full = record_gpu_model(w, g, full_resolution(), {}, &gpu);
    ASSERT_TRUE(full.diagram.exact());
    ASSERT_EQ(full.diagram.steps(), gpu.rounds);
    ASSERT_GT(gpu.rounds, 60u);
    const std::uint64_t rows = full.diagram.rows();
    for (const DetailWindow& win : {DetailWindow{10, 40, 2, rows - 4}, DetailWindow{gpu.rounds - 5, 5, 0, rows}}) {
        std::atomic<bool> stop{false};
        RecorderOptions o = detail_recorder_options(win);
        o.stop_when_recorded = &stop;
        RunControl control;
        control.cancel = &stop;
        const RecordedRun part = record_gpu_model(w, g, o, control);
        // Rounds are checked one by one: the run stops right after the window's last round (even
        // the run's last round).
        EXPECT_TRUE(part.stopped_after_window);
        expect_window_equals(full.diagram, part.diagram, win);
    }
}

// A cancel raised before the window is recorded is the caller's: it propagates.
TEST(VizDetailWindow, CancelBeforeTheWindowPropagates) {
    std::atomic<bool> stop{true};
    RecorderOptions o = detail_recorder_options({100, 10, 0, 128});
    o.stop_when_recorded = &stop;
    RunControl control;
    control.cancel = &stop;
    EXPECT_THROW(record(thesis_stencil(), thesis_cache(), o, control), Cancelled);
}

// A long run's coarse diagram (64 steps x 8 lines per base cell) and a window of it at full
// resolution: each coarse cell inside the window is the aggregate of the window's exact cells,
// which equal the full recording's.
TEST(VizDetailWindow, CoarseCellsAggregateTheWindow) {
    WorkloadSpec w = thesis_stencil();
    w.width = w.height = 64;
    w.stencil_w = w.stencil_h = 3;
    HierarchyConfig h;
    h.l1.size_bytes = 1024;
    h.l1.line_bytes = 16;
    RecorderOptions coarse_options;
    coarse_options.max_cells = std::uint64_t{1} << 14;
    coarse_options.max_rows = 256;
    const RecordedRun coarse = record(w, h, coarse_options);
    ASSERT_EQ(coarse.diagram.rows(), 2048u);  // 1,024 lines per array
    ASSERT_EQ(coarse.diagram.rows_per_bucket(), 8u);
    ASSERT_EQ(coarse.diagram.steps_per_column(), 64u);  // 4,096 steps over 16,384 / 256 columns
    const RecordedRun full = record(w, h, full_resolution());

    // The view: steps 1,000-1,200 and lines 100-300 on 800 x 400 pixels, finer than the cells.
    const ViewExtent view{1000, 1200, 100, 300, 800, 400};
    ASSERT_TRUE(needs_detail(coarse.diagram, view));
    const std::optional<DetailWindow> win = choose_detail_window(view, 4096, 2048);
    ASSERT_TRUE(win);
    EXPECT_EQ(*win, (DetailWindow{900, 400, 0, 400}));  // margin 100 each side; lines clipped at 0
    const RecordedRun part = record_window(w, h, *win);
    // 1,300 steps x 10 accesses end inside the first batch of 16,384: the run stops after it.
    EXPECT_TRUE(part.stopped_after_window);
    EXPECT_TRUE(part.result.levels.empty());  // no counters for a stopped run
    expect_window_equals(full.diagram, part.diagram, *win);
    int checked = 0;
    for (std::uint64_t c = 15; c < 20; ++c)       // base columns 15-19: steps 960-1,279
        for (std::uint64_t b = 0; b < 50; ++b) {  // base rows 0-49: lines 0-399
            CellState agg = CellState::not_cached;
            for (std::uint64_t t = c * 64; t < (c + 1) * 64; ++t)
                for (std::uint64_t r = b * 8; r < (b + 1) * 8; ++r) agg = combine(agg, part.diagram.at_step(t, r));
            EXPECT_EQ(coarse.diagram.level(0, 0).get(c, b), agg) << "column " << c << " bucket " << b;
            ++checked;
        }
    EXPECT_EQ(checked, 250);
}

// The tooltip's cell: the window's exact state inside it, the coarse base cell outside.
TEST(VizDetailWindow, ShownCellIsExactInsideTheWindow) {
    const WorkloadSpec w = thesis_stencil();
    const RecordedRun full = record(w, thesis_cache(), full_resolution());
    RecorderOptions coarse_options;
    coarse_options.max_cells = 2048;  // 16 steps per base cell
    const RecordedRun coarse = record(w, thesis_cache(), coarse_options);
    ASSERT_EQ(coarse.diagram.steps_per_column(), 16u);
    const DetailWindow win{64, 96, 0, 128};
    const RecordedRun part = record_window(w, thesis_cache(), win);
    // Step 100 writes out line 25 (row 89); the coarse cell (steps 96-111) is `accessed` at
    // step 99 too, where the exact cell is not.
    EXPECT_EQ(coarse.diagram.at_step(99, 89), CellState::accessed);
    const ShownCell at99 = shown_cell(coarse.diagram, &part.diagram, 99, 89);
    EXPECT_TRUE(at99.exact);
    EXPECT_EQ(at99.state, full.diagram.at_step(99, 89));
    EXPECT_NE(at99.state, CellState::accessed);
    EXPECT_EQ(shown_cell(coarse.diagram, &part.diagram, 100, 89).state, CellState::accessed);
    // Outside the window (step 200): the coarse cell, not exact; without a window likewise.
    const ShownCell outside = shown_cell(coarse.diagram, &part.diagram, 200, 89);
    EXPECT_FALSE(outside.exact);
    EXPECT_EQ(outside.state, coarse.diagram.at_step(200, 89));
    EXPECT_FALSE(shown_cell(coarse.diagram, nullptr, 99, 89).exact);
    EXPECT_TRUE(shown_cell(full.diagram, nullptr, 99, 89).exact);  // an exact run is exact everywhere
    int differing = 0;
    for (std::uint64_t t = 64; t < 160; ++t)
        for (std::uint64_t r = 0; r < 128; ++r) differing += shown_cell(coarse.diagram, &part.diagram, t, r).state != full.diagram.at_step(t, r);
    EXPECT_EQ(differing, 0);
}

// When the coarse cells are coarser than the view.
TEST(VizDetailWindow, NeedsDetailWhenABaseCellSpansMoreThanAPixel) {
    const std::vector<ArrayInfo> arrays = {{"a", 0, 4, 64, 64}};  // 1,024 lines of 16 B
    const RowLayout layout(arrays, 16);
    const Diagram coarse(layout, CellGrid(64, 128), 0, 4096, 64, 8);  // 64 steps x 8 lines per cell
    const Diagram time_only(layout, CellGrid(64, 1024), 0, 4096, 64, 1);
    const Diagram exact(layout, CellGrid(4096, 1024), 0, 4096, 1, 1);
    // The whole run on 1,000 x 500 pixels: 4.1 steps and 2.05 lines per pixel, below 64 and 8.
    EXPECT_TRUE(needs_detail(coarse, {0, 4096, 0, 1024, 1000, 500}));
    // 6,400 steps over 100 pixels = 64 per pixel (not below) and 80 lines over 10 = 8: coarse.
    EXPECT_FALSE(needs_detail(coarse, {0, 6400, 0, 80, 100, 10}));
    EXPECT_TRUE(needs_detail(coarse, {0, 6399, 0, 80, 100, 10}));  // time: 63.99 per pixel
    EXPECT_TRUE(needs_detail(coarse, {0, 6400, 0, 79, 100, 10}));  // lines: 7.9 per pixel
    // A cell of one line never asks for lines; an exact diagram never asks.
    EXPECT_FALSE(needs_detail(time_only, {0, 6400, 0, 10, 100, 10}));
    EXPECT_FALSE(needs_detail(exact, {0, 10, 0, 10, 1000, 1000}));
}

TEST(VizDetailWindow, VisibleWindowTakesPartlyVisibleCells) {
    EXPECT_EQ(visible_window({10.5, 20.2, 3.9, 4.1, 100, 100}, 1000, 50), (DetailWindow{10, 11, 3, 2}));
    EXPECT_EQ(visible_window({-5, 30, 40, 70, 100, 100}, 1000, 50), (DetailWindow{0, 30, 40, 10}));  // clipped to the run
    EXPECT_TRUE(visible_window({2000, 3000, 0, 1, 100, 100}, 1000, 50).empty());
}

// The margin: half the visible span on each side, at least 32 steps / lines; clipped to the
// run; shrunk by halves until the window fits the budget; nothing when the visible cells alone
// exceed it.
TEST(VizDetailWindow, ChooseWindowMarginAndBudget) {
    const ViewExtent view{1000, 1100, 200, 300, 800, 600};  // 100 x 100 visible cells
    EXPECT_EQ(choose_detail_window(view, 100000, 5000), (DetailWindow{950, 200, 150, 200}));
    // Small spans get the 32-cell minimum: 10 steps -> 32 on each side.
    EXPECT_EQ(choose_detail_window({500, 510, 200, 300, 800, 600}, 100000, 5000), (DetailWindow{468, 74, 150, 200}));
    // At the run's start and end the margin is cut off.
    EXPECT_EQ(choose_detail_window({0, 100, 4900, 5000, 800, 600}, 100000, 5000), (DetailWindow{0, 150, 4850, 150}));
    DetailPolicy p;
    p.max_cells = 20000;  // 200 x 200 = 40,000 no; margin 25: 150 x 150 = 22,500 no; margin 13: 126 x 126 = 15,876
    EXPECT_EQ(choose_detail_window(view, 100000, 5000, p), (DetailWindow{987, 126, 187, 126}));
    p.max_cells = 10000;  // exactly the visible cells: no margin left
    EXPECT_EQ(choose_detail_window(view, 100000, 5000, p), (DetailWindow{1000, 100, 200, 100}));
    p.max_cells = 9999;  // the visible cells alone are too many: stay coarse
    EXPECT_FALSE(choose_detail_window(view, 100000, 5000, p));
    p.max_cells = 0;  // off
    EXPECT_FALSE(choose_detail_window(view, 100000, 5000, p));
    // The default budget, 2^24 cells: a view of 4,096 x 4,096 lines fits (no margin), 4,097 x 4,096 does not.
    EXPECT_EQ(choose_detail_window({0, 4096, 0, 4096, 800, 600}, 4096, 4096), (DetailWindow{0, 4096, 0, 4096}));
    EXPECT_FALSE(choose_detail_window({0, 4097, 0, 4096, 800, 600}, 8192, 4096));
}

// Small pans stay inside the window (no new recording); a larger one leaves it but still
// overlaps (the old window is drawn until the new one is ready); a far one does not overlap.
TEST(VizDetailWindow, CoversAndOverlaps) {
    const DetailWindow w{950, 200, 150, 200};  // chosen for steps 1,000-1,100, lines 200-300
    auto at = [](double t0, double r0) { return ViewExtent{t0, t0 + 100, r0, r0 + 100, 800, 600}; };
    EXPECT_TRUE(covers(w, at(1000, 200), 100000, 5000));
    EXPECT_TRUE(covers(w, at(1050, 250), 100000, 5000));   // 1,050-1,150 x 250-350: the edges
    EXPECT_FALSE(covers(w, at(1050.5, 200), 100000, 5000));  // step 1,150 partly visible
    EXPECT_TRUE(overlaps(w, at(1050.5, 200), 100000, 5000));
    EXPECT_FALSE(covers(w, at(940, 200), 100000, 5000));
    EXPECT_FALSE(overlaps(w, at(2000, 200), 100000, 5000));
    EXPECT_FALSE(overlaps(w, at(1000, 350), 100000, 5000));  // lines 350-450 just below it
}

TEST(VizDetailWindow, RecorderOptionsAreOneStepByOneLine) {
    const RecorderOptions o = detail_recorder_options({900, 400, 16, 3000});
    EXPECT_EQ(o.first_step, 900u);
    EXPECT_EQ(o.window_steps, 400u);
    EXPECT_EQ(o.first_row, 16u);
    EXPECT_EQ(o.window_rows, 3000u);
    EXPECT_EQ(o.max_rows, 3000u);
    EXPECT_EQ(o.max_cells, 1200000u);
}

// cacheviz started zoomed into steps 96-128 of the thesis stencil whose diagram was recorded with
// 16 steps per base cell (--max-cells 2048): both panes of compare mode show the window at one
// step per cell, every cell as in the exact diagram, where the coarse cells would differ.
TEST(VizGuiDeepZoom, ZoomedInPastTheBaseCellsShowsSingleSteps) {
#ifdef CACHEVIZ_BIN
    const std::string bin = CACHEVIZ_BIN;
#else
    GTEST_SKIP() << "cacheviz is not built (SFML, ImGui or OpenGL missing)";
    const std::string bin;
#endif
    ASSERT_EQ(std::system("command -v xvfb-run >/dev/null"), 0) << "xvfb-run is missing (scripts/setup.sh installs xvfb)";
    namespace vt = cachesim::viz::testing;
    const auto dir = std::filesystem::temp_directory_path() / ("cacheviz-zoom-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto png = dir / "zoom.png", layout = dir / "layout.txt", log = dir / "log.txt";
    const int code = vt::run_under_xvfb(bin,
                                        "--preset thesis-stencil --compare '--schedule column:4' --max-cells 2048 --zoom 96:128"
                                        " --window 1400x800 --frames 3 --screenshot '" + png.string() + "' --layout '" +
                                            layout.string() + "'",
                                        log);
    ASSERT_EQ(code, 0) << vt::read_file(log);
    const Canvas shot = decode_png(vt::read_file(png));

    std::istringstream in(vt::read_file(layout));
    std::map<std::string, std::vector<double>> lines;
    for (std::string line; std::getline(in, line);) {
        std::istringstream words(line);
        std::string key;
        words >> key;
        for (double v; words >> v;) lines[key].push_back(v);
    }
    const std::vector<std::pair<std::string, Schedule>> panes = {{"", Schedule{}}, {"_b", parse_schedule("column:4")}};
    for (const auto& [suffix, schedule] : panes) {
        SCOPED_TRACE("pane" + suffix);
        const std::vector<double>& d = lines["diagram" + suffix];
        ASSERT_EQ(d.size(), 8u);
        const vt::Placement p{d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7]};
        EXPECT_DOUBLE_EQ(p.t0, 96);
        EXPECT_DOUBLE_EQ(p.t1, 128);
        EXPECT_EQ(lines["cell" + suffix], (std::vector<double>{16, 1}));  // the coarse cells: 16 steps
        // The window: the 32 visible steps and 32 more on each side; all 128 lines.
        EXPECT_EQ(lines["detail" + suffix], (std::vector<double>{64, 96, 0, 128}));

        const WorkloadSpec w = thesis_stencil(schedule);
        const RecordedRun exact = record(w, thesis_cache(), full_resolution());
        RecorderOptions coarse_options;
        coarse_options.max_cells = 2048;
        const RecordedRun coarse = record(w, thesis_cache(), coarse_options);
        ASSERT_EQ(coarse.diagram.steps_per_column(), 16u);
        int checked = 0, wrong = 0, coarse_differs = 0;
        for (std::uint64_t t = 96; t < 128; ++t)
            for (std::uint64_t r = 0; r < 128; ++r) {
                if (r == 63 || r == 64) continue;  // the separator line between `in` and `out`
                const CellState s = exact.diagram.at_step(t, r);
                wrong += shot.pixel(p.px(t), p.py(r)) != cell_color(s);
                coarse_differs += coarse.diagram.at_step(t, r) != s;
                ++checked;
            }
        EXPECT_EQ(checked, 32 * 126);
        EXPECT_EQ(wrong, 0);
        EXPECT_GT(coarse_differs, 400);  // the coarse cells would have shown something else
    }
}

// Bad deep-zoom options: one clear message, exit code 2.
TEST(VizGuiDeepZoom, BadZoomOptionsExit2) {
#ifdef CACHEVIZ_BIN
    const std::string bin = CACHEVIZ_BIN;
#else
    GTEST_SKIP() << "cacheviz is not built (SFML, ImGui or OpenGL missing)";
    const std::string bin;
#endif
    namespace vt = cachesim::viz::testing;
    const auto log = std::filesystem::temp_directory_path() / ("cacheviz-zoom-bad-" + std::to_string(::getpid()) + ".txt");
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"--zoom 5", "--zoom: expected FROM:TO (whole numbers), got '5'"},
        {"--zoom 10:5", "--zoom: FROM must be below TO, got '10:5'"},
        {"--zoom 0:257", "--zoom: the run has 256 steps (0:256)"},
        {"--zoom-lines 1:x", "--zoom-lines: expected FROM:TO (whole numbers), got '1:x'"},
        {"--max-cells 1000", "--max-cells: at least 1024"},
    };
    for (const auto& [args, message] : cases) {
        EXPECT_EQ(vt::run_under_xvfb(bin, "--preset thesis-stencil " + args + " --screenshot /tmp/never-written.png", log), 2) << args;
        EXPECT_NE(vt::read_file(log).find(message), std::string::npos) << vt::read_file(log);
    }
}
