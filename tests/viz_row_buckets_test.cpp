// Lines that share a base row of a coarse diagram belong to one array: each array's lines start a
// row of their own, so one array's accesses never colour another's.
#include <gtest/gtest.h>

#include <vector>

#include "viz/diagram_recorder.hpp"
#include "viz/render.hpp"
#include "viz/row_buckets.hpp"

using namespace cachesim;
using namespace cachesim::viz;

namespace {

// Two arrays of 128-byte lines: A is lines 0-4 (rows 0-4), B starts at byte 640, lines 5-9
// (rows 5-9).
std::vector<ArrayInfo> two_arrays() {
    ArrayInfo a;
    a.name = "A";
    a.base = 0;
    a.elem_bytes = 4;
    a.width = 160;
    a.height = 1;
    ArrayInfo b = a;
    b.name = "B";
    b.base = 640;
    return {a, b};
}

HierarchyConfig l1_only() {
    HierarchyConfig h;
    h.l1.size_bytes = 8 * 128;
    h.l1.line_bytes = 128;
    h.l2.size_bytes = 0;
    return h;
}

}  // namespace

TEST(VizRowBuckets, EachArrayStartsABucket) {
    const RowLayout layout(two_arrays(), 128);
    ASSERT_EQ(layout.rows(), 10u);
    // 4 lines a bucket: A's rows 0-3 and 4, B's rows 5-8 and 9.
    const RowBuckets b(layout, 0, 10, 4);
    EXPECT_EQ(b.buckets(), 4u);
    const std::vector<std::uint64_t> want{0, 0, 0, 0, 1, 2, 2, 2, 2, 3};
    for (std::uint64_t row = 0; row < 10; ++row) EXPECT_EQ(b.bucket_of(row), want[row]) << "row " << row;
    EXPECT_EQ(b.bucket_of(10), kNoRow);
    EXPECT_EQ(b.buckets_of(3, 6), (std::pair<std::uint64_t, std::uint64_t>{0, 3}));
    EXPECT_EQ(b.buckets_of(5, 5), (std::pair<std::uint64_t, std::uint64_t>{0, 0}));
    EXPECT_EQ(b.rows_of(1, 2), (std::pair<std::uint64_t, std::uint64_t>{4, 5}));  // A's short last bucket
    EXPECT_EQ(b.rows_of(1, 4), (std::pair<std::uint64_t, std::uint64_t>{4, 10}));
    EXPECT_EQ(b.rows_of(3, 9), (std::pair<std::uint64_t, std::uint64_t>{9, 10}));
}

TEST(VizRowBuckets, AWindowStartsItsFirstBucketWhereItStarts) {
    const RowLayout layout(two_arrays(), 128);
    // Rows 3-8: A's 3, 4 (one bucket), B's 5-8 (two buckets of 2).
    const RowBuckets b(layout, 3, 6, 2);
    EXPECT_EQ(b.buckets(), 3u);
    const std::vector<std::uint64_t> want{0, 0, 1, 1, 2, 2};
    for (std::uint64_t rel = 0; rel < 6; ++rel) EXPECT_EQ(b.bucket_of(rel), want[rel]) << "relative row " << rel;
}

TEST(VizRowBuckets, RowsWithoutArraysAreOneRun) {
    const RowBuckets b(10, 4);
    EXPECT_EQ(b.buckets(), 3u);
    EXPECT_EQ(b.bucket_of(9), 2u);
    EXPECT_EQ(b.rows_of(2, 3), (std::pair<std::uint64_t, std::uint64_t>{8, 10}));
}

// A's last line is read (a miss) at step 0 and nothing else is touched: in a diagram of 4 lines a
// row, B's first lines stay uncached, and the misses counted beside the cells stay A's.
TEST(VizRowBuckets, OneArraysMissLeavesTheNextArrayUncached) {
    RecorderOptions o;
    o.max_rows = 4;  // 10 rows: 4 lines a base row
    DiagramRecorder recorder(two_arrays(), l1_only(), o);
    recorder.on_lookup(0, 4, false, false, 0);
    recorder.on_fill(0, 4);
    recorder.on_step_end(0);
    recorder.on_lookup(0, 0, false, false, 0);
    recorder.on_fill(0, 0);
    recorder.on_step_end(1);
    const Diagram d = recorder.finish();
    ASSERT_EQ(d.rows_per_bucket(), 4u);
    EXPECT_EQ(d.at_step(0, 4), CellState::fetched_from_memory);
    for (std::uint64_t row = 5; row < 10; ++row) {
        EXPECT_EQ(d.at_step(0, row), CellState::not_cached) << "row " << row;
        EXPECT_EQ(d.at_step(1, row), CellState::not_cached) << "row " << row;
    }
    EXPECT_EQ(d.query(0, 2, 5, 10), CellState::not_cached);
    EXPECT_EQ(d.query(0, 1, 4, 5), CellState::fetched_from_memory);
    // After step 0, A's line 4 is in L1: its row reads so at step 1.
    EXPECT_EQ(d.at_step(1, 4), CellState::in_l1);
    EXPECT_EQ(d.miss_counts().sum(0, 2, 5, 10).misses, 0u);
    EXPECT_EQ(d.miss_counts().sum(0, 2, 4, 5).misses, 1u);
    EXPECT_EQ(d.miss_counts().sum(0, 2, 0, 5).misses, 2u);
}

// The PNG draws each array as a band: no pixel of B's band shows A's miss.
TEST(VizRowBuckets, TheTimeViewsBandOfTheNextArrayShowsNoMiss) {
    RecorderOptions o;
    o.max_rows = 4;
    DiagramRecorder recorder(two_arrays(), l1_only(), o);
    for (std::uint64_t step = 0; step < 8; ++step) {
        recorder.on_lookup(0, 4, step != 0, false, 0);
        if (step == 0) recorder.on_fill(0, 4);
        recorder.on_step_end(step);
    }
    const Diagram d = recorder.finish();
    TimeDiagramStyle style;
    const RenderedTimeDiagram r = render_time_diagram(d, style);
    ASSERT_EQ(r.layout.groups.size(), 2u);
    const PixelRect& b = r.layout.groups[1];
    const Rgba grid{225, 225, 225, 255};  // the grid lines drawn over uncached cells
    for (int y = b.y; y < b.y + b.h; ++y)
        for (int x = r.layout.plot.x; x < r.layout.plot.x + r.layout.plot.w; ++x) {
            const Rgba c = r.image.pixel(x, y);
            ASSERT_TRUE(c == cell_color(CellState::not_cached) || c == muted_color(CellState::not_cached) || c == grid)
                << "pixel " << x << "," << y;
        }
    // A's band does show the miss and the accesses.
    const PixelRect& a = r.layout.groups[0];
    bool miss = false;
    for (int y = a.y; y < a.y + a.h; ++y)
        for (int x = r.layout.plot.x; x < r.layout.plot.x + r.layout.plot.w; ++x) {
            const Rgba c = r.image.pixel(x, y);
            miss = miss || (c != cell_color(CellState::not_cached) && c != muted_color(CellState::not_cached) &&
                            c != cell_color(CellState::accessed) && c != muted_color(CellState::accessed) &&
                            c != cell_color(CellState::in_l1) && c != muted_color(CellState::in_l1));
        }
    EXPECT_TRUE(miss);
}
