// cacheviz's labels beside the cells, under a virtual X server, read from the screenshot's
// pixels (where the text's ink landed) and from --state (what it says): every time-axis label
// whole and on the axis, centred on its tick unless it had to move in from an end; row labels
// that never run into each other, across the boundary between two arrays too, and none cut off
// at the top of the cells.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "tests/viz_gui_util.hpp"
#include "viz/canvas.hpp"

namespace vt = cachesim::viz::testing;
namespace fs = std::filesystem;
using cachesim::viz::Canvas;
using cachesim::viz::Rgba;

namespace {

struct Shot {
    vt::Placement at;  // where the cells were drawn
    Canvas image;
    vt::State state;
};

Shot shoot(const std::string& name, const std::string& args) {
    const fs::path dir = vt::test_dir(name);
    const int code = vt::run_under_xvfb(vt::cacheviz_bin(),
                                        args + " --window 1600x1000 --frames 3 --screenshot '" + (dir / "shot.png").string() +
                                            "' --layout '" + (dir / "layout.txt").string() + "' --state '" +
                                            (dir / "state.txt").string() + "'",
                                        dir / "log.txt");
    EXPECT_EQ(code, 0) << vt::read_file(dir / "log.txt");
    return {vt::read_placement(dir / "layout.txt"), cachesim::viz::decode_png(vt::read_file(dir / "shot.png")),
            vt::State(vt::read_file(dir / "state.txt"))};
}

// Text and tick marks are dark grey on the panel's light grey: a pixel well below it is ink.
bool ink(Rgba p) { return p.r < 170 && p.g < 170 && p.b < 170; }

// A run of consecutive columns (or rows) with ink: [first, last].
struct InkRun {
    int first = 0, last = 0;
    double centre() const { return (first + last + 1) / 2.0; }
    int length() const { return last - first + 1; }
};

// Runs of columns in [x0, x1) with ink somewhere in rows [y0, y1), split where at least `gap`
// columns without ink lie between.
std::vector<InkRun> column_runs(const Canvas& c, int x0, int x1, int y0, int y1, int gap) {
    std::vector<InkRun> runs;
    for (int x = x0; x < x1; ++x) {
        bool any = false;
        for (int y = y0; y < y1 && !any; ++y) any = ink(c.pixel(x, y));
        if (!any) continue;
        if (!runs.empty() && x - runs.back().last <= gap) runs.back().last = x;
        else runs.push_back({x, x});
    }
    return runs;
}

// Runs of rows in [y0, y1) with ink somewhere in columns [x0, x1), split at any row without.
std::vector<InkRun> row_runs(const Canvas& c, int x0, int x1, int y0, int y1) {
    std::vector<InkRun> runs;
    for (int y = y0; y < y1; ++y) {
        bool any = false;
        for (int x = x0; x < x1 && !any; ++x) any = ink(c.pixel(x, y));
        if (!any) continue;
        if (!runs.empty() && runs.back().last == y - 1) runs.back().last = y;
        else runs.push_back({y, y});
    }
    return runs;
}

// The texts of the labels --state lists under `key` ("time_label"), in drawing order, with their boxes.
struct Label {
    std::string text;
    double x = 0, y = 0, w = 0, h = 0;
};
// The labels of --state's lines that start with `prefix`: text, then its box (x y w h).
std::vector<Label> labels_after(const vt::State& s, const std::string& prefix) {
    std::vector<Label> out;
    for (const std::string& line : s.lines) {
        if (line.rfind(prefix, 0) != 0) continue;
        std::istringstream in(line.substr(prefix.size()));
        Label l;
        in >> l.text >> l.x >> l.y >> l.w >> l.h;
        out.push_back(l);
    }
    return out;
}

std::vector<Label> labels(const vt::State& s, const std::string& key) { return labels_after(s, "pane A " + key + " "); }

// Checks the time axis of a run shown without the miss-rate strip (the axis then runs along the
// cells' bottom edge): the tick marks found in the pixels, one label for each, centred on it
// unless it touches an end of the axis, no ink past either end, and the last label whole. `last`
// is the text the last tick must carry.
void expect_time_axis(const Shot& s, const std::string& last) {
    const int left = static_cast<int>(std::lround(s.at.x)), right = static_cast<int>(std::lround(s.at.x + s.at.w));
    const int axis_y = static_cast<int>(std::floor(s.at.y + s.at.h));
    // Tick marks hang 4 pixels below the axis; the labels sit under them, above the axis title.
    const std::vector<InkRun> ticks = column_runs(s.image, left - 2, right + 3, axis_y + 2, axis_y + 3, 1);
    const std::vector<InkRun> texts = column_runs(s.image, left - 20, right + 7, axis_y + 5, axis_y + 19, 8);
    ASSERT_GE(ticks.size(), 2u);
    ASSERT_EQ(texts.size(), ticks.size()) << "one label per tick";
    EXPECT_GE(texts.front().first, left - 1) << "the first label reaches left of the axis";
    EXPECT_LE(texts.back().last, right + 1) << "the last label reaches right of the axis";
    // The last tick has the largest number, so no label is wider than a whole last one.
    const auto widest = std::max_element(texts.begin(), texts.end(), [](const InkRun& a, const InkRun& b) { return a.length() < b.length(); });
    EXPECT_GE(texts.back().length(), widest->length()) << "the last label is cut short";
    for (std::size_t i = 0; i < ticks.size(); ++i) {
        const bool at_an_end = texts[i].first <= left + 1 || texts[i].last >= right - 2;
        if (!at_an_end) {
            EXPECT_NEAR(texts[i].centre(), ticks[i].centre(), 2.0) << "label " << i << " off its tick";
        }
    }
    const std::vector<Label> said = labels(s.state, "time_label");
    ASSERT_EQ(said.size(), ticks.size());
    EXPECT_EQ(said.back().text, last);
    for (const Label& l : said) {
        EXPECT_GE(l.x, s.at.x - 0.5) << l.text;
        EXPECT_LE(l.x + l.w, s.at.x + s.at.w + 0.5) << l.text;
    }
}

}  // namespace

// 25 x 40 work items: 1,000 steps; the tick at the axis's right end is labelled 1,000 in full.
TEST(CachevizAxisLabels, LastTimeLabelWhole) {
    REQUIRE_GUI();
    expect_time_axis(shoot("axis1000", "--size 25x40 --stencil 3x3 --miss-rate off"), "1,000");
}

// 100 x 100 work items: 10,000 steps; labels of five characters and more sit centred on their ticks.
TEST(CachevizAxisLabels, TimeLabelsCentredOnTheirTicks) {
    REQUIRE_GUI();
    expect_time_axis(shoot("axis10000", "--size 100x100 --stencil 3x3 --miss-rate off"), "10,000");
}

// Steps 100 to 104 (the narrowest view): ticks at both ends of the axis, both labels moved in to
// stay on it.
TEST(CachevizAxisLabels, ZoomedAxisKeepsBothEndLabels) {
    REQUIRE_GUI();
    const Shot s = shoot("axiszoom", "--preset thesis-stencil --zoom 100:104 --miss-rate off");
    expect_time_axis(s, "104");
    const std::vector<Label> said = labels(s.state, "time_label");
    ASSERT_FALSE(said.empty());
    EXPECT_EQ(said.front().text, "100");
}

// Two 256 x 256 arrays, each labelled every 50 rows: the last label of `in` (y=250) lies a few
// pixels above the first of `out` (y=0). In the pixels left of the cells, every label is one run
// of inked rows of one height: two labels run together would make a taller run, a label cut off
// at the top of the cells a shorter one.
TEST(CachevizAxisLabels, RowLabelsApartAndWhole) {
    REQUIRE_GUI();
    const Shot s = shoot("rowlabels", "--size 256x256 --start-gpu h200 --start-block 128 --start-sms 4");
    const int left = static_cast<int>(std::lround(s.at.x));
    const int top = static_cast<int>(std::lround(s.at.y)), bottom = static_cast<int>(std::lround(s.at.y + s.at.h));
    // The labels (at most "y=250", about 30 pixels) end 6 pixels left of the cells, the row ticks
    // lie closer, the array names further left than 50 pixels.
    const std::vector<InkRun> runs = row_runs(s.image, left - 45, left - 6, top - 2, bottom + 3);
    ASSERT_GE(runs.size(), 10u) << "both arrays labelled";
    std::map<int, int> heights;
    for (const InkRun& r : runs) ++heights[r.length()];
    const int whole = std::max_element(heights.begin(), heights.end(), [](auto& a, auto& b) { return a.second < b.second; })->first;
    for (const InkRun& r : runs) EXPECT_EQ(r.length(), whole) << "label at rows " << r.first << "-" << r.last;
    EXPECT_LE(runs.front().first - top, 3) << "the top label y=0 sits at the top of the cells";

    // What --state says was drawn: apart, top to bottom, and inside the margin's clip rectangle.
    const std::vector<Label> said = labels(s.state, "row_label");
    ASSERT_EQ(said.size(), runs.size());
    EXPECT_EQ(said.front().text, "y=0");
    for (std::size_t i = 0; i < said.size(); ++i) {
        EXPECT_GE(said[i].y, s.at.y - 2) << said[i].text;
        EXPECT_LE(said[i].y + said[i].h, s.at.y + s.at.h + 2) << said[i].text;
        if (i) {
            EXPECT_GE(said[i].y, said[i - 1].y + said[i - 1].h) << said[i - 1].text << " runs into " << said[i].text;
        }
    }
}

namespace {

// The array names drawn left of the cells (--state's `widget array_name A|NAME x y w h`).
std::vector<Label> array_names(const vt::State& s) { return labels_after(s, "widget array_name A|"); }

}  // namespace

// Each array's name sits beside its rows in view, apart from the other's; an array out of view
// has none (its name used to sit at the view's edge, over the name of the array there). A 256 x
// 256 stencil of 4-byte elements is 2,048 lines of 128 B an array: `in` on lines 0-2,047.
TEST(CachevizAxisLabels, ArrayNamesOnlyForArraysInView) {
    REQUIRE_GUI();
    const std::string run = "--size 256x256 --start-gpu h200 --start-block 128 --start-sms 4";
    const Shot whole = shoot("arraynames", run);
    const std::vector<Label> both = array_names(whole.state);
    ASSERT_EQ(both.size(), 2u);
    EXPECT_EQ(both[0].text, "in");
    EXPECT_EQ(both[1].text, "out");
    EXPECT_GE(both[1].y, both[0].y + both[0].h) << "the names run into each other";
    const Shot zoomed = shoot("arraynameszoom", run + " --zoom-lines 0:1000");
    const std::vector<Label> one = array_names(zoomed.state);
    ASSERT_EQ(one.size(), 1u);
    EXPECT_EQ(one[0].text, "in");
    EXPECT_GE(one[0].y, zoomed.at.y - 2);
    EXPECT_LE(one[0].y + one[0].h, zoomed.at.y + zoomed.at.h + 2);
}
