// cacheviz in small windows (down to the smallest it accepts, 640x480), under a virtual X server:
// nothing cut at a panel's edge. --state says what each piece of text was drawn as and where: the
// Stats tab's values (their cell, each line's box), the controls column's labels (each line's box,
// the frame of their field, beside them or below), the time axis's title and the progress bars'
// labels (the form shown, the longest form and the box). The test measures the text itself
// (cacheviz draws with ImGui's default font, ProggyClean 13 px, 7 pixels a character) and, for
// the lines in view, reads the screenshot: the ink of a line starts at its first character and
// ends at its last, so the line was drawn whole, on one line, not cut by its column.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
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

// The screenshot `png` and the --state `state` written with it.
Shot read_shot(const fs::path& png, const fs::path& state) {
    Shot s{cachesim::viz::decode_png(vt::read_file(png)), vt::State(vt::read_file(state)), {}, {}};
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

Shot shoot(const std::string& name, const std::string& args) {
    const fs::path dir = vt::test_dir(name);
    const int code = vt::run_under_xvfb(vt::cacheviz_bin(),
                                        args + " --frames 3 --screenshot '" + (dir / "shot.png").string() + "' --state '" +
                                            (dir / "state.txt").string() + "'",
                                        dir / "log.txt");
    EXPECT_EQ(code, 0) << vt::read_file(dir / "log.txt");
    return read_shot(dir / "shot.png", dir / "state.txt");
}

// Every "widget NAME x y w h" line of --state, in order (names may repeat).
std::vector<std::pair<std::string, Box>> widgets(const vt::State& state) {
    std::vector<std::pair<std::string, Box>> all;
    for (const std::string& l : state.lines) {
        std::string name;
        Box b;
        if (parse_widget(l, name, b)) all.push_back({name, b});
    }
    return all;
}

// The box of the one widget named `name`; a zero box (and a failure) when there is none.
Box widget(const Shot& s, const std::string& name) {
    for (const auto& [n, b] : widgets(s.state))
        if (n == name) return b;
    ADD_FAILURE() << "no widget " << name << " in --state";
    return {};
}

// The widgets whose names start with `prefix`: the rest of the name and the box.
std::vector<std::pair<std::string, Box>> widgets_starting(const Shot& s, const std::string& prefix) {
    std::vector<std::pair<std::string, Box>> found;
    for (const auto& [n, b] : widgets(s.state))
        if (n.rfind(prefix, 0) == 0) found.push_back({n.substr(prefix.size()), b});
    return found;
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

// One line of text drawn at `box` (its left and top) in the screenshot: its ink starts in its
// first character and ends in its last, so it was drawn whole, not cut at either end.
void expect_ink_spans(const Canvas& image, const std::string& text, const Box& box) {
    const double w = kAdvance * static_cast<double>(text.size());
    const int x = static_cast<int>(std::lround(box.x)), y = static_cast<int>(std::lround(box.y));
    const int end = x + static_cast<int>(w);
    const auto [first, last] = ink_columns(image, x - 3, end + 4, y, y + static_cast<int>(kLineHeight));
    EXPECT_GE(first, x) << "'" << text << "' ink before its first character";
    EXPECT_LT(first, x + kAdvance) << "'" << text << "' does not start where drawn";
    EXPECT_GE(last, end - kAdvance) << "'" << text << "' cut short";
    EXPECT_LT(last, end) << "'" << text << "' ink past its last character";
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
                expect_ink_spans(s.image, line.text, line.box);
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

// `width`, as --state gives it, is `text`'s at 7 pixels a character (ImGui rounds a width up to
// whole pixels, so a long line can measure one more).
void expect_text_width(double width, const std::string& text) {
    const double expected = kAdvance * static_cast<double>(text.size());
    EXPECT_TRUE(width >= expected - 0.5 && width <= expected + 1.5)
        << "'" << text << "' " << width << " pixels wide: not 7 a character (another font?)";
}

// The words of `s` without the punctuation around them: "(work" and "items)" are "work" and "items".
std::vector<std::string> bare_words(const std::string& s) {
    std::vector<std::string> bare;
    for (const std::string& w : words(s)) {
        const std::size_t from = w.find_first_not_of("()[]:;,."), to = w.find_last_not_of("()[]:;,.");
        if (from != std::string::npos) bare.push_back(w.substr(from, to - from + 1));
    }
    return bare;
}

// A shorter form of `full` made by leaving words out, never by cutting one: its words, bare, are
// some of `full`'s, in order.
bool whole_words_of(const std::string& shown, const std::string& full) {
    const std::vector<std::string> part = bare_words(shown), whole = bare_words(full);
    std::size_t at = 0;
    for (const std::string& w : part) {
        while (at < whole.size() && whole[at] != w) ++at;
        if (at == whole.size()) return false;
        ++at;
    }
    return true;
}

bool inside_x(const Box& inner, const Box& outer) {
    return inner.x >= outer.x - 0.5 && inner.x + inner.w <= outer.x + outer.w + 0.5;
}
bool inside(const Box& inner, const Box& outer) {
    return inside_x(inner, outer) && inner.y >= outer.y - 0.5 && inner.y + inner.h <= outer.y + outer.h + 0.5;
}

// The controls column: everything in it ends inside its edge; each field's label is whole (its
// lines, joined, are the label: wrapped only at spaces), 7 pixels a character, inside the column,
// beside its frame (right of it, on its row) or above it (ending before the frame starts); the
// labels in view show their ink where their text is. At least `in_view` labels must be in view.
// Returns how many labels stand above their frames.
int expect_controls_whole(const Shot& s, int in_view) {
    const Box view = widget(s, "controls_view"), items = widget(s, "controls_items");
    EXPECT_GT(view.w, 0);
    EXPECT_LE(items.x + items.w, view.x + view.w + 0.5) << "an item of the controls column reaches past its edge";
    for (const char* name : {"compare", "edit_a", "edit_b", "copy_a_to_b", "show_difference", "aggregate", "colour_by",
                             "miss_rate_strip", "fit_view", "save_png", "copy_command_A", "copy_command_B"})
        for (const auto& [n, b] : widgets(s.state))
            if (n == name) {
                EXPECT_TRUE(inside_x(b, view)) << name << " reaches past the column's edge";
            }
    int controls = 0, seen = 0, above = 0;
    std::vector<Line> lines;
    for (const auto& [name, box] : widgets(s.state)) {
        if (name.rfind("control_label ", 0) == 0) {
            const std::string rest = name.substr(14);
            const std::size_t bar = rest.rfind('|');
            lines.push_back({rest.substr(0, bar) + "\n" + rest.substr(bar + 1), box});  // label, then the line drawn
            continue;
        }
        const bool is_above = name.rfind("control_above ", 0) == 0, is_beside = name.rfind("control_beside ", 0) == 0;
        if (!is_above && !is_beside) continue;
        const std::string label = name.substr(is_above ? 14 : 15);
        SCOPED_TRACE("control '" + label + "'");
        ++controls;
        above += is_above;
        const Box& frame = box;
        EXPECT_TRUE(inside_x(frame, view)) << "its frame reaches past the column's edge";
        std::vector<std::string> drawn;
        for (const Line& l : lines) {
            const std::size_t nl = l.text.find('\n');
            EXPECT_EQ(l.text.substr(0, nl), label) << "a line of another control";
            const std::string text = l.text.substr(nl + 1);
            drawn.push_back(text);
            expect_text_width(l.box.w, text);
            EXPECT_TRUE(inside_x(l.box, view)) << "'" << text << "' runs past the column's edge";
            if (is_above) {
                EXPECT_LE(l.box.y + kLineHeight, frame.y + 0.5) << "'" << text << "' not above its frame";
            } else {
                EXPECT_GE(l.box.x, frame.x + frame.w) << "'" << text << "' over its frame";
                EXPECT_TRUE(l.box.y >= frame.y && l.box.y + kLineHeight <= frame.y + frame.h + 0.5)
                    << "'" << text << "' not on its frame's row";
            }
            if (l.box.y >= view.y + 8 && l.box.y + kLineHeight <= view.y + view.h - 8) {
                ++seen;
                expect_ink_spans(s.image, text, l.box);
            }
        }
        EXPECT_EQ(joined(drawn), joined(words(label))) << "broken inside a word, or lines missing";
        lines.clear();
    }
    EXPECT_TRUE(lines.empty()) << "label lines with no frame after them";
    EXPECT_GE(controls, 10) << "the controls' labels in --state";
    EXPECT_GE(seen, in_view) << "labels checked in the screenshot";
    return above;
}

// Each pane's time-axis title: a form of the whole title, whole words of it, on one line under
// the cells (7 pixels a character, inside their width), the whole title wherever it fits there,
// its ink where its text is.
void expect_axis_titles_whole(const Shot& s, const std::vector<std::string>& panes) {
    for (const std::string& pane : panes) {
        SCOPED_TRACE("pane " + pane);
        const Box cells = widget(s, "diagram_cells " + pane);
        const auto titles = widgets_starting(s, "axis_title " + pane + "|");
        ASSERT_EQ(titles.size(), 1u) << "one time-axis title a pane";
        const auto& [texts, box] = titles.front();
        const std::string shown = texts.substr(0, texts.find('|')), full = texts.substr(texts.find('|') + 1);
        SCOPED_TRACE("title '" + shown + "' of '" + full + "'");
        EXPECT_EQ(shown.rfind("time step", 0), 0u);
        EXPECT_EQ(full.rfind("time step (", 0), 0u);
        EXPECT_TRUE(whole_words_of(shown, full)) << "a word cut";
        expect_text_width(box.w, shown);
        EXPECT_TRUE(inside_x(box, cells)) << "not under the cells";
        if (kAdvance * static_cast<double>(full.size()) <= cells.w) {
            EXPECT_EQ(shown, full) << "shortened where the whole title fits";
        }
        expect_ink_spans(s.image, shown, box);
    }
}

// Each pane's progress bar (`what`: "simulating" or "zooming in") and its Cancel button inside the
// pane, the bar's label a form of its whole text in whole words, on one line inside the bar
// (7 pixels a character), the whole text wherever it fits with room to spare, its ink where its
// text is.
void expect_progress_labels_whole(const Shot& s, const std::vector<std::string>& panes, const std::string& what) {
    for (const std::string& pane : panes) {
        SCOPED_TRACE("pane " + pane);
        const Box region = widget(s, "diagram_pane " + pane), bar = widget(s, "progress_bar " + pane),
                  cancel = widget(s, "progress_cancel " + pane);
        EXPECT_TRUE(inside_x(bar, region)) << "the bar reaches past the pane";
        EXPECT_TRUE(inside_x(cancel, region)) << "Cancel reaches past the pane";
        EXPECT_LE(bar.x + bar.w, cancel.x) << "the bar runs into Cancel";
        const auto labels = widgets_starting(s, "progress_label " + pane + "|");
        ASSERT_EQ(labels.size(), 1u) << "one progress label a pane";
        const auto& [texts, box] = labels.front();
        const std::string shown = texts.substr(0, texts.find('|')), full = texts.substr(texts.find('|') + 1);
        SCOPED_TRACE("label '" + shown + "' of '" + full + "'");
        EXPECT_EQ(full.rfind(what, 0), 0u);
        ASSERT_FALSE(shown.empty()) << "these bars have room for a short form";
        EXPECT_TRUE(whole_words_of(shown, full)) << "a word cut";
        expect_text_width(box.w, shown);
        EXPECT_TRUE(inside(Box{box.x, box.y, box.w, kLineHeight}, bar)) << "not inside its bar";
        if (kAdvance * static_cast<double>(full.size()) + 16 <= bar.w) {
            EXPECT_EQ(shown, full) << "shortened where the whole text fits";
        }
        expect_ink_spans(s.image, shown, box);
    }
}

// A long run (1024 x 1024 work items, 1,048,576 steps) in a window `size` ("640x480"), alone or
// beside a second schedule: while it simulates, the progress bars; once done, the controls and
// the time axis's titles; zoomed in past the recorded cells (one wheel turn of 60 notches over
// the last pane's cells), the bars of the full-resolution re-simulation.
void expect_small_window_whole(const std::string& name, const std::string& size, bool compare) {
    const fs::path dir = vt::test_dir(name);
    const std::string args = "--size 1024x1024 --window " + size + (compare ? " --compare '--schedule column:32'" : "");
    const std::vector<std::string> panes = compare ? std::vector<std::string>{"A", "B"} : std::vector<std::string>{"A"};
    std::ofstream(dir / "simulating.script") << "2 snapshot " << (dir / "simulating").string() << "\n";
    ASSERT_EQ(vt::run_under_xvfb(vt::cacheviz_bin(),
                                 args + " --script '" + (dir / "simulating.script").string() + "' --screenshot '" +
                                     (dir / "done.png").string() + "' --state '" + (dir / "done.txt").string() + "'",
                                 dir / "log.txt"),
              0)
        << vt::read_file(dir / "log.txt");
    {
        SCOPED_TRACE("while simulating");
        expect_progress_labels_whole(read_shot(dir / "simulating.png", dir / "simulating.txt"), panes, "simulating");
    }
    const Shot done = read_shot(dir / "done.png", dir / "done.txt");
    {
        SCOPED_TRACE("done");
        expect_axis_titles_whole(done, panes);
        expect_controls_whole(done, 5);
    }
    const Box cells = widget(done, "diagram_cells " + panes.back());
    const int x = static_cast<int>(cells.x + cells.w / 2), y = static_cast<int>(cells.y + cells.h / 2);
    std::ofstream(dir / "zoom.script") << "0 idle\n1 wheel " << x << " " << y << " 60\n3 snapshot " << (dir / "zooming").string()
                                       << "\n4 key Escape\n";
    const std::string zoom_args = args + " --script '" + (dir / "zoom.script").string() + "'";
    ASSERT_EQ(vt::run_under_xvfb(vt::cacheviz_bin(), zoom_args, dir / "log.txt"), 0) << vt::read_file(dir / "log.txt");
    SCOPED_TRACE("zooming in");
    expect_progress_labels_whole(read_shot(dir / "zooming.png", dir / "zooming.txt"), panes, "zooming in");
}

// 512 x 512 work items with an L2: counts up to 12,845,056.
const std::string kLarge = "--size 512x512 --l2-size 64K ";

}  // namespace

// The smallest window, one run of large counts: the values, the axis's title and the controls whole.
TEST(CachevizNarrowWindow, SmallestWindowKeepsNumbersWhole) {
    REQUIRE_GUI();
    const Shot s = shoot("narrow640", kLarge + "--window 640x480");
    expect_values_whole(s, {"A"}, 2);  // under the colour legend, the panel has room for two rows
    expect_axis_titles_whole(s, {"A"});
    EXPECT_GT(expect_controls_whole(s, 5), 0) << "no label above its frame in the narrowest column";
    EXPECT_EQ(s.state.value("pane A stat first level accesses ="), "12,845,056");
}

// Two GPU runs in the smallest window: A's and B's values one below the other, "GPU h200 (N rounds)"
// wrapped between its words.
TEST(CachevizNarrowWindow, SmallestWindowComparingGpuRuns) {
    REQUIRE_GUI();
    const Shot s = shoot("narrowgpu", "--start-gpu h200 --start-sms 4 --size 256x256 --window 640x480 --compare \"--schedule tiled:16x16\"");
    expect_values_whole(s, {"A", "B"}, 3);
    expect_axis_titles_whole(s, {"A", "B"});
    expect_controls_whole(s, 5);
    const Box a = s.cells.at("A|first level accesses").box, b = s.cells.at("B|first level accesses").box;
    EXPECT_GT(b.y, a.y) << "B's value below A's";
}

// A tall narrow window shows most rows of two runs: each checked in the pixels too.
TEST(CachevizNarrowWindow, TallNarrowWindowComparing) {
    REQUIRE_GUI();
    const Shot s = shoot("narrowtall", kLarge + "--window 640x1000 --compare \"--schedule tiled:16x16\"");
    expect_values_whole(s, {"A", "B"}, 12);
    expect_axis_titles_whole(s, {"A", "B"});
    expect_controls_whole(s, 15);
}

// 1000 x 700, comparing: label, A and B side by side, each value column as wide as its widest
// number at least (12,845,056 was split after its first comma here).
TEST(CachevizNarrowWindow, SideBySideColumnsHoldTheirNumbers) {
    REQUIRE_GUI();
    const Shot s = shoot("narrow1000", kLarge + "--window 1000x700 --compare \"--schedule tiled:16x16\"");
    expect_values_whole(s, {"A", "B"}, 12);
    expect_axis_titles_whole(s, {"A", "B"});
    expect_controls_whole(s, 8);
    const Box a = s.cells.at("A|first level accesses").box, b = s.cells.at("B|first level accesses").box;
    EXPECT_EQ(a.y, b.y) << "A and B side by side";
    EXPECT_GT(b.x, a.x + a.w);
}

// The controls column takes a share of a small window, at most a third of it, not a fixed 340
// pixels; labels that do not fit beside their fields stand above them, whole.
TEST(CachevizNarrowWindow, ControlsColumnScalesWithTheWindow) {
    REQUIRE_GUI();
    for (const auto& [size, width] : {std::pair{"640x480", 640.0}, std::pair{"800x600", 800.0}}) {
        SCOPED_TRACE(size);
        const Shot s = shoot(std::string("column") + size, std::string("--window ") + size);
        const Box view = widget(s, "controls_view");
        EXPECT_LE(view.x + view.w, width / 3) << "the controls column takes more than a third of the window";
        EXPECT_GT(expect_controls_whole(s, 5), 0) << "no label above its frame in a narrow column";
    }
}

// While a long run simulates, while zoomed in past its cells and once done: the progress bars'
// labels, the time axis's title and the controls' labels whole, alone and comparing two runs.
TEST(CachevizNarrowWindow, SmallestWindowTitlesAndProgressWhole) {
    REQUIRE_GUI();
    expect_small_window_whole("titles640", "640x480", false);
}

TEST(CachevizNarrowWindow, SmallestWindowComparingTitlesAndProgressWhole) {
    REQUIRE_GUI();
    expect_small_window_whole("titles640ab", "640x480", true);
}

TEST(CachevizNarrowWindow, SmallWindowTitlesAndProgressWhole) {
    REQUIRE_GUI();
    expect_small_window_whole("titles800", "800x600", false);
}

TEST(CachevizNarrowWindow, SmallWindowComparingTitlesAndProgressWhole) {
    REQUIRE_GUI();
    expect_small_window_whole("titles800ab", "800x600", true);
}
