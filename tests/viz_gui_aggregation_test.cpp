// cacheviz zoomed out draws its cells as `cachesim diagram` does: by default each texel that
// holds an L1 miss shows the miss-density ramp, so the 256x256 5x5 stencil with the thesis's
// 24-line cache, fitted into the window, shows its misses where an independent run's miss log
// (the simulator with an observer of its own, no recorder, no renderer) puts them and nowhere
// else; with --aggregate priority (a hit wins a shared texel, the old rule) they vanish. The
// miss-rate strip sits under the cells at the log's miss rate; a GPU-model run shows the SMs'
// colours and its memory chart, and the thesis's bounds only where they apply. The copied
// `cachesim diagram` command carries the view's options and draws. (Suite VizGui*: the sanitizer
// run skips leak checks for the OpenGL driver, as for the other GUI tests.)
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/thread_model.hpp"
#include "tests/cli_util.hpp"
#include "tests/miss_log.hpp"
#include "tests/viz_gui_util.hpp"
#include "traces/workload_source.hpp"
#include "viz/canvas.hpp"
#include "viz/cell_state.hpp"
#include "viz/render.hpp"
#include "viz/row_layout.hpp"

using namespace cachesim;
using namespace cachesim::viz;
namespace vt = cachesim::viz::testing;
using vt::cacheviz_bin;
namespace fs = std::filesystem;

namespace {

struct Shot {
    Canvas image;
    vt::Placement at;
    vt::State state{""};
};

// Runs cacheviz to a screenshot with its layout and state.
Shot shoot(const std::string& name, const std::string& args) {
    const fs::path dir = vt::test_dir("agg-" + name);
    const std::string a = args + " --window 1280x800 --frames 5 --screenshot '" + (dir / "shot.png").string() + "' --layout '" +
                          (dir / "layout.txt").string() + "' --state '" + (dir / "state.txt").string() + "'";
    const int code = vt::run_under_xvfb(cacheviz_bin(), a, dir / "log.txt");
    EXPECT_EQ(code, 0) << vt::read_file(dir / "log.txt");
    Shot s;
    if (code != 0) return s;
    s.image = decode_png(vt::read_file(dir / "shot.png"));
    s.at = vt::read_placement(dir / "layout.txt");
    s.state = vt::State(vt::read_file(dir / "state.txt"));
    return s;
}

// A colour of the miss-density ramp (the window is read back exactly: nearest sampling).
bool is_ramp_colour(Rgba c) {
    for (int k = 0; k <= 300; ++k) {
        const Rgba r = miss_density_color(k / 300.0);
        if (std::abs(c.r - r.r) <= 3 && std::abs(c.g - r.g) <= 3 && std::abs(c.b - r.b) <= 3) return true;
    }
    return false;
}

bool is_fetch_colour(Rgba c) {
    return c == cell_color(CellState::fetched_from_memory) || c == cell_color(CellState::fetched_from_l2);
}

// The thesis stencil at 256x256 with a 5x5 box: items in row-major order, the 24-line L1 of 16 B.
WorkloadSpec stencil256() {
    WorkloadSpec w;
    w.width = w.height = 256;
    w.stencil_w = w.stencil_h = 5;
    return w;
}

const std::string kStencil256 = "--preset thesis-stencil --size 256x256 --stencil 5x5";

}  // namespace

TEST(VizGuiAggregation, ZoomedOutStencilShowsTheLoggedMissesAndPriorityHidesThem) {
    REQUIRE_GUI();
    const WorkloadSpec w = stencil256();
    HierarchyConfig h;
    h.l1.size_bytes = 384;
    h.l1.line_bytes = 16;
    const test::MissLog log = test::log_thread_model_misses(w, h);
    ASSERT_EQ(log.misses.size(), 81536u);  // `cachesim simulate --preset thesis-stencil --size 256x256 --stencil 5x5`
    const RowLayout rows(w.arrays(), 16);

    const Shot d = shoot("density", kStencil256);
    ASSERT_GT(d.image.width(), 0);
    const vt::Placement& p = d.at;
    ASSERT_EQ(p.t1 - p.t0, 65536.0);  // fitted: the whole run
    EXPECT_EQ(d.state.value("aggregate"), "density");
    EXPECT_EQ(d.state.value("pane A colouring rule").substr(0, 17), "density density 1");

    // The pixels the log's misses fall on (pixel centres mapped to steps and rows).
    const int x0 = static_cast<int>(std::ceil(p.x)), y0 = static_cast<int>(std::ceil(p.y));
    const int pw = static_cast<int>(p.w), ph = static_cast<int>(p.h);
    std::vector<char> expected(static_cast<std::size_t>(pw) * ph, 0);
    for (const auto& [step, line] : log.misses) {
        const std::uint64_t row = rows.row_of_line(line);
        ASSERT_NE(row, kNoRow);
        const int px = static_cast<int>((step + 0.5 - p.t0) * p.w / (p.t1 - p.t0));
        const int py = static_cast<int>((row + 0.5 - p.r0) * p.h / (p.r1 - p.r0));
        if (px >= 0 && px < pw && py >= 0 && py < ph) expected[static_cast<std::size_t>(py) * pw + px] = 1;
    }
    // A texel is at least one pixel and less than two on each axis: a miss shows within 2 pixels
    // of its own. Allow 3.
    constexpr int kReach = 3;
    const auto near = [&](const auto& pred, int px, int py) {
        for (int y = std::max(0, py - kReach); y <= std::min(ph - 1, py + kReach); ++y)
            for (int x = std::max(0, px - kReach); x <= std::min(pw - 1, px + kReach); ++x)
                if (pred(x, y)) return true;
        return false;
    };
    const auto shows_miss = [&](int x, int y) { return is_ramp_colour(d.image.pixel(x0 + x, y0 + y)); };
    const auto logged = [&](int x, int y) { return expected[static_cast<std::size_t>(y) * pw + x] != 0; };
    std::uint64_t miss_pixels = 0, stray = 0, lost = 0, expected_pixels = 0;
    std::vector<char> column_has(static_cast<std::size_t>(pw), 0), column_expected(static_cast<std::size_t>(pw), 0);
    for (int y = 0; y < ph; ++y)
        for (int x = 0; x < pw; ++x) {
            if (shows_miss(x, y)) {
                ++miss_pixels;
                column_has[x] = 1;
                stray += !near(logged, x, y);
            }
            if (logged(x, y)) {
                ++expected_pixels;
                column_expected[x] = 1;
                // The playhead covers the first pixels (step 0).
                if (x > kReach + 2) lost += !near(shows_miss, x, y);
            }
        }
    EXPECT_EQ(stray, 0u) << "miss-coloured pixels with no logged miss near them";
    EXPECT_EQ(lost, 0u) << "logged misses with no miss-coloured pixel near them, of " << expected_pixels;
    EXPECT_GT(miss_pixels, 1000u);
    // Per time column: a column shows misses exactly where the log has some (within the reach).
    for (int x = kReach + 2; x < pw; ++x) {
        bool log_near = false, shown_near = false;
        for (int k = std::max(0, x - kReach); k <= std::min(pw - 1, x + kReach); ++k) {
            log_near |= column_expected[k] != 0;
            shown_near |= column_has[k] != 0;
        }
        if (column_has[x]) {
            EXPECT_TRUE(log_near) << "column " << x;
        }
        if (column_expected[x]) {
            EXPECT_TRUE(shown_near) << "column " << x;
        }
    }

    // The thesis's bound applies here (thread model, linear order): sec. 3.3.1's worst case,
    // ceil((I_w + S_w) / L) * I_h * S_h = ceil(261 / 4) * 256 * 5.
    EXPECT_TRUE(d.state.has("pane A note thesis sec. 3.3.1 worst case: fetches <= 84,480 (simulated 81,536)"));

    // The strip: the L1's misses per read lookup over the view (the whole run) as the log counts them.
    const std::string strip_level = d.state.value("pane A strip_level L1");
    ASSERT_EQ(strip_level.find("missing"), std::string::npos);
    const double rate = std::stod(strip_level);
    const double log_rate = static_cast<double>(log.misses.size()) / static_cast<double>(log.lookups);
    EXPECT_NEAR(rate, log_rate, 1e-4);
    std::istringstream strip_words(d.state.value("pane A strip"));
    double sx = 0, sy = 0, sw = 0, sh = 0, top = 0;
    std::string word;
    strip_words >> sx >> sy >> sw >> sh >> word >> top;
    ASSERT_GT(sw, 100);
    EXPECT_GT(sy, p.y + p.h);  // under the cells
    EXPECT_GE(top, log_rate);
    EXPECT_LE(top, 1.0);
    // Its red line: in most columns, at about the rate's height.
    int columns_drawn = 0, near_level = 0;
    const double level_y = sy + sh - 1 - log_rate / top * (sh - 2);
    for (int x = static_cast<int>(sx) + 2; x < static_cast<int>(sx + sw) - 2; ++x)
        for (int y = static_cast<int>(sy); y < static_cast<int>(sy + sh); ++y) {
            const Rgba c = d.image.pixel(x, y);
            if (c.r > 180 && c.g < 90 && c.b < 90) {
                ++columns_drawn;
                near_level += std::abs(y - level_y) <= 4;
                break;
            }
        }
    EXPECT_GT(columns_drawn, static_cast<int>(sw * 0.9));
    EXPECT_GT(near_level, columns_drawn * 8 / 10);

    // The old rule: a hit wins a shared texel, and the misses vanish zoomed out.
    const Shot pr = shoot("priority", kStencil256 + " --aggregate priority");
    ASSERT_GT(pr.image.width(), 0);
    std::uint64_t fetch_pixels = 0;
    for (int y = 0; y < ph; ++y)
        for (int x = 0; x < pw; ++x) fetch_pixels += is_fetch_colour(pr.image.pixel(x0 + x, y0 + y)) || is_ramp_colour(pr.image.pixel(x0 + x, y0 + y));
    EXPECT_LT(fetch_pixels * 20, miss_pixels) << fetch_pixels << " fetch pixels with priority, " << miss_pixels << " with density";
    EXPECT_NE(pr.state.value("pane A command").find(" --aggregate priority "), std::string::npos);
    EXPECT_EQ(d.state.value("pane A command").find("--aggregate"), std::string::npos);  // density: the default
}

namespace {

// Pixels of pane A's diagram in `colour`.
int diagram_pixels(const Shot& g, Rgba colour) {
    const vt::Placement& p = g.at;
    int n = 0;
    for (int y = static_cast<int>(p.y) + 1; y < static_cast<int>(p.y + p.h); ++y)
        for (int x = static_cast<int>(p.x) + 3; x < static_cast<int>(p.x + p.w); ++x) n += g.image.pixel(x, y) == colour;
    return n;
}

}  // namespace

TEST(VizGuiAggregation, GpuRunColoursBySmAndShowsItsMemoryChart) {
    REQUIRE_GUI();
    const Shot g = shoot("gpu", "--workload stencil --size 128x128 --stencil 5x5 --start-gpu h200 --start-block 128 --start-sms 4 "
                                "--colour-by sm --tab chart");
    ASSERT_GT(g.image.width(), 0);
    // Each of the 4 SMs' colours covers cells of the diagram.
    for (std::uint32_t sm = 0; sm < 4; ++sm) EXPECT_GT(diagram_pixels(g, sm_color(sm)), 100) << "SM " << sm;
    EXPECT_EQ(g.state.value("pane A colouring rule").find(" by sm ") != std::string::npos, true);
    // The memory chart: 16,384 threads in warps of 32 each load the 25 stencil elements once
    // (512 x 25 = 12,800 load requests) and store one result (512 store requests).
    EXPECT_TRUE(g.state.has("pane A chart_box kernel: 4 SMs"));
    EXPECT_TRUE(g.state.has("pane A chart_line kernel: 4 SMs: 12,800 load requests"));
    EXPECT_TRUE(g.state.has("pane A chart_line kernel: 4 SMs: 512 store requests"));
    EXPECT_TRUE(g.state.any_starting("pane A chart_box L1 "));
    EXPECT_TRUE(g.state.any_starting("pane A chart_box L2 "));
    EXPECT_TRUE(g.state.has("pane A chart_box DRAM"));
    EXPECT_TRUE(g.state.any_starting("pane A chart_arrow "));
    // The thesis's bounds model one cache serving work items in order: not shown, with the reason.
    EXPECT_TRUE(g.state.has("pane A note thesis bounds not shown: they model one cache"));
    EXPECT_FALSE(g.state.any_starting("pane A note thesis sec."));
    EXPECT_NE(g.state.value("pane A command").find(" --colour-by sm "), std::string::npos);
}

TEST(VizGuiAggregation, GpuRunColoursByHitSource) {
    REQUIRE_GUI();
    // On 4 SMs a block is a row of the 128x128 stencil and an SM runs rows 4 apart, which share
    // lines of the rows between them: hits from other blocks, beside each warp's own.
    const Shot g = shoot("source", "--workload stencil --size 128x128 --stencil 5x5 --start-gpu h200 --start-block 128 "
                                   "--start-sms 4 --colour-by source");
    ASSERT_GT(g.image.width(), 0);
    for (HitSource source : {HitSource::own_warp, HitSource::other_block})
        EXPECT_GT(diagram_pixels(g, hit_source_color(source)), 100) << hit_source_name(source);
    EXPECT_EQ(g.state.value("colour_by"), "source");
    EXPECT_NE(g.state.value("pane A colouring rule").find(" by source "), std::string::npos);
    EXPECT_NE(g.state.value("pane A command").find(" --colour-by source "), std::string::npos);
}

// The copied command reproduces the view: cropped to lines, it says --lines, and it draws.
TEST(VizGuiAggregation, CopiedCommandCarriesTheViewOptions) {
    REQUIRE_GUI();
    const Shot s = shoot("lines", "--preset thesis-stencil --zoom 0:128 --zoom-lines 8:40 --aggregate any-miss");
    ASSERT_GT(s.image.width(), 0);
    const std::string command = s.state.value("pane A command");
    EXPECT_NE(command.find(" --from 0 --to 128 "), std::string::npos) << command;
    EXPECT_NE(command.find(" --lines 8:40 "), std::string::npos) << command;
    EXPECT_NE(command.find(" --aggregate any-miss "), std::string::npos) << command;
    const std::string prefix = "cachesim diagram ";
    ASSERT_EQ(command.rfind(prefix, 0), 0u);
    const fs::path out = vt::test_dir("agg-lines") / "copied.png";
    std::string args = command.substr(prefix.size());
    args = args.substr(0, args.rfind(" --out ")) + " --out '" + out.string() + "'";
    const auto r = cachesim::test::run_cachesim("diagram " + args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(fs::exists(out));
}
