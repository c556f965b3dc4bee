// Deep zoom in the GUI: cacheviz started zoomed deep shows single steps, and bad zoom options
// exit 2 (under xvfb-run; the suite name VizGui* lets the sanitizer run skip leak checks for the
// OpenGL driver, as for the other GUI tests).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "tests/viz_gui_util.hpp"
#include "tests/viz_thesis_run.hpp"
#include "viz/canvas.hpp"
#include "viz/record.hpp"

using namespace cachesim;
using namespace cachesim::viz;
using cachesim::viz::testing::full_resolution;
using cachesim::viz::testing::record;
using cachesim::viz::testing::thesis_cache;
using cachesim::viz::testing::thesis_stencil;

// cacheviz started zoomed into steps 96-128 of the thesis stencil whose diagram was recorded with
// 16 steps per base cell (--max-cells 2048): both panes of compare mode show the window at one
// step per cell, every cell as in the exact diagram, where the coarse cells would differ.
TEST(VizGuiDeepZoom, ZoomedInPastTheBaseCellsShowsSingleSteps) {
#ifdef CACHEVIZ_BIN
    const std::string bin = CACHEVIZ_BIN;
#else
    GTEST_SKIP() << "cacheviz is not built (SFML, ImGui or OpenGL missing)";
    const std::string bin;
#endif
    ASSERT_EQ(std::system("command -v xvfb-run >/dev/null"), 0) << "xvfb-run is missing (scripts/setup.sh installs xvfb)";
    namespace vt = cachesim::viz::testing;
    const auto dir = std::filesystem::temp_directory_path() / ("cacheviz-zoom-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto png = dir / "zoom.png", layout = dir / "layout.txt", log = dir / "log.txt";
    const int code = vt::run_under_xvfb(bin,
                                        "--preset thesis-stencil --compare '--schedule column:4' --max-cells 2048 --zoom 96:128"
                                        " --window 1400x800 --frames 3 --screenshot '" + png.string() + "' --layout '" +
                                            layout.string() + "'",
                                        log);
    ASSERT_EQ(code, 0) << vt::read_file(log);
    const Canvas shot = decode_png(vt::read_file(png));

    std::istringstream in(vt::read_file(layout));
    std::map<std::string, std::vector<double>> lines;
    for (std::string line; std::getline(in, line);) {
        std::istringstream words(line);
        std::string key;
        words >> key;
        for (double v; words >> v;) lines[key].push_back(v);
    }
    const std::vector<std::pair<std::string, Schedule>> panes = {{"", Schedule{}}, {"_b", parse_schedule("column:4")}};
    for (const auto& [suffix, schedule] : panes) {
        SCOPED_TRACE("pane" + suffix);
        const std::vector<double>& d = lines["diagram" + suffix];
        ASSERT_EQ(d.size(), 8u);
        const vt::Placement p{d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7]};
        EXPECT_DOUBLE_EQ(p.t0, 96);
        EXPECT_DOUBLE_EQ(p.t1, 128);
        EXPECT_EQ(lines["cell" + suffix], (std::vector<double>{16, 1}));  // the coarse cells: 16 steps
        // The window: the 32 visible steps and 32 more on each side; all 128 lines.
        EXPECT_EQ(lines["detail" + suffix], (std::vector<double>{64, 96, 0, 128}));

        const WorkloadSpec w = thesis_stencil(schedule);
        const RecordedRun exact = record(w, thesis_cache(), full_resolution());
        RecorderOptions coarse_options;
        coarse_options.max_cells = 2048;
        const RecordedRun coarse = record(w, thesis_cache(), coarse_options);
        ASSERT_EQ(coarse.diagram.steps_per_column(), 16u);
        int checked = 0, wrong = 0, coarse_differs = 0;
        for (std::uint64_t t = 96; t < 128; ++t)
            for (std::uint64_t r = 0; r < 128; ++r) {
                if (r == 63 || r == 64) continue;  // the separator line between `in` and `out`
                const CellState s = exact.diagram.at_step(t, r);
                wrong += shot.pixel(p.px(t), p.py(r)) != cell_color(s);
                coarse_differs += coarse.diagram.at_step(t, r) != s;
                ++checked;
            }
        EXPECT_EQ(checked, 32 * 126);
        EXPECT_EQ(wrong, 0);
        EXPECT_GT(coarse_differs, 400);  // the coarse cells would have shown something else
    }
}

// Bad deep-zoom options: one clear message, exit code 2.
TEST(VizGuiDeepZoom, BadZoomOptionsExit2) {
#ifdef CACHEVIZ_BIN
    const std::string bin = CACHEVIZ_BIN;
#else
    GTEST_SKIP() << "cacheviz is not built (SFML, ImGui or OpenGL missing)";
    const std::string bin;
#endif
    namespace vt = cachesim::viz::testing;
    const auto log = std::filesystem::temp_directory_path() / ("cacheviz-zoom-bad-" + std::to_string(::getpid()) + ".txt");
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"--zoom 5", "--zoom: expected FROM:TO (whole numbers), got '5'"},
        {"--zoom 10:5", "--zoom: FROM must be below TO, got '10:5'"},
        {"--zoom 0:257", "--zoom: the run has 256 steps (0:256)"},
        {"--zoom-lines 1:x", "--zoom-lines: expected FROM:TO (whole numbers), got '1:x'"},
        {"--max-cells 1000", "--max-cells: at least 1024"},
    };
    for (const auto& [args, message] : cases) {
        EXPECT_EQ(vt::run_under_xvfb(bin, "--preset thesis-stencil " + args + " --screenshot /tmp/never-written.png", log), 2) << args;
        EXPECT_NE(vt::read_file(log).find(message), std::string::npos) << vt::read_file(log);
    }
}
