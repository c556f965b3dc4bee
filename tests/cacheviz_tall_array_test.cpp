// The array view, under a virtual X server, of an array taller than a texture's 2,048 texels
// (--screenshot waits for it, and it is drawn at one texel per 1 x 2 elements), and of an array
// whose short side is drawn thickened (its rows kept apart, see the last test). The 1 x 2049
// stencil (7 x 7 box, linear, thesis L1: 24 fully associative lines of 16 B = 4 rows of `in`)
// at step 1000 runs item (0, 1000), which reads rows 997-1003 (lines 249 and 250, already in L1
// since steps 993 and 997) and writes out[1000]; L1 holds the 24 lines last read, 227-250 =
// rows 908-1003; `out` is never allocated (write-through, no-write-allocate).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tests/viz_gui_util.hpp"
#include "viz/canvas.hpp"
#include "viz/cell_state.hpp"

namespace vt = cachesim::viz::testing;
namespace fs = std::filesystem;
using cachesim::viz::CellState;

TEST(CachevizTallArray, DrawnScaledAndWaitedFor) {
    REQUIRE_GUI();
    const fs::path dir = vt::test_dir("tallarray");
    const fs::path png = dir / "shot.png", state = dir / "state.txt", log = dir / "log.txt";
    const int code = vt::run_under_xvfb(vt::cacheviz_bin(),
                                        "--size 1x2049 --playhead 1000 --window 1280x800 --frames 3 --screenshot '" + png.string() +
                                            "' --state '" + state.string() + "'",
                                        log);
    ASSERT_EQ(code, 0) << vt::read_file(log);
    const vt::State s(vt::read_file(state));
    EXPECT_FALSE(s.any_starting("pane A array_view computing")) << vt::read_file(state);
    ASSERT_EQ(s.value("pane A array_view step"), "1000") << vt::read_file(state);
    // 2,049 rows > 2,048: blocks of 1 x 2 elements (the one column needs no scaling), ceil(2049 /
    // 2) texel rows; drawn at the finest level of blocks 2, 4, 8, ... down whose texel reaches a
    // pixel, one element across (the column is drawn 8 px wide).
    const std::string finest = "1 2049 texels 1 1025 per_texel 1x2 drawn_per_texel 1x";
    for (const char* array : {"in", "out"}) {
        const std::string v = s.value(std::string("pane A array ") + array);
        ASSERT_EQ(v.rfind(finest, 0), 0u) << v;
    }

    const cachesim::viz::Canvas shot = cachesim::viz::decode_png(vt::read_file(png));
    for (const char* array : {"in", "out"}) {
        const std::vector<double> r = s.numbers(std::string("pane A array_rect ") + array);
        ASSERT_EQ(r.size(), 4u) << array;
        ASSERT_GT(r[3], 100) << array;  // a tall picture, not a sliver
        std::uint64_t block = 2;
        while (r[3] * static_cast<double>(block) < 2049) block *= 2;
        EXPECT_EQ(s.value(std::string("pane A array ") + array), finest + std::to_string(block)) << array;
        const int x = static_cast<int>(r[0] + r[2] / 2);
        const auto py = [&](double row) { return static_cast<int>(r[1] + (row + 0.5) * r[3] / 2049); };
        const auto at = [&](double row) { return shot.pixel(x, py(row)); };
        const bool in = std::string(array) == "in";
        EXPECT_EQ(at(400), cell_color(CellState::not_cached)) << array;
        EXPECT_EQ(at(1500), cell_color(CellState::not_cached)) << array;
        EXPECT_EQ(at(930), cell_color(in ? CellState::in_l1 : CellState::not_cached)) << array;
        EXPECT_EQ(at(980), cell_color(in ? CellState::in_l1 : CellState::not_cached)) << array;
        // The step's accesses (hits, rows 997-1003 of in; the store to row 1000 of out, which the
        // L1 does not allocate) show in the block that holds them, and nowhere else.
        const double b = static_cast<double>(block);
        const cachesim::viz::Rgba touched = cell_color(in ? CellState::accessed : CellState::stored);
        int hits = 0, stray = 0;
        for (int y = static_cast<int>(r[1]); y < static_cast<int>(r[1] + r[3]); ++y) {
            if (shot.pixel(x, y) != touched) continue;
            (y >= py(997 - b) && y <= py(1003 + b) ? hits : stray) += 1;
        }
        EXPECT_GT(hits, 0) << array;
        EXPECT_EQ(stray, 0) << array;
    }
}

// A 1,024 x 2 array, drawn 8 px tall as in the PNG, keeps its two rows apart: the 1 x 1 stencil
// on 1024 x 2 (thesis L1: 24 lines of 4 elements) at step 700 runs item (700, 0), which fetches
// in's line 175 (elements 700-703 of row 0); L1 holds the 24 lines last read, elements 608-703 of
// row 0, and row 1 is not read yet. Across, texels of 1, 2, 4, ... elements, the finest that
// reach a pixel; down, one row a texel, so row 0 shows L1 and the fetch where row 1 shows neither.
TEST(CachevizTallArray, ThinArrayKeepsBothRows) {
    REQUIRE_GUI();
    const fs::path dir = vt::test_dir("thinarray");
    const fs::path png = dir / "shot.png", state = dir / "state.txt", log = dir / "log.txt";
    const int code = vt::run_under_xvfb(vt::cacheviz_bin(),
                                        "--size 1024x2 --stencil 1x1 --playhead 700 --window 1280x800 --frames 3 --screenshot '" +
                                            png.string() + "' --state '" + state.string() + "'",
                                        log);
    ASSERT_EQ(code, 0) << vt::read_file(log);
    const vt::State s(vt::read_file(state));
    ASSERT_EQ(s.value("pane A array_view step"), "700") << vt::read_file(state);
    const std::vector<double> r = s.numbers("pane A array_rect in");
    ASSERT_EQ(r.size(), 4u);
    ASSERT_EQ(r[3], 8) << "drawn 8 px tall";
    std::uint64_t block = 1;
    while (r[2] * static_cast<double>(block) < 1024) block *= 2;
    EXPECT_EQ(s.value("pane A array in"), "1024 2 texels 1024 2 per_texel 1x1 drawn_per_texel " + std::to_string(block) + "x1");

    const cachesim::viz::Canvas shot = cachesim::viz::decode_png(vt::read_file(png));
    const auto px = [&](double element) { return static_cast<int>(r[0] + (element + 0.5) * r[2] / 1024); };
    const auto py = [&](int row) { return static_cast<int>(r[1] + (row + 0.5) * r[3] / 2); };
    const auto at = [&](double element, int row) { return shot.pixel(px(element), py(row)); };
    EXPECT_EQ(at(650, 0), cell_color(CellState::in_l1));
    EXPECT_EQ(at(650, 1), cell_color(CellState::not_cached));
    EXPECT_EQ(at(100, 0), cell_color(CellState::not_cached));
    int fetched[2] = {0, 0};
    for (int x = static_cast<int>(r[0]); x < static_cast<int>(r[0] + r[2]); ++x)
        for (int row = 0; row < 2; ++row)
            if (shot.pixel(x, py(row)) == cell_color(CellState::fetched_from_memory)) ++fetched[row];
    EXPECT_GT(fetched[0], 0);
    EXPECT_EQ(fetched[1], 0);
}
