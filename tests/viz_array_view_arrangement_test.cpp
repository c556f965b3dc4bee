// Where the array view puts its arrays: in rows in their order, at the largest common scale any
// way of breaking them into rows allows (three wide arrays in a tall picture one above another),
// else in columns (a matmul's thin A beside its thin B above C), and a side too thin to see at that scale (a 1 x 4096 column, a matmul's M x 1 A) drawn 8 pixels
// across, its title saying so, its pixels still mapping back to the elements under them. The
// arrangement's numbers are worked out by hand from made-up title widths (6 pixels a character
// for the notes), the PNG's from its legend's place.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/array_grid_util.hpp"
#include "viz/render.hpp"

using namespace cachesim;
using namespace cachesim::viz;

namespace {

ArrayGrid grid(const std::string& name, std::uint32_t w, std::uint32_t h) { return test::blank_grid(name, w, h); }

// Titles 60 pixels wide, notes 6 pixels a character, title lines 23 and note lines 15 high, 30
// pixels between arrays of a row and 14 between a row and the next row's titles.
ArrayArea area(int width, int height, std::size_t arrays) {
    ArrayArea a;
    a.width = width;
    a.height = height;
    a.title_height = 23;
    a.note_height = 15;
    a.gap_x = 30;
    a.gap_y = 14;
    a.title_widths.assign(arrays, 60);
    a.note_width = [](const std::string& note) { return 6 * static_cast<int>(note.size()); };
    return a;
}

using Starts = std::vector<std::size_t>;

}  // namespace

// Three 200 x 20 arrays in 500 x 800: at 2 pixels an element each is 400 x 40, and two (830
// pixels with the gap) no longer share a row; one above another they take 40 + 2 x (23 + 14 + 40)
// = 194 pixels. In one row they would get (500 - 60) / 600, under a pixel an element.
TEST(ArrayViewArrangement, WideArraysInATallAreaAreStacked) {
    const std::vector<ArrayGrid> arrays{grid("a", 200, 20), grid("b", 200, 20), grid("c", 200, 20)};
    const ArrayArrangement a = arrange_arrays(arrays, area(500, 800, 3));
    ASSERT_TRUE(a.fits);
    EXPECT_DOUBLE_EQ(a.scale, 2);
    EXPECT_EQ(a.group_starts, (Starts{0, 1, 2}));
    for (std::size_t i = 0; i < 3; ++i) {
        const ArrayPlacement& p = a.arrays[i];
        EXPECT_EQ(p.x, 0) << i;
        EXPECT_EQ(p.y, static_cast<int>(i) * (40 + 14 + 23)) << i;
        EXPECT_EQ(p.w, 400) << i;
        EXPECT_EQ(p.h, 40) << i;
        EXPECT_TRUE(p.note.empty()) << p.note;
    }
}

// The same three in a wide area share one row: 3 x 400 + 2 x 30 = 1260 pixels.
TEST(ArrayViewArrangement, RoomyAreaKeepsOneRow) {
    const std::vector<ArrayGrid> arrays{grid("a", 200, 20), grid("b", 200, 20), grid("c", 200, 20)};
    const ArrayArrangement a = arrange_arrays(arrays, area(1300, 100, 3));
    ASSERT_TRUE(a.fits);
    EXPECT_DOUBLE_EQ(a.scale, 2);
    EXPECT_EQ(a.group_starts, (Starts{0}));
    EXPECT_EQ(a.arrays[1].x, 430);
    EXPECT_EQ(a.arrays[2].x, 860);
    EXPECT_EQ(a.arrays[2].y, 0);
}

// A 2 x 2 beside a 1000 x 1000 in 800 x 644: the small one's least side is 24 pixels (12 an
// element, under 644 / 8), so it is drawn 24 x 24 whatever the common scale s, under the note
// "enlarged x19" (12 / s, 72 pixels). Side by side: 1000 s + 30 + 72 <= 800 and 1000 s <= 644; one
// above the other 1000 s + 23 + 14 + 15 + 24 <= 644 is tighter. So one row, the big array 644
// pixels (s just under 0.645), the small one after it and its 30-pixel gap, a note line lower.
TEST(ArrayViewArrangement, SmallArrayBesideALargeOne) {
    const std::vector<ArrayGrid> arrays{grid("big", 1000, 1000), grid("small", 2, 2)};
    const ArrayArrangement a = arrange_arrays(arrays, area(800, 644, 2));
    ASSERT_TRUE(a.fits);
    EXPECT_EQ(a.group_starts, (Starts{0}));
    EXPECT_GT(a.scale, 0.644);
    EXPECT_LT(a.scale, 0.645);
    const ArrayPlacement &big = a.arrays[0], &small = a.arrays[1];
    EXPECT_EQ(big.w, 644);
    EXPECT_EQ(big.h, 644);
    EXPECT_DOUBLE_EQ(big.enlarged, 1);
    EXPECT_TRUE(big.note.empty());
    EXPECT_EQ(small.w, 24);
    EXPECT_EQ(small.h, 24);
    EXPECT_DOUBLE_EQ(small.scale, 12);
    EXPECT_EQ(small.note, "enlarged x19");
    EXPECT_EQ(small.x, 644 + 30);
    EXPECT_EQ(small.y, 15);
}

// The same in a narrow 300 x 900 area: side by side the big one gets (300 - 30 - 72) / 1000;
// above the small one, 300 / 1000 (the widest array fills the width: s just over 0.3 still rounds
// to 300 pixels). The small one's row starts 300 + 14 + 23 down, its cells a note line lower.
TEST(ArrayViewArrangement, SmallArrayGoesBelowInANarrowArea) {
    const std::vector<ArrayGrid> arrays{grid("big", 1000, 1000), grid("small", 2, 2)};
    const ArrayArrangement a = arrange_arrays(arrays, area(300, 900, 2));
    ASSERT_TRUE(a.fits);
    EXPECT_EQ(a.group_starts, (Starts{0, 1}));
    EXPECT_GE(a.scale, 0.3);
    EXPECT_LT(a.scale, 0.301);
    EXPECT_EQ(a.arrays[0].w, 300);
    EXPECT_EQ(a.arrays[1].note, "enlarged x40");
    EXPECT_EQ(a.arrays[1].x, 0);
    EXPECT_EQ(a.arrays[1].y, 300 + 14 + 23 + 15);
}

// Two 1 x 4096 columns in 800 x 644: a column is 1 pixel wide at any scale under one, so it is
// drawn 8 wide under the note "drawn 8 px wide" (90 pixels, its column's width), which starts it
// 15 lower: 4096 s <= 644 - 15, s under 630 / 4096, 629 pixels long. 90 + 30 + 90 fits one row.
TEST(ArrayViewArrangement, ThinColumnsAreDrawnEightPixelsWide) {
    const std::vector<ArrayGrid> arrays{grid("in", 1, 4096), grid("out", 1, 4096)};
    const ArrayArrangement a = arrange_arrays(arrays, area(800, 644, 2));
    ASSERT_TRUE(a.fits);
    EXPECT_EQ(a.group_starts, (Starts{0}));
    for (std::size_t i = 0; i < 2; ++i) {
        const ArrayPlacement& p = a.arrays[i];
        EXPECT_EQ(p.w, 8) << i;
        EXPECT_EQ(p.h, 629) << i;
        EXPECT_TRUE(p.widened) << i;
        EXPECT_FALSE(p.heightened) << i;
        EXPECT_DOUBLE_EQ(p.enlarged, 1) << i;
        EXPECT_EQ(p.note, "drawn 8 px wide") << i;
        EXPECT_EQ(p.column_width, 90) << i;
        EXPECT_EQ(p.y, 15) << i;
    }
    EXPECT_EQ(a.arrays[1].x, 90 + 30);
}

// A matmul at depth 2: A (2 x 1000) and B (1000 x 2), each a side drawn 8 pixels across under a
// 90-pixel note, and C (1000 x 1000), in 800 x 644. In one row 90 + 30 + 2 x 1000 s + 30 <= 800
// gives s under 0.326, and two rows no more than (644 - 15 - 37) / 2000. In columns, A beside B
// above C: 90 + 30 + 1000 s <= 800, and B's 8 + 15 pixels, C's title line and gap (37) and C take
// 23 + 37 + 1000 s <= 644: C 584 pixels (s just under 0.585), B as wide.
TEST(ArrayViewArrangement, MatmulOfSmallDepthGoesInColumns) {
    const std::vector<ArrayGrid> arrays{grid("A", 2, 1000), grid("B", 1000, 2), grid("C", 1000, 1000)};
    const ArrayArrangement a = arrange_arrays(arrays, area(800, 644, 3));
    ASSERT_TRUE(a.fits);
    EXPECT_EQ(a.flow, ArrayFlow::columns);
    EXPECT_EQ(a.group_starts, (Starts{0, 1}));
    EXPECT_GT(a.scale, 0.584);
    EXPECT_LT(a.scale, 0.585);
    const ArrayPlacement &pa = a.arrays[0], &pb = a.arrays[1], &pc = a.arrays[2];
    EXPECT_EQ(pa.w, 8);
    EXPECT_EQ(pa.h, 584);
    EXPECT_EQ(pa.note, "drawn 8 px wide");
    EXPECT_EQ(pb.w, 584);
    EXPECT_EQ(pb.h, 8);
    EXPECT_EQ(pb.note, "drawn 8 px tall");
    EXPECT_EQ(pc.w, 584);
    EXPECT_EQ(pc.h, 584);
    EXPECT_TRUE(pc.note.empty());
    EXPECT_EQ(pa.x, 0);
    EXPECT_EQ(pa.y, 15);
    EXPECT_EQ(pb.x, 90 + 30);
    EXPECT_EQ(pb.y, 15);
    EXPECT_EQ(pc.x, 90 + 30);
    EXPECT_EQ(pc.y, 8 + 15 + 23 + 14);
}

// A side of fewer than 8 elements is thickened in whole pixels per element: 3 rows 3 pixels each
// (9), 5 rows 2 each (10); 8 rows or more share 8 pixels.
TEST(ArrayViewArrangement, ThinSidesTakeWholePixelsPerElement) {
    for (const auto& [rows, pixels] : {std::pair{1u, 8}, std::pair{2u, 8}, std::pair{3u, 9}, std::pair{5u, 10}, std::pair{20u, 8}}) {
        // 4000 elements across 800 pixels: a fifth of a pixel an element, every side under 8.
        const ArrayArrangement a = arrange_arrays({grid("row", 4000, rows)}, area(800, 644, 1));
        ASSERT_TRUE(a.fits) << rows;
        EXPECT_EQ(a.arrays[0].w, 800) << rows;
        EXPECT_EQ(a.arrays[0].h, pixels) << rows;
        EXPECT_TRUE(a.arrays[0].heightened) << rows;
        EXPECT_EQ(a.arrays[0].note, "drawn " + std::to_string(pixels) + " px tall") << rows;
    }
}

// Where no note has room (every note 200 pixels, the area 120 wide) the small array keeps the
// common scale and the thin one its pixel: 100 x 10 and 1 x 1 at 1 pixel an element, 100 + 10 +
// 10 (the 1 x 1's title) in one row.
TEST(ArrayViewArrangement, NoRoomForNotesKeepsOneScale) {
    const std::vector<ArrayGrid> arrays{grid("big", 100, 10), grid("dot", 1, 1)};
    ArrayArea tight = area(120, 100, 2);
    tight.gap_x = 10;
    tight.title_widths = {10, 10};
    tight.note_width = [](const std::string&) { return 200; };
    const ArrayArrangement a = arrange_arrays(arrays, tight);
    ASSERT_TRUE(a.fits);
    EXPECT_DOUBLE_EQ(a.scale, 1);
    EXPECT_EQ(a.group_starts, (Starts{0}));
    EXPECT_EQ(a.arrays[1].w, 1);
    EXPECT_EQ(a.arrays[1].x, 110);
    for (const ArrayPlacement& p : a.arrays) {
        EXPECT_TRUE(p.note.empty()) << p.note;
        EXPECT_DOUBLE_EQ(p.enlarged, 1);
    }
}

// An axis of 1 element over 8 pixels, and of 4096 elements over 629: pixel p of the latter shows
// elements [4096 p / 629, 4096 (p + 1) / 629).
TEST(ArrayViewArrangement, DrawnAxisMapsBothWays) {
    const DrawnAxis wide{1, 8};
    EXPECT_EQ(wide.pixels_of(0), (std::pair{0, 8}));
    for (int p = 0; p < 8; ++p) EXPECT_EQ(wide.elements_of(p), (std::pair{0u, 1u})) << p;
    const DrawnAxis whole{3, 9};
    EXPECT_EQ(whole.pixels_of(2), (std::pair{6, 9}));
    EXPECT_EQ(whole.elements_of(5), (std::pair{1u, 2u}));
    const DrawnAxis shared{4096, 629};
    EXPECT_EQ(shared.elements_of(0), (std::pair{0u, 6u}));     // 4096 / 629 = 6.5
    EXPECT_EQ(shared.elements_of(1), (std::pair{6u, 13u}));    // 8192 / 629 = 13.02
    EXPECT_EQ(shared.elements_of(628), (std::pair{4089u, 4096u}));
    EXPECT_EQ(shared.pixels_of(4095), (std::pair{628, 629}));
    EXPECT_EQ(shared.pixels_of(12), (std::pair{1, 2}));
    EXPECT_EQ(shared.pixels_of(13), (std::pair{2, 3}));
}

// The PNG: three 200 x 20 arrays in an 800 x 1000 picture. The legend leaves the arrays
// legend_area.x - 40 pixels (20 of margin left of the arrays, 20 before the legend), about 490:
// 2 pixels an element (400 x 40 each), one array a row; in one row they would get under one.
TEST(ArrayViewArrangement, PngStacksWideArraysInATallPicture) {
    ArrayView v;
    v.step = 3;
    v.arrays = {grid("in", 200, 20), grid("mid", 200, 20), grid("out", 200, 20)};
    ArrayViewStyle style;
    style.width = 800;
    style.height = 1000;
    const ArrayViewLayout lay = layout_array_view(v, style);
    ASSERT_TRUE(lay.fits);
    const int area_w = lay.legend_area.x - 40;
    ASSERT_GE(area_w, 400);
    ASSERT_LT(area_w, 830);  // two arrays and a gap
    EXPECT_EQ(lay.group_starts, (Starts{0, 1, 2}));
    for (std::size_t a = 0; a < 3; ++a) {
        EXPECT_EQ(lay.cell_size[a], 2) << a;
        EXPECT_EQ(lay.arrays[a].x, 20) << a;
        EXPECT_TRUE(lay.title_notes[a].empty()) << lay.title_notes[a];
        if (a == 0) continue;
        // Each title between the array above and its own array.
        EXPECT_GT(lay.titles[a].y, lay.arrays[a - 1].y + lay.arrays[a - 1].h) << a;
        EXPECT_LE(lay.titles[a].y + lay.titles[a].h, lay.arrays[a].y) << a;
        EXPECT_EQ(lay.arrays[a].y - lay.arrays[a - 1].y, 40 + 14 + static_cast<int>(13 * 1.8)) << a;
    }
}

// The PNG of a 1 x 4096 column: 8 pixels wide, and the one fetched element's pixel row is red
// all across them; each of those pixels maps back to the element.
TEST(ArrayViewArrangement, PngColumnShowsItsFetchAcrossItsWidth) {
    ArrayView v;
    v.step = 3;
    v.arrays = {grid("in", 1, 4096)};
    const std::uint32_t fetched = 2000;
    v.arrays[0].cells[fetched] = CellState::fetched_from_memory;
    const RenderedArrayView r = render_array_view(v, ArrayViewStyle{});
    const ArrayViewLayout& lay = r.layout;
    ASSERT_TRUE(lay.fits);
    ASSERT_EQ(lay.arrays[0].w, 8);
    EXPECT_TRUE(lay.widened[0]);
    EXPECT_EQ(lay.title_notes[0], "drawn 8 px wide");
    const PixelRect c = lay.cell(0, 0, fetched);
    EXPECT_EQ(c.x, lay.arrays[0].x);
    EXPECT_EQ(c.w, 8);
    EXPECT_EQ(c.h, 1);  // 4096 elements over fewer pixels
    for (int px = 0; px < 8; ++px) {
        EXPECT_EQ(r.image.pixel(c.x + px, c.y), cell_color(CellState::fetched_from_memory)) << px;
        const ArrayViewLayout::Span s = lay.elements_of_pixel(0, px, c.y - lay.arrays[0].y);
        EXPECT_EQ(s.x0, 0u);
        EXPECT_EQ(s.x1, 1u);
        EXPECT_LE(s.y0, fetched);
        EXPECT_GT(s.y1, fetched);
    }
    EXPECT_EQ(r.image.pixel(c.x + 4, lay.arrays[0].y), cell_color(CellState::not_cached));
}
