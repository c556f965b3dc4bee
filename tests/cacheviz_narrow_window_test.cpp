// cacheviz's Stats tab in small windows (down to the smallest it accepts, 640x480), under a
// virtual X server: every value whole in its cell, no number split across lines. --state says
// which lines each value was drawn as and where (its cell, each line's box); the test measures the
// text itself (cacheviz draws with ImGui's default font, ProggyClean 13 px, 7 pixels a character)
// and, for the lines in view, reads the screenshot: the ink of a line starts at its first
// character and ends at its last, so the line was drawn whole, on one line, not cut by its column.
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

constexpr double kAdvance = 7, kLineHeight = 13;  // ProggyClean at 13 px

struct Box {
    double x = 0, y = 0, w = 0, h = 0;
};
struct Line {
    std::string text;
    Box box;
};
// A stats value as drawn: its cell (x, y, the width it may fill, the height drawn) and its lines.
struct Cell {
    Box box;
    std::vector<Line> lines;
};

struct Shot {
    Canvas image;
    vt::State state;
    Box view;                          // the stats region in view
    std::map<std::string, Cell> cells;  // by "PANE|key"
};

// "widget NAME x y w h" (NAME may hold spaces): false for other lines.
bool parse_widget(const std::string& line, std::string& name, Box& b) {
    if (line.rfind("widget ", 0) != 0) return false;
    std::string rest = line.substr(7);
    double v[4];
    for (int k = 3; k >= 0; --k) {
        const std::size_t space = rest.rfind(' ');
        if (space == std::string::npos) return false;
        v[k] = std::stod(rest.substr(space + 1));
        rest.erase(space);
    }
    name = rest;
    b = {v[0], v[1], v[2], v[3]};
    return true;
}

Shot shoot(const std::string& name, const std::string& args) {
    const fs::path dir = vt::test_dir(name);
    const int code = vt::run_under_xvfb(vt::cacheviz_bin(),
                                        args + " --frames 3 --screenshot '" + (dir / "shot.png").string() + "' --state '" +
                                            (dir / "state.txt").string() + "'",
                                        dir / "log.txt");
    EXPECT_EQ(code, 0) << vt::read_file(dir / "log.txt");
    Shot s{cachesim::viz::decode_png(vt::read_file(dir / "shot.png")), vt::State(vt::read_file(dir / "state.txt")), {}, {}};
    for (const std::string& l : s.state.lines) {
        std::string widget;
        Box b;
        if (!parse_widget(l, widget, b)) continue;
        if (widget == "stats_view") s.view = b;
        else if (widget.rfind("stat_cell ", 0) == 0) s.cells[widget.substr(10)].box = b;
        else if (widget.rfind("stat_line ", 0) == 0) {
            const std::string rest = widget.substr(10);
            const std::size_t bar = rest.find('|', rest.find('|') + 1);  // after PANE|key
            s.cells[rest.substr(0, bar)].lines.push_back({rest.substr(bar + 1), b});
        }
    }
    return s;
}

std::vector<std::string> words(const std::string& s) {
    std::istringstream in(s);
    std::vector<std::string> w;
    for (std::string x; in >> x;) w.push_back(x);
    return w;
}

std::string joined(const std::vector<std::string>& w) {
    std::string s;
    for (const std::string& x : w) s += (s.empty() ? "" : " ") + x;
    return s;
}

// Text is black on the panel's light greys (the row backgrounds, the borders, grey labels).
bool ink(Rgba p) { return p.r < 100 && p.g < 100 && p.b < 100; }

// The first and last columns in [x0, x1) with ink in rows [y0, y1); {-1, -1} without.
std::pair<int, int> ink_columns(const Canvas& c, int x0, int x1, int y0, int y1) {
    std::pair<int, int> span{-1, -1};
    for (int x = std::max(0, x0); x < std::min(x1, c.width()); ++x)
        for (int y = std::max(0, y0); y < std::min(y1, c.height()); ++y)
            if (ink(c.pixel(x, y))) {
                if (span.first < 0) span.first = x;
                span.second = x;
                break;
            }
    return span;
}

// Every stats value of the `panes` shown: the lines it was drawn as, joined, are the value (it
// broke only at spaces, so each number is whole on one line); each line fits its cell; no two
// lines overlap; and the lines in view show their ink where their text is. At least `in_view`
// lines must be in view.
void expect_values_whole(const Shot& s, const std::vector<std::string>& panes, int in_view) {
    ASSERT_GT(s.view.w, 0) << "no stats_view in --state";
    int seen = 0, values = 0;
    std::vector<Line> all;
    for (const std::string& pane : panes) {
        const std::string prefix = "pane " + pane + " stat ";
        for (const std::string& l : s.state.lines) {
            if (l.rfind(prefix, 0) != 0) continue;
            const std::size_t eq = l.find(" = ", prefix.size());
            ASSERT_NE(eq, std::string::npos) << l;
            const std::string key = l.substr(prefix.size(), eq - prefix.size()), value = l.substr(eq + 3);
            SCOPED_TRACE(pane + ": " + key + " = " + value);
            ++values;
            const auto it = s.cells.find(pane + "|" + key);
            ASSERT_NE(it, s.cells.end()) << "value not drawn";
            const Cell& cell = it->second;
            ASSERT_FALSE(cell.lines.empty());
            std::vector<std::string> drawn;
            for (const Line& line : cell.lines) drawn.push_back(line.text);
            EXPECT_EQ(joined(drawn), joined(words(value))) << "broken inside a word";
            for (const std::string& w : words(value)) {
                if (w.find_first_of("0123456789") == std::string::npos) continue;
                EXPECT_TRUE(std::any_of(drawn.begin(), drawn.end(), [&](const std::string& d) { return d.find(w) != std::string::npos; }))
                    << w << " split across lines";
            }
            for (std::size_t k = 0; k < cell.lines.size(); ++k) {
                const Line& line = cell.lines[k];
                const double w = kAdvance * static_cast<double>(line.text.size());
                EXPECT_NEAR(line.box.w, w, 0.5) << "'" << line.text << "': not 7 pixels a character (another font?)";
                EXPECT_GE(line.box.x, cell.box.x - 0.5) << line.text;
                EXPECT_LE(line.box.x + w, cell.box.x + cell.box.w + 0.5) << "'" << line.text << "' runs past its cell";
                EXPECT_NEAR(line.box.y, cell.box.y + kLineHeight * static_cast<double>(k), 0.5) << line.text;
                all.push_back({line.text, {line.box.x, line.box.y, w, kLineHeight}});
                const bool in_view = line.box.x >= s.view.x && line.box.x + w <= s.view.x + s.view.w && line.box.y >= s.view.y &&
                                     line.box.y + kLineHeight <= s.view.y + s.view.h;
                if (!in_view || line.text.empty()) continue;
                ++seen;
                const int x = static_cast<int>(std::lround(line.box.x)), y = static_cast<int>(std::lround(line.box.y));
                const int end = x + static_cast<int>(w);
                const auto [first, last] = ink_columns(s.image, x - 3, end + 4, y, y + static_cast<int>(kLineHeight));
                EXPECT_GE(first, x) << "'" << line.text << "' ink before its first character";
                EXPECT_LT(first, x + kAdvance) << "'" << line.text << "' does not start where drawn";
                EXPECT_GE(last, end - kAdvance) << "'" << line.text << "' cut short";
                EXPECT_LT(last, end) << "'" << line.text << "' ink past its last character";
            }
        }
    }
    EXPECT_GT(values, 20) << "the stats rows in --state";
    EXPECT_GE(seen, in_view) << "lines checked in the screenshot";
    for (std::size_t a = 0; a < all.size(); ++a)
        for (std::size_t b = a + 1; b < all.size(); ++b) {
            const Box &p = all[a].box, &q = all[b].box;
            const bool apart = p.x + p.w <= q.x || q.x + q.w <= p.x || p.y + p.h <= q.y || q.y + q.h <= p.y;
            EXPECT_TRUE(apart || all[a].text.empty() || all[b].text.empty()) << "'" << all[a].text << "' overlaps '" << all[b].text << "'";
        }
}

// 512 x 512 work items with an L2: counts up to 12,845,056.
const std::string kLarge = "--size 512x512 --l2-size 64K ";

}  // namespace

// The smallest window: a stats panel about 80 pixels wide, where each label stands above its value.
TEST(CachevizNarrowWindow, SmallestWindowKeepsNumbersWhole) {
    REQUIRE_GUI();
    const Shot s = shoot("narrow640", kLarge + "--window 640x480");
    expect_values_whole(s, {"A"}, 3);
    EXPECT_EQ(s.state.value("pane A stat first level accesses ="), "12,845,056");
}

// Two GPU runs in the smallest window: A's and B's values one below the other, "GPU h200 (N rounds)"
// wrapped between its words.
TEST(CachevizNarrowWindow, SmallestWindowComparingGpuRuns) {
    REQUIRE_GUI();
    const Shot s = shoot("narrowgpu", "--start-gpu h200 --start-sms 4 --size 256x256 --window 640x480 --compare \"--schedule tiled:16x16\"");
    expect_values_whole(s, {"A", "B"}, 3);
    const Box a = s.cells.at("A|first level accesses").box, b = s.cells.at("B|first level accesses").box;
    EXPECT_GT(b.y, a.y) << "B's value below A's";
}

// A tall narrow window shows most rows of two runs: each checked in the pixels too.
TEST(CachevizNarrowWindow, TallNarrowWindowComparing) {
    REQUIRE_GUI();
    const Shot s = shoot("narrowtall", kLarge + "--window 640x1000 --compare \"--schedule tiled:16x16\"");
    expect_values_whole(s, {"A", "B"}, 12);
}

// 1000 x 700, comparing: label, A and B side by side, each value column as wide as its widest
// number at least (12,845,056 was split after its first comma here).
TEST(CachevizNarrowWindow, SideBySideColumnsHoldTheirNumbers) {
    REQUIRE_GUI();
    const Shot s = shoot("narrow1000", kLarge + "--window 1000x700 --compare \"--schedule tiled:16x16\"");
    expect_values_whole(s, {"A", "B"}, 12);
    const Box a = s.cells.at("A|first level accesses").box, b = s.cells.at("B|first level accesses").box;
    EXPECT_EQ(a.y, b.y) << "A and B side by side";
    EXPECT_GT(b.x, a.x + a.w);
}
