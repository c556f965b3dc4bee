// Deep zoom (cacheviz): a window of steps and lines recorded at full resolution equals the same
// cells of a full-resolution recording of the whole run, for the thread model and the GPU model,
// and the coarse diagram's cells are the aggregates of the window's.
#include <gtest/gtest.h>

#include <atomic>
#include <optional>

#include "sim/gpu/gpu_model.hpp"
#include "tests/viz_thesis_run.hpp"
#include "traces/workload_source.hpp"
#include "viz/detail_window.hpp"
#include "viz/record.hpp"

using namespace cachesim;
using namespace cachesim::viz;
using cachesim::viz::testing::full_resolution;
using cachesim::viz::testing::record;
using cachesim::viz::testing::thesis_cache;
using cachesim::viz::testing::thesis_stencil;

namespace {

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
    // Hand-checked (viz_gui_test): out[6][4..7] is line 25 of `out` (row 89), written at step 100;
    // the thesis L1 does not allocate on stores, so the store is no L1 hit.
    const RecordedRun one = record_window(w, h, {100, 1, 89, 1});
    EXPECT_EQ(one.diagram.at_step(100, 89), CellState::stored);
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
    // Step 100 writes out line 25 (row 89), past the L1 (no allocation on stores); the coarse
    // cell (steps 96-111) is `stored` at step 99 too, where the exact cell is not.
    EXPECT_EQ(coarse.diagram.at_step(99, 89), CellState::stored);
    const ShownCell at99 = shown_cell(coarse.diagram, &part.diagram, 99, 89);
    EXPECT_TRUE(at99.exact);
    EXPECT_EQ(at99.state, full.diagram.at_step(99, 89));
    EXPECT_NE(at99.state, CellState::stored);
    EXPECT_EQ(shown_cell(coarse.diagram, &part.diagram, 100, 89).state, CellState::stored);
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
