// The array view of arrays of very different sizes: one far smaller than the others (matmul's
// 2 x 2 C beside a 1000-wide A) is drawn at a readable size, at least 12 pixels an element or an
// eighth of the arrays' height, its title naming the enlargement; its pixels still show, and map
// back to, the elements under them. Arrays of similar size keep one scale, and where the picture
// has no room for the enlargement beside the others, the small array goes below them.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "tests/array_grid_util.hpp"
#include "viz/render.hpp"

using namespace cachesim;
using namespace cachesim::viz;

namespace {

ArrayGrid grid(const std::string& name, std::uint32_t w, std::uint32_t h) { return test::blank_grid(name, w, h); }

ArrayView view_of(std::vector<ArrayGrid> arrays) {
    ArrayView v;
    v.step = 3;
    v.work_item = 3;
    v.item_x = 1;
    v.item_y = 1;
    v.arrays = std::move(arrays);
    return v;
}

// No title and the default font (13 px): the arrays start at 13 + 23 = 36 px (a line for the
// picture's top, 1.8 lines for the titles), and end 20 px above the bottom edge: 700 - 56 = 644
// pixels high, an eighth of which is 80.5.
ArrayViewStyle plain(int width = 1200, int height = 700) {
    ArrayViewStyle s;
    s.width = width;
    s.height = height;
    return s;
}

// Every array's frame and title inside the picture, none over another or the legend.
void expect_apart(const ArrayViewLayout& lay, int width, int height) {
    std::vector<PixelRect> boxes{lay.legend_area};
    for (std::size_t a = 0; a < lay.arrays.size(); ++a) {
        const PixelRect& r = lay.arrays[a];
        const PixelRect frame{r.x - 1, r.y - 1, r.w + 2, r.h + 2};
        EXPECT_TRUE(frame.inside(width, height)) << a;
        EXPECT_TRUE(lay.titles[a].inside(width, height)) << a;
        for (const PixelRect& b : boxes) {
            EXPECT_FALSE(frame.overlaps(b)) << a;
            EXPECT_FALSE(lay.titles[a].overlaps(b)) << a;
        }
        boxes.push_back(frame);
        boxes.push_back(lay.titles[a]);
    }
}

// The title names an enlargement: on its second line, and nowhere on its first.
bool says_enlarged(const ArrayViewLayout& lay, std::size_t a) {
    EXPECT_EQ(lay.title_texts[a].find("enlarged"), std::string::npos) << lay.title_texts[a];
    return lay.title_notes[a].rfind("enlarged x", 0) == 0;
}

}  // namespace

TEST(ArrayViewSmallArrays, TinyArrayBesideLongOnesIsDrawnReadable) {
    ArrayView v = view_of({grid("A", 1000, 2), grid("B", 2, 1000), grid("C", 2, 2)});
    ArrayGrid& c = v.arrays[2];
    c.cells = {CellState::not_cached, CellState::fetched_from_memory, CellState::in_l1, CellState::accessed};
    const RenderedArrayView r = render_array_view(v, plain());
    const ArrayViewLayout& lay = r.layout;
    ASSERT_TRUE(lay.fits);
    ASSERT_EQ(lay.arrays.size(), 3u);
    expect_apart(lay, 1200, 700);

    // C: 12 pixels an element (2 x 12 = 24 is less than an eighth of 644), 24 x 24 pixels.
    EXPECT_EQ(lay.cell_size[2], 12);
    EXPECT_EQ(lay.arrays[2].w, 24);
    EXPECT_EQ(lay.arrays[2].h, 24);
    // A and B, a thousand elements long beside the legend, share a scale under a pixel an element;
    // their 2 elements across, a pixel at that scale, are drawn 4 pixels each, 8 in all.
    EXPECT_EQ(lay.cell_size[0], 0);
    EXPECT_EQ(lay.cell_size[1], 0);
    EXPECT_LT(lay.arrays[0].w, 1000);
    EXPECT_NEAR(lay.arrays[0].w, lay.arrays[1].h, 1);
    EXPECT_EQ(lay.arrays[0].h, 8);
    EXPECT_EQ(lay.arrays[1].w, 8);
    EXPECT_EQ(lay.title_notes[0], "drawn 8 px tall");
    EXPECT_EQ(lay.title_notes[1], "drawn 8 px wide");
    EXPECT_DOUBLE_EQ(lay.enlarged[0], 1);
    EXPECT_DOUBLE_EQ(lay.enlarged[1], 1);
    EXPECT_FALSE(says_enlarged(lay, 0));
    EXPECT_FALSE(says_enlarged(lay, 1));

    // C's title names its scale over A's on a second line: 12 pixels an element against A's
    // width / 1000. C, like A and B under their notes, starts that line lower than the titles'
    // first line; its title covers both lines.
    EXPECT_EQ(lay.title_texts[2], "C  (2 x 2)");
    ASSERT_TRUE(says_enlarged(lay, 2)) << lay.title_notes[2];
    const double factor = 12.0 / (lay.arrays[0].w / 1000.0);
    EXPECT_NEAR(lay.enlarged[2], factor, factor * 0.01);  // A's width is whole pixels
    EXPECT_NEAR(std::stod(lay.title_notes[2].substr(10)), factor, factor * 0.02) << lay.title_notes[2];
    EXPECT_EQ(lay.arrays[0].y, lay.arrays[1].y);
    EXPECT_EQ(lay.arrays[2].y, lay.arrays[0].y);
    EXPECT_GE(lay.arrays[2].y, lay.titles[0].y + 2 * measure_text("C", 13 * 1.1).height());
    EXPECT_EQ(lay.titles[2].y, lay.titles[0].y);
    EXPECT_LE(lay.titles[2].y + lay.titles[2].h, lay.arrays[2].y);
    EXPECT_GE(lay.titles[2].h, 2 * measure_text("C", 13 * 1.1).height());
    // The note widens C's column by no more than its own width, a hundred pixels or so: A keeps
    // most of the row.
    EXPECT_GE(lay.arrays[0].w, 400);
    // Drawn: the title's second line holds dark text between the first line and C.
    int ink = 0;
    for (int y = lay.titles[0].y + lay.titles[0].h; y < lay.arrays[2].y; ++y)
        for (int x = lay.arrays[2].x; x < lay.titles[2].x + lay.titles[2].w; ++x) {
            const Rgba p = r.image.pixel(x, y);
            ink += p.r < 128 && p.g < 128 && p.b < 128;
        }
    EXPECT_GT(ink, 20);

    // Each of C's 24 x 24 pixels maps to the element under it, and each element's centre shows
    // its state.
    const PixelRect& area = lay.arrays[2];
    for (int py = 0; py < area.h; ++py)
        for (int px = 0; px < area.w; ++px) {
            const ArrayViewLayout::Span s = lay.elements_of_pixel(2, px, py);
            const auto ex = static_cast<std::uint32_t>(px / 12), ey = static_cast<std::uint32_t>(py / 12);
            EXPECT_EQ(s.x0, ex);
            EXPECT_EQ(s.x1, ex + 1);
            EXPECT_EQ(s.y0, ey);
            EXPECT_EQ(s.y1, ey + 1);
        }
    for (std::uint32_t y = 0; y < 2; ++y)
        for (std::uint32_t x = 0; x < 2; ++x) {
            const PixelRect cell = lay.cell(2, x, y);
            EXPECT_EQ(cell.x, area.x + static_cast<int>(x) * 12);
            EXPECT_EQ(cell.y, area.y + static_cast<int>(y) * 12);
            EXPECT_EQ(cell.w, 12);
            EXPECT_EQ(r.image.pixel(area.x + static_cast<int>(x) * 12 + 6, area.y + static_cast<int>(y) * 12 + 6),
                      cell_color(c.at(x, y)))
                << x << "," << y;
        }
}

// An array bigger than an eighth of the height at 12 pixels an element is enlarged to that eighth:
// 16 x 16 at 80.5 / 16 = 5.03, whole pixels: 5 an element, 80 pixels.
TEST(ArrayViewSmallArrays, SmallArrayReachesAnEighthOfTheHeight) {
    const ArrayView v = view_of({grid("big", 4096, 4096), grid("small", 16, 16)});
    const ArrayViewLayout lay = layout_array_view(v, plain());
    ASSERT_TRUE(lay.fits);
    expect_apart(lay, 1200, 700);
    EXPECT_EQ(lay.cell_size[1], 5);
    EXPECT_EQ(lay.arrays[1].w, 80);
    EXPECT_TRUE(says_enlarged(lay, 1));
    EXPECT_FALSE(says_enlarged(lay, 0));
    // The big one fills the height it can (644 px at most) at under a pixel an element.
    EXPECT_EQ(lay.cell_size[0], 0);
    EXPECT_LE(lay.arrays[0].h, 644);
    EXPECT_GT(lay.arrays[0].h, 80);
}

// Arrays a few times apart in size keep one scale: at whole pixels, the same cell size; below a
// pixel an element, widths in proportion to their elements. Neither title says "enlarged".
TEST(ArrayViewSmallArrays, SimilarArraysShareOneScale) {
    {
        const ArrayView v = view_of({grid("a", 40, 40), grid("b", 30, 30), grid("c", 50, 20)});
        const ArrayViewLayout lay = layout_array_view(v, plain());
        ASSERT_TRUE(lay.fits);
        expect_apart(lay, 1200, 700);
        ASSERT_GT(lay.cell_size[0], 0);
        for (std::size_t a = 0; a < 3; ++a) {
            EXPECT_EQ(lay.cell_size[a], lay.cell_size[0]) << a;
            EXPECT_EQ(lay.arrays[a].w, static_cast<int>(v.arrays[a].width) * lay.cell_size[0]) << a;
            EXPECT_DOUBLE_EQ(lay.enlarged[a], 1) << a;
            EXPECT_FALSE(says_enlarged(lay, a)) << a;
        }
    }
    {
        // 300 elements at the 1000 x 1000 array's scale (at most 644 / 1000) is over 80.5 pixels.
        const ArrayView v = view_of({grid("big", 1000, 1000), grid("mid", 300, 300)});
        const ArrayViewLayout lay = layout_array_view(v, plain());
        ASSERT_TRUE(lay.fits);
        EXPECT_EQ(lay.cell_size[0], 0);
        EXPECT_EQ(lay.cell_size[1], 0);
        EXPECT_NEAR(lay.arrays[1].w, lay.arrays[0].w * 0.3, 1.0);
        EXPECT_NEAR(lay.arrays[1].h, lay.arrays[0].h * 0.3, 1.0);
        EXPECT_FALSE(says_enlarged(lay, 1));
    }
}

// At the smallest picture that holds the arrays' titles in one row (width_needed: each array a
// pixel across under its title) there is no room beside A for the longer title of an enlarged C:
// C goes to a second row, under A, where its note has room, 12 pixels an element.
TEST(ArrayViewSmallArrays, NoRoomBesideGoesBelow) {
    const ArrayView v = view_of({grid("A", 1000, 2), grid("C", 2, 2)});
    // The note's line is wider than C's title, so C's column would widen.
    ASSERT_GT(measure_text("enlarged x10", 13 * 1.1).width, measure_text("C  (2 x 2)", 13 * 1.1).width);
    const ArrayViewLayout narrow = layout_array_view(v, plain(200, 700));
    ASSERT_FALSE(narrow.fits);
    const int w = narrow.width_needed, h = narrow.height_needed;
    const ArrayViewLayout lay = layout_array_view(v, plain(w, h));
    ASSERT_TRUE(lay.fits);
    expect_apart(lay, w, h);
    EXPECT_EQ(lay.group_starts, (std::vector<std::size_t>{0, 1}));
    EXPECT_DOUBLE_EQ(lay.enlarged[0], 1);
    EXPECT_TRUE(says_enlarged(lay, 1));
    EXPECT_EQ(lay.cell_size[1], 12);
    EXPECT_EQ(lay.arrays[1].x, lay.arrays[0].x);
    EXPECT_GT(lay.titles[1].y, lay.arrays[0].y + lay.arrays[0].h);
}

TEST(ArrayViewSmallArrays, EnlargementNote) {
    EXPECT_EQ(array_enlarged_note(2.5), "enlarged x2.5");
    EXPECT_EQ(array_enlarged_note(3.0), "enlarged x3");
    EXPECT_EQ(array_enlarged_note(40.4), "enlarged x40");
    EXPECT_EQ(array_enlarged_note(1234.0), "enlarged x1,234");
    // The minimum: 12 pixels an element, or an eighth of the height where less.
    EXPECT_DOUBLE_EQ(array_min_side(grid("C", 2, 2), 644), 24);
    EXPECT_DOUBLE_EQ(array_min_side(grid("B", 2, 1000), 644), 80.5);
}
