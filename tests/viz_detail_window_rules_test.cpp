// Deep zoom (cacheviz): the rules that choose the window of full-resolution cells for a view
// (when it is needed, its margin and budget, when a pan leaves it) and the recorder options
// for it, on hand-worked extents.
#include <gtest/gtest.h>

#include <vector>

#include "viz/detail_window.hpp"

using namespace cachesim;
using namespace cachesim::viz;

// When the coarse cells are coarser than the view.
TEST(VizDetailWindowRules, NeedsDetailWhenABaseCellSpansMoreThanAPixel) {
    const std::vector<ArrayInfo> arrays = {{"a", 0, 4, 64, 64}};  // 1,024 lines of 16 B
    const RowLayout layout(arrays, 16);
    // 64 steps x 8 lines per cell
    const Diagram coarse(layout, CellGrid(64, 128), 0, 4096, 64, RowBuckets(layout, 0, layout.rows(), 8));
    const Diagram time_only(layout, CellGrid(64, 1024), 0, 4096, 64, RowBuckets(layout, 0, layout.rows(), 1));
    const Diagram exact(layout, CellGrid(4096, 1024), 0, 4096, 1, RowBuckets(layout, 0, layout.rows(), 1));
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

TEST(VizDetailWindowRules, VisibleWindowTakesPartlyVisibleCells) {
    EXPECT_EQ(visible_window({10.5, 20.2, 3.9, 4.1, 100, 100}, 1000, 50), (DetailWindow{10, 11, 3, 2}));
    EXPECT_EQ(visible_window({-5, 30, 40, 70, 100, 100}, 1000, 50), (DetailWindow{0, 30, 40, 10}));  // clipped to the run
    EXPECT_TRUE(visible_window({2000, 3000, 0, 1, 100, 100}, 1000, 50).empty());
}

// The margin: half the visible span on each side, at least 32 steps / lines; clipped to the
// run; shrunk by halves until the window fits the budget; nothing when the visible cells alone
// exceed it.
TEST(VizDetailWindowRules, ChooseWindowMarginAndBudget) {
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
TEST(VizDetailWindowRules, CoversAndOverlaps) {
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

TEST(VizDetailWindowRules, RecorderOptionsAreOneStepByOneLine) {
    const RecorderOptions o = detail_recorder_options({900, 400, 16, 3000});
    EXPECT_EQ(o.first_step, 900u);
    EXPECT_EQ(o.window_steps, 400u);
    EXPECT_EQ(o.first_row, 16u);
    EXPECT_EQ(o.window_rows, 3000u);
    EXPECT_EQ(o.max_rows, 3000u);
    EXPECT_EQ(o.max_cells, 1200000u);
}
