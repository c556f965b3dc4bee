// PNG export: decoded pixels at known cells and in the legend, in process and through
// `cachesim diagram`; bad diagram options exit 2 without writing a file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "sim/gpu/gpu_presets.hpp"
#include "tests/cli_util.hpp"
#include "traces/workload_source.hpp"
#include "viz/notes.hpp"
#include "viz/record.hpp"
#include "viz/render.hpp"

using namespace cachesim;
using namespace cachesim::viz;

namespace {

// The hand-worked run of viz_diagram_test (FetchSourceFromL2OrMemory).
RecordedRun small_run() {
    WorkloadSpec w;
    w.width = 8;
    w.height = 1;
    w.stencil_w = 5;
    w.stencil_h = 1;
    HierarchyConfig h;
    h.l1.size_bytes = 16;
    h.l1.line_bytes = 16;
    h.l2.size_bytes = 64;
    h.l2.line_bytes = 16;
    WorkloadSource source(w);
    return record_thread_model(source, h, {}, w);
}

const char* kExpected[4] = {"MAAFFF22", "..MFFFAA", "SSSS2222", "....SSSS"};

CellState from_char(char c) {
    return static_cast<CellState>(std::string_view(".21SFMA").find(c));
}

}  // namespace

TEST(VizPng, DecodedCellsAndLegend) {
    const RecordedRun run = small_run();
    TimeDiagramStyle style;
    style.width = 700;
    style.height = 400;
    style.title = "small";
    const RenderedTimeDiagram r = render_time_diagram(run.diagram, style);
    const Canvas png = decode_png(encode_png(r.image));
    ASSERT_EQ(png.width(), 700);
    ASSERT_EQ(png.height(), 400);
    for (std::uint64_t row = 0; row < 4; ++row)
        for (std::uint64_t t = 0; t < 8; ++t) {
            const int x = r.layout.x_of_step(t), y = r.layout.y_of_row(run.diagram.layout(), row);
            ASSERT_TRUE(r.layout.plot.contains(x, y));
            EXPECT_EQ(png.pixel(x, y), cell_color(from_char(kExpected[row][t]))) << "step " << t << " row " << row;
        }
    ASSERT_EQ(r.layout.legend.size(), static_cast<std::size_t>(kCellStateCount));
    for (std::size_t i = 0; i < r.layout.legend.size(); ++i) {
        const LegendEntry& e = r.layout.legend[i];
        EXPECT_EQ(e.state, kLegendOrder[i]);
        EXPECT_FALSE(r.layout.plot.contains(e.swatch.cx(), e.swatch.cy()));
        EXPECT_EQ(png.pixel(e.swatch.cx(), e.swatch.cy()), cell_color(e.state));
        // The label is drawn right of the swatch: some dark text pixels there.
        int ink = 0;
        for (int x = e.swatch.x + e.swatch.w + 4; x < e.swatch.x + e.swatch.w + 60; ++x)
            for (int y = e.swatch.y; y < e.swatch.y + e.swatch.h; ++y) ink += png.pixel(x, y).r < 128;
        EXPECT_GT(ink, 5) << e.label;
    }
    // The palette's colours are distinct.
    for (int a = 0; a < kCellStateCount; ++a)
        for (int b = a + 1; b < kCellStateCount; ++b)
            EXPECT_NE(cell_color(static_cast<CellState>(a)), cell_color(static_cast<CellState>(b)));
}

TEST(VizPng, ArrayViewCells) {
    WorkloadSpec w;  // thesis Table 3.1
    HierarchyConfig h;
    h.l1.size_bytes = 384;
    h.l1.line_bytes = 16;
    RecorderOptions o;
    o.snapshot_step = 40;
    o.first_step = 40;
    o.window_steps = 1;
    WorkloadSource source(w);
    const RecordedRun run = record_thread_model(source, h, o, w);
    const ArrayView view = make_array_view(run.diagram.layout(), *run.snapshot, w);
    ASSERT_EQ(view.arrays.size(), 2u);
    EXPECT_EQ(*view.work_item, 40u);  // linear: item (8, 2)
    // Item (8, 2) reads x 5..11 of rows 0..5 (row -1 clamps to 0); all hits at this step.
    const ArrayGrid& in = view.arrays[0];
    EXPECT_EQ(in.at(5, 0), CellState::accessed);
    EXPECT_EQ(in.at(11, 5), CellState::accessed);
    EXPECT_EQ(in.at(4, 0), CellState::in_l1);       // same line as x = 5, not read
    EXPECT_EQ(in.at(12, 5), CellState::not_cached);  // line x 12-15 of row 5 not yet read
    EXPECT_EQ(in.at(0, 9), CellState::not_cached);
    EXPECT_EQ(view.arrays[1].at(8, 2), CellState::stored);  // out[2][8] written through the L1
    EXPECT_EQ(view.arrays[1].at(7, 2), CellState::not_cached);

    const RenderedArrayView r = render_array_view(view, {});
    const Canvas png = decode_png(encode_png(r.image));
    for (auto [x, y] : {std::pair{5u, 0u}, {11u, 5u}, {4u, 0u}, {12u, 5u}, {0u, 9u}}) {
        const PixelRect cell = r.layout.cell(0, x, y);
        EXPECT_EQ(png.pixel(cell.cx(), cell.cy()), cell_color(in.at(x, y))) << x << "," << y;
    }
}

TEST(VizPng, CliDiagramMatchesInProcessRendering) {
    const auto out = test::temp_dir() / "thesis.png";
    const auto r = test::run_cachesim("diagram --preset thesis-stencil --width 900 --height 500 --out '" + out.string() + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const Canvas png = decode_png(test::read_file(out));
    ASSERT_EQ(png.width(), 900);
    ASSERT_EQ(png.height(), 500);

    WorkloadSpec w;
    HierarchyConfig h;
    h.l1.size_bytes = 384;
    h.l1.line_bytes = 16;
    WorkloadSource source(w);
    RecorderOptions o;
    o.window_steps = w.items();
    const RecordedRun run = record_thread_model(source, h, o, w);
    TimeDiagramStyle style;
    style.width = 900;
    style.height = 500;
    style.title = w.describe();
    style.notes = run_notes(w, h, run.result);
    const RenderedTimeDiagram expect = render_time_diagram(run.diagram, style);
    // Step 0, item (0, 0), reads x 0..3 of rows 0..3: lines 0, 4, 8, 12 come from memory.
    const RowLayout& rows = run.diagram.layout();
    for (std::uint64_t row : {0u, 4u, 8u, 12u})
        EXPECT_EQ(png.pixel(expect.layout.x_of_step(0), expect.layout.y_of_row(rows, row)),
                  cell_color(CellState::fetched_from_memory));
    EXPECT_EQ(png.pixel(expect.layout.x_of_step(0), expect.layout.y_of_row(rows, 1)), cell_color(CellState::not_cached));
    // `out` line 0 is written at step 0, through the write-through L1: stored, not an L1 hit.
    EXPECT_EQ(png.pixel(expect.layout.x_of_step(0), expect.layout.y_of_row(rows, 64)), cell_color(CellState::stored));
    int differing = 0;
    for (int y = 0; y < 500; ++y)
        for (int x = 0; x < 900; ++x) differing += png.pixel(x, y) != expect.image.pixel(x, y);
    EXPECT_EQ(differing, 0);
}

TEST(VizPng, CliGpuModelDiagramMatchesInProcessRendering) {
    const auto out = test::temp_dir() / "gpu.png";
    // Blocks start at their first turn, so that round 0 is warp 0 of SM 0 (checked below).
    const auto r = test::run_cachesim("diagram --model gpu --preset h200 --sms 2 --block 64 --size 32x32 --stencil 3x3 "
                                      "--block-start-skip 0 --width 900 --height 500 --out '" + out.string() + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const Canvas png = decode_png(test::read_file(out));
    ASSERT_EQ(png.width(), 900);

    WorkloadSpec w;
    w.width = w.height = 32;
    w.stencil_w = w.stencil_h = 3;
    GpuConfig config = with_sms(find_gpu_preset("h200")->config, 2);
    config.block = 64;
    config.block_start_skip = 0;
    config.count_l1_hit_sources = true;  // the legend's split of the L1's hits
    GpuResult gpu;
    const RecordedRun run = record_gpu_model(w, config, RecorderOptions{}, {}, &gpu);
    TimeDiagramStyle style;
    style.width = 900;
    style.height = 500;
    style.title = w.describe() + " (GPU model, block 64)";
    style.time_label = "time step (scheduling rounds: every SM with work issues one request)";
    style.notes = run_notes(w, gpu_hierarchy(config), run.result, {true, 2});
    style.notes.push_back(hit_sources_note(gpu.l1_hit_sources));
    style.memory_chart = gpu_memory_chart(gpu, config);
    const RenderedTimeDiagram expect = render_time_diagram(run.diagram, style);
    // Round 0: warp 0 of SM 0 reads row 0 of `in` (line 0), which comes from memory: a miss
    // colour (red, or the density ramp when pixels aggregate cells).
    const Rgba first = png.pixel(expect.layout.x_of_step(0), expect.layout.y_of_row(run.diagram.layout(), 0));
    if (expect.layout.density) {
        EXPECT_TRUE(first == miss_density_color(0) || first.b < 150 || first.r < 150) << int(first.r) << "," << int(first.g) << "," << int(first.b);
        EXPECT_NE(first, muted_color(CellState::in_l1));
    } else {
        EXPECT_EQ(first, cell_color(CellState::fetched_from_memory));
    }
    int differing = 0;
    for (int y = 0; y < 500; ++y)
        for (int x = 0; x < 900; ++x) differing += png.pixel(x, y) != expect.image.pixel(x, y);
    EXPECT_EQ(differing, 0);
}

TEST(VizPng, TheMemoryChartsWidthMakesRoomForItBesideLongNotes) {
    WorkloadSpec w;
    w.width = w.height = 32;
    w.stencil_w = w.stencil_h = 3;
    const GpuConfig config = with_sms(find_gpu_preset("h200")->config, 2);
    GpuResult gpu;
    const RecordedRun run = record_gpu_model(w, config, RecorderOptions{}, {}, &gpu);
    TimeDiagramStyle style;
    style.memory_chart = gpu_memory_chart(gpu, config);
    style.notes = {std::string(300, 'x')};  // a note wider than a 2000-pixel picture's legend column
    for (const ColourBy by : {ColourBy::state, ColourBy::hit_source}) {
        style.colour_by = by;
        const int needed = time_diagram_width_for_chart(run.diagram, style);
        EXPECT_GT(needed, 2000);
        style.width = needed;
        EXPECT_GT(render_time_diagram(run.diagram, style).layout.memory_chart.w, 0);
        style.width = needed - 2;
        EXPECT_EQ(render_time_diagram(run.diagram, style).layout.memory_chart.w, 0);
    }
    style.memory_chart.reset();
    EXPECT_EQ(time_diagram_width_for_chart(run.diagram, style), 0);
}

TEST(VizPng, CliBadDiagramOptions) {
    const auto out = test::temp_dir() / "never.png";
    const std::string o = " --out '" + out.string() + "'";
    const auto din = test::temp_dir() / "x.din";  // addresses only: no arrays to draw
    std::ofstream(din) << "0 1000\n";
    const std::pair<std::string, std::string> cases[] = {
        {"diagram", "--out FILE.png is required"},
        {"diagram --view sideways" + o, "expected time or array"},
        {"diagram --view array --time 256" + o, "past the last step 255"},
        {"diagram --width 50" + o, "outside 200..16384"},
        {"diagram --from 10 --to 5" + o, "--to: must be after --from"},
        {"diagram --trace '" + din.string() + "'" + o, "x.din: a din trace: it has no array layout to draw"},
        {"diagram --max-cells 10" + o, "at least 1024"},
        {"diagram --out /nonexistent-dir/x.png", "cannot write"},
        {"diagram --model gpu --size 64x64 --view array --time 999999" + o, "past the run's last round"},
        // 16 blocks of 8 warps, one block per SM, 50 requests a warp: 400 rounds
        {"diagram --model gpu --size 64x64 --from 400" + o, "past the run's last step 399"},
        {"diagram --aggregate most" + o, "--aggregate: expected density, any-miss or priority"},
        {"diagram --colour-by sm" + o, "--colour-by sm: needs --model gpu"},
        {"diagram --colour-by source" + o, "--colour-by source: needs --model gpu"},
        {"diagram --colour-by warp --model gpu" + o, "--colour-by: expected state, sm or source"},
        {"diagram --miss-rate maybe" + o, "--miss-rate: expected auto, on or off"},
    };
    for (const auto& [args, message] : cases) {
        const auto r = test::run_cachesim(args);
        EXPECT_EQ(r.exit_code, 2) << args;
        EXPECT_NE(r.err.find(message), std::string::npos) << args << "\n" << r.err;
        EXPECT_FALSE(std::filesystem::exists(out)) << args;
    }
}
