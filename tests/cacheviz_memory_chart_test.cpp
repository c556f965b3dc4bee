// cacheviz's Memory chart tab and colour legend under a virtual X server, read from --state.
// The chart: every text (the titles, each box's title and lines, the arrows' labels) is drawn
// whole inside its box or the chart's scroll area, and no two texts overlap, for two charts in the
// default window (one above the other) and in a wide one (side by side), and for one in the
// smallest. The legend: one per pane where the panes' cells are
// coloured differently, each with its own pane's range; one for both where they agree.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/viz_gui_util.hpp"

namespace vt = cachesim::viz::testing;
namespace fs = std::filesystem;

namespace {

struct Box {
    double x = 0, y = 0, w = 0, h = 0;
    // Half a pixel of slack for the fractional positions ImGui draws at.
    bool inside(const Box& o) const {
        return x >= o.x - 0.5 && y >= o.y - 0.5 && x + w <= o.x + o.w + 0.5 && y + h <= o.y + o.h + 0.5;
    }
    bool overlaps(const Box& o) const {
        return x < o.x + o.w - 0.5 && o.x < x + w - 0.5 && y < o.y + o.h - 0.5 && o.y < y + h - 0.5;
    }
};

struct Widget {
    std::string name;
    Box box;
};

// Every "widget NAME x y w h" line of --state (NAME may hold spaces).
std::vector<Widget> widgets(const vt::State& state) {
    std::vector<Widget> all;
    for (const std::string& line : state.lines) {
        if (line.rfind("widget ", 0) != 0) continue;
        std::string rest = line.substr(7);
        double v[4];
        for (int k = 3; k >= 0; --k) {
            const std::size_t space = rest.rfind(' ');
            v[k] = std::stod(rest.substr(space + 1));
            rest.erase(space);
        }
        all.push_back({rest, {v[0], v[1], v[2], v[3]}});
    }
    return all;
}

std::vector<Widget> starting(const std::vector<Widget>& all, const std::string& prefix) {
    std::vector<Widget> found;
    for (const Widget& w : all)
        if (w.name.rfind(prefix, 0) == 0) found.push_back({w.name.substr(prefix.size()), w.box});
    return found;
}

vt::State run(const std::string& name, const std::string& args) {
    const fs::path dir = vt::test_dir(name);
    // (--frames counts the frames before the screenshot: without one the app runs on.)
    const int code = vt::run_under_xvfb(vt::cacheviz_bin(),
                                        args + " --frames 5 --screenshot '" + (dir / "shot.png").string() + "' --state '" +
                                            (dir / "state.txt").string() + "'",
                                        dir / "log.txt");
    EXPECT_EQ(code, 0) << vt::read_file(dir / "log.txt");
    return vt::State(vt::read_file(dir / "state.txt"));
}

const std::string kGpuRun = "--start-gpu h200 --start-sms 4 --start-block 128 --size 64x64 --tab chart";

// The chart's texts of `panes` as --state records them, checked whole, in place and apart.
void check_chart(const vt::State& state, const std::vector<std::string>& panes) {
    const std::vector<Widget> all = widgets(state);
    const std::vector<Widget> content = starting(all, "chart_content");
    ASSERT_EQ(content.size(), 1u);
    const Box area = content[0].box;
    std::vector<Widget> texts, boxes;
    for (const std::string& p : panes) {
        // Each box and each line the run's chart holds (the "pane P chart_box/chart_line" lines) was drawn.
        for (const std::string& line : state.lines) {
            const std::string box_key = "pane " + p + " chart_box ", line_key = "pane " + p + " chart_line ";
            if (line.rfind(box_key, 0) == 0) {
                const std::string title = line.substr(box_key.size());
                EXPECT_EQ(starting(all, "chart_box " + p + "|" + title).size(), 1u) << title;
                EXPECT_EQ(starting(all, "chart_text " + p + "|" + title + "|" + title).size(), 1u) << title;
            }
            if (line.rfind(line_key, 0) == 0) {
                // "TITLE: LINE" where a title may hold ": " itself: some split of it was drawn.
                const std::string rest = line.substr(line_key.size());
                bool drawn = false;
                for (std::size_t at = rest.find(": "); at != std::string::npos && !drawn; at = rest.find(": ", at + 1))
                    drawn = !starting(all, "chart_text " + p + "|" + rest.substr(0, at) + "|" + rest.substr(at + 2)).empty();
                EXPECT_TRUE(drawn) << rest;
            }
            if (line.rfind("pane " + p + " chart_arrow ", 0) == 0) {
                const std::string label = line.substr(("pane " + p + " chart_arrow ").size());
                EXPECT_FALSE(starting(all, "chart_label " + p + "|" + label).empty()) << label;
            }
        }
        const std::vector<Widget> pane_boxes = starting(all, "chart_box " + p + "|");
        ASSERT_FALSE(pane_boxes.empty()) << p;
        for (const Widget& b : pane_boxes) {
            EXPECT_TRUE(b.box.inside(area)) << p << " box " << b.name;
            boxes.push_back({p + "|" + b.name, b.box});
        }
        // A box's texts within it, their names "TITLE|TEXT".
        for (const Widget& t : starting(all, "chart_text " + p + "|")) {
            const std::string title = t.name.substr(0, t.name.find('|'));
            const auto box = std::find_if(pane_boxes.begin(), pane_boxes.end(), [&](const Widget& b) { return b.name == title; });
            ASSERT_NE(box, pane_boxes.end()) << t.name;
            EXPECT_TRUE(t.box.inside(box->box)) << p << " text " << t.name << " outside its box";
            texts.push_back({p + " text " + t.name, t.box});
        }
        // The titles and the arrows' labels within the scroll area and clear of every box.
        const std::vector<Widget> titles = starting(all, "chart_title " + p + "|"), labels = starting(all, "chart_label " + p + "|");
        EXPECT_FALSE(titles.empty()) << p;
        EXPECT_FALSE(labels.empty()) << p;
        for (const auto* group : {&titles, &labels})
            for (const Widget& t : *group) {
                EXPECT_TRUE(t.box.inside(area)) << p << " " << t.name << " outside the chart's area";
                texts.push_back({p + " " + t.name, t.box});
            }
    }
    for (std::size_t i = 0; i < texts.size(); ++i) {
        for (std::size_t j = 0; j < i; ++j)
            EXPECT_FALSE(texts[i].box.overlaps(texts[j].box)) << texts[i].name << " overlaps " << texts[j].name;
        if (texts[i].name.find(" text ") != std::string::npos) continue;  // a box's own text is inside it
        for (const Widget& b : boxes) EXPECT_FALSE(texts[i].box.overlaps(b.box)) << texts[i].name << " over box " << b.name;
    }
}

TEST(CacheVizMemoryChart, TwoChartsAtTheDefaultSizeKeepEveryTextWholeAndApart) {
    REQUIRE_GUI();
    const vt::State state = run("chart-compare", kGpuRun + " --compare '--schedule column:32'");
    check_chart(state, {"A", "B"});
}

// A window wide enough for both charts' texts puts them side by side, their boxes level: every box
// of A left of every box of B, and each pane's top box at one height.
TEST(CacheVizMemoryChart, AWideWindowPutsTwoChartsSideBySide) {
    REQUIRE_GUI();
    const vt::State state = run("chart-wide", kGpuRun + " --window 3600x1000 --compare '--schedule column:32'");
    check_chart(state, {"A", "B"});
    const std::vector<Widget> all = widgets(state);
    const std::vector<Widget> a = starting(all, "chart_box A|"), b = starting(all, "chart_box B|");
    ASSERT_FALSE(a.empty());
    ASSERT_FALSE(b.empty());
    double a_right = 0, b_left = 1e9, a_top = 1e9, b_top = 1e9;
    for (const Widget& w : a) a_right = std::max(a_right, w.box.x + w.box.w), a_top = std::min(a_top, w.box.y);
    for (const Widget& w : b) b_left = std::min(b_left, w.box.x), b_top = std::min(b_top, w.box.y);
    EXPECT_LT(a_right, b_left);
    EXPECT_NEAR(a_top, b_top, 0.5);
}

TEST(CacheVizMemoryChart, TheSmallestWindowScrollsRatherThanCutsTheChart) {
    REQUIRE_GUI();
    const vt::State state = run("chart-small", kGpuRun + " --window 640x480");
    check_chart(state, {"A"});
    // The chart is wider and taller than the panel shows: the rest scrolls.
    const std::vector<Widget> all = widgets(state);
    const std::vector<Widget> view = starting(all, "chart_view"), content = starting(all, "chart_content");
    ASSERT_EQ(view.size(), 1u);
    ASSERT_EQ(content.size(), 1u);
    EXPECT_GT(content[0].box.w, view[0].box.w);
    EXPECT_GT(content[0].box.h, view[0].box.h);
}

// The legends --state records: "colour_legend PANES|density LO HI".
struct Legend {
    std::string panes;
    double lo = 0, hi = 0;
};
std::vector<Legend> legends(const vt::State& state) {
    std::vector<Legend> found;
    for (const Widget& w : starting(widgets(state), "colour_legend ")) {
        const std::size_t bar = w.name.find('|');
        Legend l{w.name.substr(0, bar)};
        EXPECT_EQ(std::sscanf(w.name.c_str() + bar + 1, "density %lf %lf", &l.lo, &l.hi), 2) << w.name;
        found.push_back(l);
    }
    return found;
}

// A pane's ramp as its cells are coloured ("pane P colouring ... range LO HI").
std::pair<double, double> colouring_range(const vt::State& state, const std::string& pane) {
    const std::string c = state.value("pane " + pane + " colouring rule");
    double lo = 0, hi = 0;
    EXPECT_EQ(std::sscanf(c.c_str() + c.find(" range ") + 7, "%lf %lf", &lo, &hi), 2) << c;
    return {lo, hi};
}

// The legend prints three significant digits.
void expect_range(const Legend& l, std::pair<double, double> range) {
    EXPECT_NEAR(l.lo, range.first, range.first * 5e-3) << l.panes;
    EXPECT_NEAR(l.hi, range.second, range.second * 5e-3) << l.panes;
}

TEST(CacheVizLegend, PanesColouredDifferentlyEachShowTheirOwnRange) {
    REQUIRE_GUI();
    // 32-byte lines (B) hold twice the elements of 16-byte ones (A): B's misses bunch into fewer,
    // denser cells, so the two ramps end apart.
    const vt::State state = run("legend-apart", "--size 32x32 --compare '--l1-line 32'");
    const auto a = colouring_range(state, "A"), b = colouring_range(state, "B");
    ASSERT_NE(a, b);
    const std::vector<Legend> shown = legends(state);
    ASSERT_EQ(shown.size(), 2u);
    EXPECT_EQ(shown[0].panes, "A");
    EXPECT_EQ(shown[1].panes, "B");
    expect_range(shown[0], a);
    expect_range(shown[1], b);
}

TEST(CacheVizLegend, PanesColouredAlikeShareOneLegend) {
    REQUIRE_GUI();
    // B given the line size A has by default: the same run.
    const vt::State state = run("legend-shared", "--size 32x32 --compare '--l1-line 16'");
    const auto a = colouring_range(state, "A");
    ASSERT_EQ(a, colouring_range(state, "B"));
    const std::vector<Legend> shown = legends(state);
    ASSERT_EQ(shown.size(), 1u);
    EXPECT_EQ(shown[0].panes, "A B");
    expect_range(shown[0], a);
}

}  // namespace
