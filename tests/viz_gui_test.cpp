// cacheviz under a virtual X server (xvfb-run; CI has no display): the screenshot's diagram
// region shows the thesis stencil's known cells, the legend, and the array view.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/viz_gui_util.hpp"
#include "viz/canvas.hpp"
#include "viz/cell_state.hpp"

using namespace cachesim::viz;
using cachesim::viz::testing::Placement;
using cachesim::viz::testing::read_file;

namespace {

int run_gui(const std::string& args, const std::filesystem::path& log) {
    const char* bin = std::getenv("CACHEVIZ_BIN");
    if (!bin) return -1;
    return cachesim::viz::testing::run_under_xvfb(bin, args, log);
}

}  // namespace

TEST(VizGui, ScreenshotShowsTheDiagram) {
    ASSERT_EQ(std::system("command -v xvfb-run >/dev/null"), 0) << "xvfb-run is missing (scripts/setup.sh installs xvfb)";
    const auto dir = std::filesystem::temp_directory_path() / ("cacheviz-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto png = dir / "shot.png", layout = dir / "layout.txt", log = dir / "log.txt";
    const int code = run_gui("--preset thesis-stencil --window 1280x800 --frames 5 --playhead 128 --screenshot '" + png.string() +
                                 "' --layout '" + layout.string() + "'",
                             log);
    ASSERT_EQ(code, 0) << read_file(log);
    const Canvas shot = decode_png(read_file(png));
    ASSERT_EQ(shot.width(), 1280);
    ASSERT_EQ(shot.height(), 800);

    std::istringstream in(read_file(layout));
    std::string tag;
    Placement p{};
    in >> tag >> p.x >> p.y >> p.w >> p.h >> p.t0 >> p.t1 >> p.r0 >> p.r1;
    ASSERT_EQ(tag, "diagram");
    // The whole run is in view: 256 steps, 128 lines (64 of `in`, 64 of `out`).
    EXPECT_DOUBLE_EQ(p.t0, 0);
    EXPECT_DOUBLE_EQ(p.t1, 256);
    EXPECT_DOUBLE_EQ(p.r1, 128);
    ASSERT_GT(p.w, 300);
    ASSERT_GT(p.h, 200);

    // Hand-checked cells (see viz_png_test): step 0 fetches lines 0, 4, 8, 12 from memory; line 1
    // is untouched. Step 100 = item (4, 6) reads rows 3..9,
    // x 1..7: lines 12, 13 (row 3) are hits by then.
    const auto at = [&](double step, double row) { return shot.pixel(p.px(step), p.py(row)); };
    EXPECT_EQ(at(0, 0), cell_color(CellState::fetched_from_memory));
    EXPECT_EQ(at(0, 12), cell_color(CellState::fetched_from_memory));
    EXPECT_EQ(at(0, 1), cell_color(CellState::not_cached));
    // Stores to `out` pass the thesis L1 (no allocation on stores): drawn as stored, not as hits.
    EXPECT_EQ(at(5, 65), cell_color(CellState::stored));  // out line 1 (x 4-7 of row 0) written at steps 4-7
    EXPECT_EQ(at(100, 64 + 25), cell_color(CellState::stored));  // out[6][4] is line 25 of out
    EXPECT_EQ(at(250, 1), cell_color(CellState::not_cached));     // line 1 long evicted near the end
    const Rgba playhead = shot.pixel(p.px(128), p.py(100));       // the (green) playhead line
    EXPECT_GT(playhead.g, playhead.r + 60);
    EXPECT_GT(playhead.g, playhead.b + 60);
    // Every state the run produces is visible somewhere in the diagram region.
    int seen[kCellStateCount] = {};
    for (int y = static_cast<int>(p.y) + 1; y < static_cast<int>(p.y + p.h) - 1; ++y)
        for (int x = static_cast<int>(p.x) + 1; x < static_cast<int>(p.x + p.w) - 1; ++x)
            for (int s = 0; s < kCellStateCount; ++s) seen[s] += shot.pixel(x, y) == cell_color(static_cast<CellState>(s));
    EXPECT_GT(seen[static_cast<int>(CellState::accessed)], 1000);
    EXPECT_GT(seen[static_cast<int>(CellState::fetched_from_memory)], 100);
    EXPECT_GT(seen[static_cast<int>(CellState::in_l1)], 1000);
    EXPECT_GT(seen[static_cast<int>(CellState::not_cached)], 1000);
    EXPECT_EQ(seen[static_cast<int>(CellState::fetched_from_l2)], 0);  // no L2 in this preset
    // Outside the diagram (the configuration panel on the left) there are none of the cell
    // colours that only the diagram uses.
    int stray = 0;
    for (int y = 0; y < 800; ++y)
        for (int x = 0; x < static_cast<int>(p.x) - 80; ++x) stray += shot.pixel(x, y) == cell_color(CellState::fetched_from_memory);
    EXPECT_EQ(stray, 0);
}

TEST(VizGui, BadOptionsExit2) {
    const auto log = std::filesystem::temp_directory_path() / ("cacheviz-bad-" + std::to_string(::getpid()) + ".txt");
    EXPECT_EQ(run_gui("--frames 0 --screenshot /tmp/x.png", log), 2);
    EXPECT_NE(read_file(log).find("--frames: at least 1"), std::string::npos) << read_file(log);
    EXPECT_EQ(run_gui("--l1-policy mru --screenshot /tmp/x.png", log), 2);
    EXPECT_NE(read_file(log).find("unknown policy 'mru'"), std::string::npos);
    EXPECT_EQ(run_gui("--window 10x10", log), 2);
    EXPECT_EQ(run_gui("--playhead 256 --screenshot /tmp/x.png", log), 2);
    EXPECT_NE(read_file(log).find("past the last step 255"), std::string::npos);
}

// A measured warp order in the GUI (--start-warp-times): the diagram's steps are the launch's
// requests (2 warps x 9), not rounds; the file must fit the first pane's launch.
TEST(VizGui, MeasuredWarpOrder) {
    const auto dir = std::filesystem::temp_directory_path() / ("cacheviz-warps-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto png = dir / "warps.png", layout = dir / "layout.txt", log = dir / "log.txt", csv = dir / "w.csv";
    std::ofstream(csv) << "kernel,width,height,stencil_w,stencil_h,depth,schedule,block_size,launch,block,warp,sm,slot,"
                          "start_ns,end_ns\nmatmul,32,2,0,0,4,linear,32,0,0,0,0,0,0,90\n"
                          "matmul,32,2,0,0,4,linear,32,0,1,0,0,1,0,90\n";
    const std::string launch = "--workload matmul --size 32x2 --depth 4 --start-gpu h200 --start-block 32";
    const int code = run_gui(launch + " --start-warp-times '" + csv.string() + "' --window 1280x800 --frames 3 --screenshot '" +
                                 png.string() + "' --layout '" + layout.string() + "'",
                             log);
    ASSERT_EQ(code, 0) << read_file(log);
    std::istringstream in(read_file(layout));
    std::string tag;
    Placement p{};
    in >> tag >> p.x >> p.y >> p.w >> p.h >> p.t0 >> p.t1 >> p.r0 >> p.r1;
    ASSERT_EQ(tag, "diagram");
    EXPECT_EQ(p.t1, 18);  // lockstep would take 9 rounds (one warp per SM)
    EXPECT_EQ(run_gui("--workload matmul --size 32x2 --depth 4 --start-warp-times '" + csv.string() +
                          "' --screenshot /tmp/x.png",
                      log),
              2);
    EXPECT_NE(read_file(log).find("--start-warp-times needs --start-gpu"), std::string::npos);
    EXPECT_EQ(run_gui("--workload matmul --size 32x2 --depth 4 --start-gpu h200 --start-block 64 --start-warp-times '" +
                          csv.string() + "' --screenshot /tmp/x.png",
                      log),
              2);
    EXPECT_NE(read_file(log).find("no warps of"), std::string::npos) << read_file(log);
}

// The GPU model in the GUI: a step is a scheduling round; the first round of one SM fetches the
// first lines of `in` from memory, and the diagram shows lines in L1.
TEST(VizGui, GpuModelScreenshot) {
    const auto dir = std::filesystem::temp_directory_path() / ("cacheviz-gpu-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto png = dir / "gpu.png", layout = dir / "layout.txt", log = dir / "log.txt";
    // any-miss: the state colours with fetches first (density, the default, mutes them zoomed out).
    const int code = run_gui("--preset thesis-stencil --size 64x64 --start-gpu h200 --start-block 64 --start-sms 2 --playhead 10"
                             " --aggregate any-miss"
                             " --window 1280x800 --frames 3 --screenshot '" + png.string() + "' --layout '" + layout.string() + "'",
                             log);
    ASSERT_EQ(code, 0) << read_file(log);
    const Canvas shot = decode_png(read_file(png));
    std::istringstream in(read_file(layout));
    std::string tag;
    Placement p{};
    in >> tag >> p.x >> p.y >> p.w >> p.h >> p.t0 >> p.t1 >> p.r0 >> p.r1;
    ASSERT_EQ(tag, "diagram");
    EXPECT_GT(p.t1, 100);  // rounds, not work items: 64x64 items / 2 SMs / 32 lanes x 50 requests
    int fetched = 0, in_l1 = 0;
    for (int y = static_cast<int>(p.y) + 1; y < static_cast<int>(p.y + p.h) - 1; ++y)
        for (int x = static_cast<int>(p.x) + 1; x < static_cast<int>(p.x + p.w) - 1; ++x) {
            fetched += shot.pixel(x, y) == cell_color(CellState::fetched_from_memory);
            in_l1 += shot.pixel(x, y) == cell_color(CellState::in_l1);
        }
    EXPECT_GT(fetched, 0);
    EXPECT_GT(in_l1, 1000);
}
