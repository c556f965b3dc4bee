// --lines: a band of lines enlarged. The crop shows, cell for cell, what the full picture shows
// for those lines; the row and the array-element forms name the same rows; bad ranges exit 2.
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/cli_util.hpp"
#include "tests/viz_thesis_run.hpp"
#include "traces/input_error.hpp"
#include "viz/line_range.hpp"
#include "viz/render.hpp"

using namespace cachesim;
using namespace cachesim::viz;

TEST(VizLinesOption, CropEqualsRowsOfFullPicture) {
    const WorkloadSpec w = viz::testing::thesis_stencil();
    const HierarchyConfig h = viz::testing::thesis_cache();
    const RecordedRun full = viz::testing::record(w, h, {});
    // in is 16 x 16 elements of 4 B (the stencil clamps at the borders): 4 per 16-byte line. in[32]:in[160] = elements 32..159 =
    // lines 8..39.
    const RowRange range = parse_row_range("in[32]:in[160]", full.diagram.layout());
    EXPECT_EQ(range.first, 8u);
    EXPECT_EQ(range.end, 40u);
    const RowRange by_index = parse_row_range("8:40", full.diagram.layout());
    EXPECT_EQ(by_index.first, 8u);
    EXPECT_EQ(by_index.end, 40u);
    // in[x,y] is element y * 16 + x: in[0,2] = in[32].
    EXPECT_EQ(parse_row_range("in[0,2]:in[160]", full.diagram.layout()).first, 8u);
    // As an end, in[0,16] is the element past the last (in[256]): every one of in's 64 lines.
    const RowRange to_the_end = parse_row_range("in[0,8]:in[0,16]", full.diagram.layout());
    EXPECT_EQ(to_the_end.first, 32u);
    EXPECT_EQ(to_the_end.end, 64u);
    EXPECT_THROW(parse_row_range("in[0,16]:in[0,16]", full.diagram.layout()), InputError);  // not as a start
    EXPECT_THROW(parse_row_range("in[0,8]:in[1,16]", full.diagram.layout()), InputError);

    RecorderOptions window;
    window.first_row = range.first;
    window.window_rows = range.rows();
    const RecordedRun part = viz::testing::record(w, h, window);
    TimeDiagramStyle style;
    const RenderedTimeDiagram whole = render_time_diagram(full.diagram, style);
    style.rows = range;
    const RenderedTimeDiagram crop = render_time_diagram(part.diagram, style);
    ASSERT_EQ(crop.layout.groups.size(), 1u);  // only `in`
    EXPECT_FALSE(crop.layout.aggregated);
    int compared = 0;
    for (std::uint64_t row = 0; row < full.diagram.rows(); ++row)
        for (std::uint64_t t = 0; t < 256; ++t) {
            const int y = crop.layout.y_of_row(part.diagram.layout(), row);
            if (row < 8 || row >= 40) {
                EXPECT_EQ(y, -1) << row;
                continue;
            }
            const Rgba a = crop.image.pixel(crop.layout.x_of_step(t), y);
            const Rgba b = whole.image.pixel(whole.layout.x_of_step(t), whole.layout.y_of_row(full.diagram.layout(), row));
            ASSERT_EQ(a, b) << "step " << t << " row " << row;
            ++compared;
        }
    EXPECT_EQ(compared, 32 * 256);
    // Each line is taller than in the full picture.
    EXPECT_GT(crop.layout.groups[0].h / 32, whole.layout.groups[0].h / static_cast<int>(whole.layout.band_rows[0]));
}

TEST(VizLinesOption, CliFormsAgreeAndBadRangesExit2) {
    const auto a = test::temp_dir() / "lines_a.png";
    const auto b = test::temp_dir() / "lines_b.png";
    auto r = test::run_cachesim("diagram --preset thesis-stencil --lines 8:40 --out '" + a.string() + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = test::run_cachesim("diagram --preset thesis-stencil --lines 'in[32]:in[160]' --out '" + b.string() + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(test::read_file(a), test::read_file(b));

    const auto out = test::temp_dir() / "never_lines.png";
    const std::string o = " --preset thesis-stencil --out '" + out.string() + "'";
    const std::pair<std::string, std::string> cases[] = {
        {"diagram --lines 40:8" + o, "--lines: '40:8' is empty"},
        {"diagram --lines 0:999" + o, "past the last row"},
        {"diagram --lines 12" + o, "expected FROM:TO"},
        {"diagram --lines a:b" + o, "is not a whole number"},
        {"diagram --lines 'nope[1]:nope[2]'" + o, "no array 'nope' (arrays: in, out)"},
        {"diagram --lines 'in[0]:in[257]'" + o, "past the end of in (256 elements)"},
        {"diagram --lines 'in[16,0]:in[40]'" + o, "outside in (16 x 16 elements)"},
        {"diagram --lines 'in[0]:in[0]'" + o, "leaves no element"},
    };
    for (const auto& [args, message] : cases) {
        const auto res = test::run_cachesim(args);
        EXPECT_EQ(res.exit_code, 2) << args;
        EXPECT_NE(res.err.find(message), std::string::npos) << args << "\n" << res.err;
        EXPECT_FALSE(std::filesystem::exists(out)) << args;
    }
}
