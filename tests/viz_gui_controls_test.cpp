// cacheviz's controls under a virtual X server, driven by --script (synthetic key and mouse events
// through the window's own input path) and read back through --state (the visible state as text)
// and screenshots: keys, a click shorter than a frame, the previous run marked while a new one
// simulates, the cache-contents panel against a recency list written from the stencil's
// definition, the difference view, saving the window and the `cachesim diagram` command. Also
// the clear error without a display and --max-seconds. (The suite name VizGui* lets the
// sanitizer run skip leak checks for the OpenGL driver, as for the other GUI tests.)
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli_util.hpp"
#include "tests/csv_table.hpp"
#include "tests/lru_reference.hpp"
#include "tests/viz_gui_util.hpp"
#include "viz/canvas.hpp"
#include "viz/cell_state.hpp"

using namespace cachesim::viz;
namespace vt = cachesim::viz::testing;
using vt::cacheviz_bin;
using vt::read_placement;
using vt::State;
using vt::test_dir;
namespace fs = std::filesystem;

namespace {

int gui(const std::string& args, const fs::path& log) { return vt::run_under_xvfb(cacheviz_bin(), args, log); }

fs::path write_script(const fs::path& dir, const std::string& text) {
    const fs::path p = dir / "script.txt";
    std::ofstream(p) << text;
    return p;
}

// The centre of a named button (--state's "widget NAME x y w h").
std::pair<int, int> widget_centre(const State& s, const std::string& name) {
    const std::vector<double> r = s.numbers("widget " + name);
    EXPECT_EQ(r.size(), 4u) << name;
    if (r.size() != 4) return {0, 0};
    return {static_cast<int>(r[0] + r[2] / 2), static_cast<int>(r[1] + r[3] / 2)};
}

int count_pixels(const Canvas& c, int x0, int y0, int x1, int y1, Rgba colour, int tolerance = 0) {
    int n = 0;
    for (int y = std::max(0, y0); y < std::min(c.height(), y1); ++y)
        for (int x = std::max(0, x0); x < std::min(c.width(), x1); ++x) {
            const Rgba p = c.pixel(x, y);
            n += std::abs(p.r - colour.r) <= tolerance && std::abs(p.g - colour.g) <= tolerance && std::abs(p.b - colour.b) <= tolerance;
        }
    return n;
}

const std::string kWindow = " --window 1280x800 ";

}  // namespace

// Without a display: one line saying so, exit 1 (SFML alone aborts with exit 134).
TEST(VizGuiControls, NoDisplayIsAClearError) {
    if (cacheviz_bin().empty()) GTEST_SKIP() << "cacheviz is not built";
    const fs::path log = test_dir("nodisplay") / "log.txt";
    const std::string cmd = "env -u DISPLAY '" + cacheviz_bin() + "' --preset thesis-stencil >'" + log.string() + "' 2>&1";
    const int status = std::system(cmd.c_str());
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 1) << vt::read_file(log);
    EXPECT_NE(vt::read_file(log).find("cacheviz: error: cannot open the X display (DISPLAY is not set)"), std::string::npos)
        << vt::read_file(log);
}

// A configuration whose diagram needs more than --max-memory is refused before any window opens:
// 100000x100000 floats at 16 B lines are 2.5 * 10^9 rows per array, two arrays (cachesim diagram
// refuses the same).
TEST(VizGuiControls, HugeDiagramRefusedBeforeItRuns) {
    if (cacheviz_bin().empty()) GTEST_SKIP() << "cacheviz is not built";
    const fs::path log = test_dir("hugesize") / "log.txt";
    const std::string cmd = "env -u DISPLAY '" + cacheviz_bin() + "' --size 100000x100000 --max-memory 1G >'" +
                            log.string() + "' 2>&1";
    const int status = std::system(cmd.c_str());
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 2) << vt::read_file(log);
    EXPECT_NE(vt::read_file(log).find("more than --max-memory"), std::string::npos) << vt::read_file(log);
    EXPECT_NE(vt::read_file(log).find("diagram has 50000000"), std::string::npos) << vt::read_file(log);  // 5e9 rows and a few
}

// --max-seconds ends an interactive session (exit 0), and a screenshot that waits for a run too
// long for it (exit 1, no picture).
TEST(VizGuiControls, MaxSecondsExits) {
    REQUIRE_GUI();
    const fs::path dir = test_dir("maxsec");
    const auto t0 = std::chrono::steady_clock::now();
    EXPECT_EQ(gui("--preset thesis-stencil" + kWindow + "--max-seconds 2", dir / "a.txt"), 0) << vt::read_file(dir / "a.txt");
    EXPECT_NE(vt::read_file(dir / "a.txt").find("--max-seconds 2 reached"), std::string::npos) << vt::read_file(dir / "a.txt");
    EXPECT_EQ(gui("--preset thesis-stencil --size 2048x2048 --stencil 9x9" + kWindow + "--max-seconds 1 --screenshot '" +
                      (dir / "never.png").string() + "'",
                  dir / "b.txt"),
              1);
    EXPECT_NE(vt::read_file(dir / "b.txt").find("simulations still running after 1 s"), std::string::npos) << vt::read_file(dir / "b.txt");
    EXPECT_FALSE(fs::exists(dir / "never.png"));
    // Both ended promptly (each start of Xvfb takes about a second).
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 60.0);
}

// The keys: End, Left (two presses within one frame both count), Shift+Left (10 steps), + zooms,
// F fits, Home, Ctrl+S saves the window; Esc quits.
TEST(VizGuiControls, KeysDriveThePlayheadViewAndSave) {
    REQUIRE_GUI();
    const fs::path dir = test_dir("keys");
    const fs::path saved = dir / "saved.png";
    const fs::path script = write_script(dir,
                                         "0 idle\n"
                                         "1 key End\n"
                                         "2 key Left\n2 key Left\n"  // two presses and releases within one frame
                                         "3 key shift+Left\n"
                                         "12 snapshot " + (dir / "p1").string() + "\n"
                                         "13 key Add\n"
                                         "18 idle\n19 snapshot " + (dir / "p2").string() + "\n"
                                         "20 key F\n21 key Home\n22 key ctrl+S\n");
    const int code = gui("--preset thesis-stencil" + kWindow + "--frames 2 --script '" + script.string() + "' --save-png '" +
                             saved.string() + "' --screenshot '" + (dir / "shot.png").string() + "' --state '" +
                             (dir / "state.txt").string() + "'",
                         dir / "log.txt");
    ASSERT_EQ(code, 0) << vt::read_file(dir / "log.txt");
    const State p1(vt::read_file(dir / "p1.txt")), p2(vt::read_file(dir / "p2.txt")), end(vt::read_file(dir / "state.txt"));
    EXPECT_EQ(p1.value("playhead"), "243");  // 255 - 1 - 1 - 10
    const std::vector<double> zoomed = p2.numbers("view");
    ASSERT_EQ(zoomed.size(), 4u);
    EXPECT_LT(zoomed[1] - zoomed[0], 256 * 0.8);  // two wheel notches: 0.85^2 of the span
    EXPECT_GT(zoomed[1] - zoomed[0], 256 * 0.6);
    EXPECT_EQ(end.value("playhead"), "0");
    EXPECT_EQ(end.value("view"), "0.000 256.000 0.000 128.000");
    EXPECT_EQ(end.value("status"), "saved the window to " + saved.string());
    // The saved PNG is the window, with the diagram's colours in it.
    const Canvas png = decode_png(vt::read_file(saved));
    EXPECT_EQ(png.width(), 1280);
    EXPECT_EQ(png.height(), 800);
    EXPECT_GT(count_pixels(png, 0, 0, 1280, 800, cell_color(CellState::fetched_from_memory)), 100);
    EXPECT_GT(count_pixels(png, 0, 0, 1280, 800, cell_color(CellState::in_l1)), 1000);

    // Escape ends the session (well before the safety limit).
    const fs::path esc = write_script(dir, "0 idle\n1 key Escape\n");
    ASSERT_EQ(gui("--preset thesis-stencil" + kWindow + "--max-seconds 60 --script '" + esc.string() + "' --state '" +
                      (dir / "esc.txt").string() + "'",
                  dir / "esc_log.txt"),
              0);
    EXPECT_EQ(vt::read_file(dir / "esc_log.txt").find("reached"), std::string::npos) << vt::read_file(dir / "esc_log.txt");
    EXPECT_EQ(State(vt::read_file(dir / "esc.txt")).value("playhead"), "0");
}

// A right click pressed and released within one frame moves the playhead to the clicked step.
TEST(VizGuiControls, ClickWithinOneFrameIsSeen) {
    REQUIRE_GUI();
    const fs::path dir = test_dir("click");
    ASSERT_EQ(gui("--preset thesis-stencil" + kWindow + "--frames 2 --screenshot '" + (dir / "a.png").string() + "' --layout '" +
                      (dir / "layout.txt").string() + "'",
                  dir / "log.txt"),
              0)
        << vt::read_file(dir / "log.txt");
    const vt::Placement p = read_placement(dir / "layout.txt");
    ASSERT_DOUBLE_EQ(p.t1, 256);
    const fs::path script = write_script(dir, "0 idle\n1 click " + std::to_string(p.px(100)) + " " + std::to_string(p.py(30)) +
                                                  " right\n");
    ASSERT_EQ(gui("--preset thesis-stencil" + kWindow + "--frames 2 --script '" + script.string() + "' --screenshot '" +
                      (dir / "b.png").string() + "' --state '" + (dir / "state.txt").string() + "'",
                  dir / "log.txt"),
              0)
        << vt::read_file(dir / "log.txt");
    EXPECT_EQ(State(vt::read_file(dir / "state.txt")).value("playhead"), "100");
}

// While a new configuration simulates, the pane says it shows the previous run, greys its cells
// and keeps the old description; when the run arrives the mark goes.
TEST(VizGuiControls, PreviousRunIsMarkedUntilTheNewOneArrives) {
    REQUIRE_GUI();
    const fs::path dir = test_dir("stale");
    const std::string base = "--preset thesis-stencil --size 256x256 --stencil 9x9 --compare '--size 16x16 --stencil 7x7 --schedule column:4'" + kWindow;
    ASSERT_EQ(gui(base + "--frames 2 --screenshot '" + (dir / "a.png").string() + "' --state '" + (dir / "a.txt").string() + "'",
                  dir / "log.txt"),
              0)
        << vt::read_file(dir / "log.txt");
    const State first(vt::read_file(dir / "a.txt"));
    EXPECT_EQ(first.value("pane B stale"), "0");
    const auto [cx, cy] = widget_centre(first, "copy_a_to_b");
    // Copy A's (long) configuration to B, and look while B simulates it.
    const fs::path script = write_script(dir, "0 idle\n1 click " + std::to_string(cx) + " " + std::to_string(cy) + "\n4 snapshot " +
                                                  (dir / "during").string() + "\n");
    ASSERT_EQ(gui(base + "--frames 2 --script '" + script.string() + "' --screenshot '" + (dir / "after.png").string() +
                      "' --state '" + (dir / "after.txt").string() + "'",
                  dir / "log.txt"),
              0)
        << vt::read_file(dir / "log.txt");
    const State during(vt::read_file(dir / "during.txt")), after(vt::read_file(dir / "after.txt"));
    EXPECT_EQ(during.value("pane B stale"), "1");
    EXPECT_EQ(during.value("pane B config"), "stencil 256x256, 9x9 box, linear");
    EXPECT_EQ(during.value("pane B shown"), "stencil 16x16, 7x7 box, column:4");
    EXPECT_EQ(during.value("pane B misses L1"), "160 read_misses 160");  // the previous run's counts (docs/gui.md: column:4)
    EXPECT_EQ(after.value("pane B stale"), "0");
    EXPECT_EQ(after.value("pane B shown"), "stencil 256x256, 9x9 box, linear");
    // The greyed cells: white (not cached) under the grey veil, in B's half of the diagrams only.
    const Canvas shot = decode_png(vt::read_file(dir / "during.png")), done = decode_png(vt::read_file(dir / "after.png"));
    const Rgba veiled{200, 200, 200, 255};
    EXPECT_GT(count_pixels(shot, 820, 60, 1280, 440, veiled, 2), 20000);
    EXPECT_LT(count_pixels(shot, 360, 60, 810, 440, veiled, 2), 500);
    EXPECT_LT(count_pixels(done, 820, 60, 1280, 440, veiled, 2), 500);
}

// The cache-contents panel at step 100 of the thesis stencil (24 lines, fully associative LRU):
// the lines and their LRU order are those of a recency list replaying the stencil's loads from
// its definition; the next victim is the least recent line, marked in the panel.
TEST(VizGuiControls, CacheContentsPanelMatchesARecencyList) {
    REQUIRE_GUI();
    const fs::path dir = test_dir("contents");
    const std::uint64_t step = 100;
    ASSERT_EQ(gui("--preset thesis-stencil" + kWindow + "--frames 3 --tab contents --playhead " + std::to_string(step) +
                      " --screenshot '" + (dir / "shot.png").string() + "' --state '" + (dir / "state.txt").string() + "'",
                  dir / "log.txt"),
              0)
        << vt::read_file(dir / "log.txt");
    cachesim::test::LruList recency(24);
    for (std::uint64_t item = 0; item <= step; ++item)
        for (const std::uint64_t line : cachesim::test::thesis_stencil_load_lines(item)) recency.touch(line);
    const State s(vt::read_file(dir / "state.txt"));
    EXPECT_EQ(s.value("pane A contents_step"), std::to_string(step));
    std::map<std::uint64_t, std::uint64_t> line_by_age;
    std::uint64_t victim = ~0ull;
    int ways = 0;
    for (const std::string& l : s.lines) {
        if (l.rfind("pane A way L1 ", 0) != 0) continue;
        ++ways;
        std::istringstream in(l.substr(14));
        std::uint64_t set = 0, way = 0, line = 0, dirty = 0, age = 0;
        std::string valid_key, line_key, dirty_key, age_key, mark;
        int valid = 0;
        in >> set >> way >> valid_key >> valid >> line_key >> line >> dirty_key >> dirty >> age_key >> age >> mark;
        EXPECT_EQ(valid, 1) << l;
        EXPECT_EQ(dirty, 0u) << l;  // write-through L1: loads only
        line_by_age[age] = line;
        if (mark == "next_victim") victim = line;
    }
    EXPECT_EQ(ways, 24);
    std::vector<std::uint64_t> by_age;
    for (const auto& [age, line] : line_by_age) by_age.push_back(line);
    EXPECT_EQ(by_age, recency.most_recent_first());
    EXPECT_EQ(victim, recency.least_recent());
    // The panel is on screen: its next-victim cell is yellow (nothing else on screen is).
    const Canvas shot = decode_png(vt::read_file(dir / "shot.png"));
    int yellow = 0;
    for (int y = 0; y < shot.height(); ++y)
        for (int x = 0; x < shot.width(); ++x) {
            const Rgba p = shot.pixel(x, y);
            yellow += p.r >= 235 && p.g >= 185 && p.g <= 222 && p.b <= 110;
        }
    EXPECT_GT(yellow, 200);
}

// Compare mode at 1280x800: both panes fit; with D, pane B shows where A and B differ (magenta)
// and pale tints elsewhere, pane A stays as it is.
TEST(VizGuiControls, CompareFitsAndShowsDifferences) {
    REQUIRE_GUI();
    const fs::path dir = test_dir("difference");
    const fs::path script = write_script(dir, "0 idle\n1 key D\n");
    ASSERT_EQ(gui("--preset thesis-stencil --compare '--schedule column:4' --playhead 200" + kWindow + "--frames 2 --script '" + script.string() +
                      "' --screenshot '" + (dir / "shot.png").string() + "' --layout '" + (dir / "layout.txt").string() + "'",
                  dir / "log.txt"),
              0)
        << vt::read_file(dir / "log.txt");
    const vt::Placement a = read_placement(dir / "layout.txt"), b = read_placement(dir / "layout.txt", "diagram_b");
    EXPECT_GT(a.w, 300);
    EXPECT_GT(a.h, 250);
    EXPECT_GT(b.x, a.x + a.w);
    EXPECT_LE(b.x + b.w, 1280);
    const Canvas shot = decode_png(vt::read_file(dir / "shot.png"));
    const Rgba magenta{231, 41, 138, 255};
    const auto region = [&](const vt::Placement& p, Rgba c) {
        return count_pixels(shot, static_cast<int>(p.x) + 1, static_cast<int>(p.y) + 1, static_cast<int>(p.x + p.w) - 1,
                            static_cast<int>(p.y + p.h) - 1, c);
    };
    EXPECT_GT(region(b, magenta), 1000);
    EXPECT_EQ(region(a, magenta), 0);
    EXPECT_GT(region(a, cell_color(CellState::in_l1)), 1000);
    EXPECT_EQ(region(b, cell_color(CellState::in_l1)), 0);  // pale tints or magenta there
    // Step 0 is the same in both schedules (item (0, 0) first): its fetches are a pale red in B.
    const Rgba pale_red{static_cast<std::uint8_t>(0xe4 / 4 + 191), static_cast<std::uint8_t>(0x1a / 4 + 191),
                        static_cast<std::uint8_t>(0x1c / 4 + 191), 255};
    EXPECT_EQ(shot.pixel(b.px(0), b.py(0)), pale_red);
}

// Panes of other lines cannot be compared cell by cell: with D, B keeps its own colours and the
// ticked box's note says why, with each pane's steps and lines. The thesis stencil (16 x 16
// items, 4-byte elements: two arrays of 1 KiB, 2 KiB in all) is 256 steps of 128 lines of 16 B in
// A, and of 64 lines of 32 B in B.
TEST(VizGuiControls, DifferenceOfPanesOfOtherLinesSaysWhy) {
    REQUIRE_GUI();
    const fs::path dir = test_dir("difference_shapes");
    const fs::path script = write_script(dir, "0 idle\n1 key D\n");
    ASSERT_EQ(gui("--preset thesis-stencil --compare '--l1-line 32'" + kWindow + "--frames 3 --script '" +
                      script.string() + "' --screenshot '" + (dir / "shot.png").string() + "' --state '" +
                      (dir / "state.txt").string() + "'",
                  dir / "log.txt"),
              0)
        << vt::read_file(dir / "log.txt");
    const State s(vt::read_file(dir / "state.txt"));
    EXPECT_TRUE(s.has("difference 1"));
    EXPECT_TRUE(s.any_starting("widget difference_note|No difference shown: A has 256 steps of 128 lines, B 256 steps "
                               "of 64 lines; it needs the same steps and lines in both. "))
        << vt::read_file(dir / "state.txt");
}

// "Copy as a cachesim diagram command": the copied command, run, draws the view's steps, and
// its simulation options give `cachesim simulate` the counts the pane shows.
TEST(VizGuiControls, CopiedCommandReproducesTheRun) {
    REQUIRE_GUI();
    const fs::path dir = test_dir("command");
    const std::string base = "--preset thesis-stencil --compare '--schedule column:4 --l2-size 1K --l2-line 16 --l1-ways 6' --zoom 96:128" + kWindow;
    ASSERT_EQ(gui(base + "--frames 2 --screenshot '" + (dir / "a.png").string() + "' --state '" + (dir / "a.txt").string() + "'",
                  dir / "log.txt"),
              0)
        << vt::read_file(dir / "log.txt");
    const auto [cx, cy] = widget_centre(State(vt::read_file(dir / "a.txt")), "copy_command_B");
    const fs::path script = write_script(dir, "0 idle\n1 click " + std::to_string(cx) + " " + std::to_string(cy) + "\n");
    ASSERT_EQ(gui(base + "--frames 2 --script '" + script.string() + "' --screenshot '" + (dir / "b.png").string() + "' --state '" +
                      (dir / "b.txt").string() + "'",
                  dir / "log.txt"),
              0)
        << vt::read_file(dir / "log.txt");
    const State s(vt::read_file(dir / "b.txt"));
    const std::string command = s.value("pane B copied");
    EXPECT_EQ(s.value("status"), "copied: " + command);
    ASSERT_EQ(command.rfind("cachesim diagram ", 0), 0u) << command;
    EXPECT_NE(command.find(" --from 96 --to 128 "), std::string::npos) << command;
    EXPECT_NE(command.find(" --l1-ways 6 "), std::string::npos) << command;
    // Run it as given (its own --out replaced by a path here).
    std::string args = command.substr(std::string("cachesim ").size());
    const std::size_t out = args.find(" --out ");
    ASSERT_NE(out, std::string::npos);
    args = args.substr(0, out) + " --out '" + (dir / "diagram.png").string() + "'";
    const auto drawn = cachesim::test::run_cachesim(args);
    ASSERT_EQ(drawn.exit_code, 0) << drawn.err;
    EXPECT_GT(decode_png(vt::read_file(dir / "diagram.png")).width(), 100);
    // The same options without the diagram's: the counts the pane shows.
    std::string sim = args.substr(std::string("diagram ").size());
    sim = sim.substr(0, sim.find(" --from "));
    const auto counted = cachesim::test::run_cachesim("simulate " + sim + " --format csv");
    ASSERT_EQ(counted.exit_code, 0) << counted.err;
    const cachesim::test::CsvTable csv(counted.out);
    ASSERT_EQ(csv.rows(), 1u);
    EXPECT_EQ(csv.at(0, "schedule"), "column:4");
    EXPECT_EQ(s.value("pane B misses L1"), csv.at(0, "l1_misses") + " read_misses " + csv.at(0, "l1_read_misses"));
    EXPECT_EQ(s.value("pane B misses L2"), csv.at(0, "l2_misses") + " read_misses " + csv.at(0, "l2_read_misses"));
    EXPECT_EQ(csv.at(0, "l1_ways"), "6");
}

// Hovering a cell: the line's history up to that step (its last use, reuse distance, eviction and
// evictor), against a recency list replaying the thesis stencil's loads access by access.
TEST(VizGuiControls, HoverGivesReuseDistanceAndEvictor) {
    REQUIRE_GUI();
    const fs::path dir = test_dir("hover");
    ASSERT_EQ(gui("--preset thesis-stencil" + kWindow + "--frames 2 --screenshot '" + (dir / "a.png").string() + "' --layout '" +
                      (dir / "layout.txt").string() + "'",
                  dir / "log.txt"),
              0)
        << vt::read_file(dir / "log.txt");
    const vt::Placement p = read_placement(dir / "layout.txt");
    const std::uint64_t step = 100, line = 0;  // `in` (0..3, 0): the diagram's row 0
    const fs::path script = write_script(dir, "0 idle\n1 move " + std::to_string(p.px(step)) + " " + std::to_string(p.py(line)) +
                                                  "\n3 idle\n4 snapshot " + (dir / "hover").string() + "\n");
    ASSERT_EQ(gui("--preset thesis-stencil" + kWindow + "--frames 2 --script '" + script.string() + "' --screenshot '" +
                      (dir / "b.png").string() + "'",
                  dir / "log.txt"),
              0)
        << vt::read_file(dir / "log.txt");
    // The reference: 24 lines, LRU, the loads of items 0..step in order; the reuse distance from
    // an unbounded recency list (the distinct lines used since the line's previous use).
    cachesim::test::LruList cache(24), stack;
    std::optional<std::uint64_t> last_use, evicted, by;
    std::uint64_t reuse = 0;
    bool reused = false;
    for (std::uint64_t item = 0; item <= step; ++item)
        for (const std::uint64_t l : cachesim::test::thesis_stencil_load_lines(item)) {
            const std::optional<std::uint64_t> distance = stack.touch(l).distance;
            if (l == line) {
                if (last_use) {
                    reuse = *distance;
                    reused = true;
                }
                last_use = item;
            }
            if (cache.touch(l).evicted == line) {
                evicted = item;
                by = l;
            }
        }
    ASSERT_TRUE(last_use && evicted && reused);
    const std::string want = std::to_string(step) + " " + std::to_string(line) + " last_use " + std::to_string(*last_use) + " reuse " +
                             std::to_string(reuse) + " resident 0 evicted " + std::to_string(*evicted) + " by " + std::to_string(*by);
    EXPECT_EQ(State(vt::read_file(dir / "hover.txt")).value("pane A hover"), want);
}
