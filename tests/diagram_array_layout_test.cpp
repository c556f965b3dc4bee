// The array view's layout for arrays of any shape: every array, its frame and its title lie inside
// the picture, none over another or over the legend; arrays larger than the picture share pixels
// among elements, and a pixel with a fetch among its elements shows the fetch. Where the picture
// cannot hold them, `cachesim diagram` exits 2 naming the size that can.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/cli_util.hpp"
#include "viz/render.hpp"

using namespace cachesim;
using namespace cachesim::viz;

namespace {

// An array as make_array_view builds it: a 1D array longer than kMaxFlatRow folds into rows.
ArrayGrid grid(const std::string& name, std::uint32_t w, std::uint32_t h) {
    ArrayGrid g;
    g.name = name;
    g.width = w;
    g.height = h;
    g.elements = static_cast<std::uint64_t>(w) * h;
    g.elements_per_line = 4;
    if (h == 1 && w > kMaxFlatRow) {
        g.folded = true;
        g.width = folded_row_width(g.elements, 4);
        g.height = static_cast<std::uint32_t>((g.elements + g.width - 1) / g.width);
    }
    g.cells.assign(static_cast<std::size_t>(g.width) * g.height, CellState::not_cached);
    return g;
}

ArrayView view_of(std::uint32_t w, std::uint32_t h) {
    ArrayView v;
    v.step = 100;
    v.work_item = 100;
    v.item_x = 100 % w;
    v.item_y = 100 / w;
    v.arrays = {grid("in", w, h), grid("out", w, h)};
    return v;
}

// The notes of a thread-model run, as long as the legend's usually are.
ArrayViewStyle style(int width, int height) {
    ArrayViewStyle s;
    s.width = width;
    s.height = height;
    s.title = "stencil, 1x1 box, linear";
    s.notes = {"stencil 4096x4096, 1x1 box, linear", "L1 384 B: 24 lines x 16 B, fully associative, lru",
               "L1: 4,194,304 misses / 16,777,216 lookups, hit rate 75.0%",
               "thesis sec. 3.3.1 worst case: fetches <= 4,198,400 (simulated 4,194,304)",
               "  (one cache, items in order; eq. 3.2's 1025 lines exceed 24)", "recommended column width: 94"};
    return s;
}

void expect_laid_out(const ArrayView& v, const ArrayViewLayout& lay, int width, int height) {
    ASSERT_TRUE(lay.fits);
    ASSERT_EQ(lay.arrays.size(), v.arrays.size());
    ASSERT_EQ(lay.titles.size(), v.arrays.size());
    EXPECT_TRUE(lay.legend_area.inside(width, height));
    std::vector<PixelRect> boxes{lay.legend_area};
    for (std::size_t a = 0; a < v.arrays.size(); ++a) {
        SCOPED_TRACE(v.arrays[a].name);
        const PixelRect& r = lay.arrays[a];
        const PixelRect frame{r.x - 1, r.y - 1, r.w + 2, r.h + 2};  // drawn around the cells
        EXPECT_GE(r.w, 1);
        EXPECT_GE(r.h, 1);
        EXPECT_TRUE(frame.inside(width, height)) << frame.x << "," << frame.y << " " << frame.w << "x" << frame.h;
        EXPECT_TRUE(lay.titles[a].inside(width, height));
        for (const PixelRect& b : boxes) {
            EXPECT_FALSE(frame.overlaps(b));
            EXPECT_FALSE(lay.titles[a].overlaps(b));
        }
        boxes.push_back(frame);
        boxes.push_back(lay.titles[a]);
        // A side too thin to see at the common scale is drawn kMinArrayThickness across or more.
        if (lay.widened[a] || lay.heightened[a]) {
            EXPECT_NE(lay.title_notes[a].find("drawn "), std::string::npos) << lay.title_notes[a];
            if (lay.widened[a]) EXPECT_GE(r.w, kMinArrayThickness);
            if (lay.heightened[a]) EXPECT_GE(r.h, kMinArrayThickness);
            continue;
        }
        // One scale for all: as many pixels per element across as down (to within rounding).
        const double across = static_cast<double>(r.w) / v.arrays[a].width, down = static_cast<double>(r.h) / v.arrays[a].height;
        if (lay.cell_size[a] > 0) {
            EXPECT_EQ(r.w, static_cast<int>(v.arrays[a].width) * lay.cell_size[a]);
            EXPECT_EQ(r.h, static_cast<int>(v.arrays[a].height) * lay.cell_size[a]);
            EXPECT_EQ(lay.cell_size[a], lay.cell_size[0]);
        } else {
            EXPECT_LE(r.w, static_cast<int>(v.arrays[a].width));
            EXPECT_LE(r.h, static_cast<int>(v.arrays[a].height));
            if (r.w > 1 && r.h > 1) EXPECT_NEAR(across / down, 1.0, 0.5);
        }
    }
}

}  // namespace

TEST(DiagramArrayLayout, EveryShapeFitsBesideTheLegend) {
    const std::pair<std::uint32_t, std::uint32_t> shapes[] = {{16, 16},  {512, 512}, {4096, 4096}, {1, 4096}, {4096, 1},
                                                              {4096, 2}, {3, 5000},  {2000, 3},    {1, 1},    {64, 1}};
    const std::pair<int, int> sizes[] = {{1200, 700}, {900, 500}, {2400, 1400}, {700, 420}};
    for (const auto& [w, h] : shapes)
        for (const auto& [pw, ph] : sizes) {
            SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h) + " in " + std::to_string(pw) + "x" + std::to_string(ph));
            const ArrayView v = view_of(w, h);
            const ArrayViewLayout lay = layout_array_view(v, style(pw, ph));
            if (!lay.fits) {
                // Then the size it names holds them.
                EXPECT_TRUE(lay.width_needed > pw || lay.height_needed > ph);
                const ArrayViewLayout at = layout_array_view(v, style(lay.width_needed, lay.height_needed));
                expect_laid_out(v, at, lay.width_needed, lay.height_needed);
                continue;
            }
            expect_laid_out(v, lay, pw, ph);
        }
}

// The default picture (1200 x 700) holds large square arrays and a tall thin one whole.
TEST(DiagramArrayLayout, DefaultSizeHoldsLargeArrays) {
    for (const auto& [w, h] : {std::pair{512u, 512u}, std::pair{4096u, 4096u}, std::pair{1u, 4096u}}) {
        const ArrayView v = view_of(w, h);
        const ArrayViewLayout lay = layout_array_view(v, style(1200, 700));
        expect_laid_out(v, lay, 1200, 700);
    }
}

// In a 4096 x 4096 array a pixel covers several elements; the one fetched element shows (red) over
// the hit beside it, and a hit in a pixel of its own elsewhere shows (black).
TEST(DiagramArrayLayout, SharedPixelsShowTheirFetch) {
    ArrayView v = view_of(4096, 4096);
    ArrayGrid& in = v.arrays[0];
    const std::uint32_t fx = 1234, fy = 2345, hx = 4000, hy = 10;
    in.cells[static_cast<std::size_t>(fy) * in.width + fx] = CellState::fetched_from_memory;
    in.cells[static_cast<std::size_t>(fy) * in.width + fx + 1] = CellState::accessed;  // same pixel: the fetch wins
    in.cells[static_cast<std::size_t>(hy) * in.width + hx] = CellState::accessed;
    v.arrays[1].cells.assign(v.arrays[1].cells.size(), CellState::in_l1);
    const RenderedArrayView r = render_array_view(v, style(1200, 700));
    ASSERT_EQ(r.layout.cell_size[0], 0);
    const PixelRect f = r.layout.cell(0, fx, fy);
    const ArrayViewLayout::Span span = r.layout.elements_of_pixel(0, f.x - r.layout.arrays[0].x, f.y - r.layout.arrays[0].y);
    EXPECT_TRUE(fx >= span.x0 && fx < span.x1 && fy >= span.y0 && fy < span.y1);
    EXPECT_GT(span.x1 - span.x0, 1u);  // the pixel stands for more than one element
    EXPECT_EQ(r.image.pixel(f.x, f.y), cell_color(CellState::fetched_from_memory));
    const PixelRect h = r.layout.cell(0, hx, hy);
    EXPECT_EQ(r.image.pixel(h.x, h.y), cell_color(CellState::accessed));
    const PixelRect other = r.layout.cell(0, 0, 4095);
    EXPECT_EQ(r.image.pixel(other.x, other.y), cell_color(CellState::not_cached));
    const PixelRect o = r.layout.cell(1, 2000, 2000);
    EXPECT_EQ(r.image.pixel(o.x, o.y), cell_color(CellState::in_l1));

}

TEST(DiagramArrayLayout, CliDrawsLargeArraysAndRefusesTooSmallPictures) {
    const auto png = test::temp_dir() / "a.png";
    const std::string out = " -q --out '" + png.string() + "'";
    auto r = test::run_cachesim("diagram --size 512x512 --stencil 1x1 --view array --time 100" + out);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(decode_png(test::read_file(png)).width(), 1200);

    // 200 x 200 holds neither the legend beside two arrays nor its notes: exit 2, naming both.
    std::filesystem::remove(png);
    r = test::run_cachesim("diagram --size 1x4096 --stencil 1x1 --view array --time 100 --width 200 --height 200" + out);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(r.out.empty());
    EXPECT_FALSE(std::filesystem::exists(png));
    const std::size_t w = r.err.find("--width "), h = r.err.find("--height ");
    ASSERT_NE(w, std::string::npos) << r.err;
    ASSERT_NE(h, std::string::npos) << r.err;
    const int width = std::stoi(r.err.substr(w + 8)), height = std::stoi(r.err.substr(h + 9));
    EXPECT_GT(width, 200);
    EXPECT_GT(height, 200);
    r = test::run_cachesim("diagram --size 1x4096 --stencil 1x1 --view array --time 100 --width " + std::to_string(width) +
                           " --height " + std::to_string(height) + out);
    EXPECT_EQ(r.exit_code, 0) << r.err;
}
