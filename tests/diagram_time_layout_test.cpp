// The time view's layout: every line of the legend, the titles and the row labels lie inside the
// picture, no legend line over another, and row labels at least a label's height apart (rows
// that share a line share one label). Where the picture cannot hold them, the layout names the
// size that can, and `cachesim diagram` exits 2 naming it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/cli_util.hpp"
#include "traces/workload_source.hpp"
#include "viz/record.hpp"
#include "viz/render.hpp"

using namespace cachesim;
using namespace cachesim::viz;

namespace {

// A w x h 1x1 stencil, 4-byte elements, 16-byte lines (four elements a line) in L1 and L2.
RecordedRun stencil_run(std::uint32_t w, std::uint32_t h) {
    WorkloadSpec spec;
    spec.width = w;
    spec.height = h;
    spec.stencil_w = spec.stencil_h = 1;
    HierarchyConfig config;
    config.l1.size_bytes = 256;
    config.l1.line_bytes = 16;
    config.l2.size_bytes = 1024;
    config.l2.line_bytes = 16;
    WorkloadSource source(spec);
    return record_thread_model(source, config, {}, spec);
}

// Notes as many and as long as a run's usually are.
TimeDiagramStyle style(int width, int height) {
    TimeDiagramStyle s;
    s.width = width;
    s.height = height;
    s.title = "stencil 64x64, 1x1 box, linear";
    s.notes = {"stencil 64x64, 1x1 box, linear", "L1 256 B: 16 lines x 16 B, fully associative, lru",
               "L1: 1,024 misses / 4,096 lookups, hit rate 75.0%", "L2: 1,024 misses / 1,024 lookups",
               "thesis sec. 3.3.1 worst case: fetches <= 1,040", "recommended column width: 94"};
    s.miss_rate_strip = TimeDiagramStyle::Strip::on;
    return s;
}

// A chart wider than half of a 1400-pixel picture, so that it is left out there.
MemoryChart wide_chart() {
    MemoryChart c;
    c.title = "memory hierarchy";
    const std::string wide(120, 'x');
    c.boxes = {{"kernel", {wide}, 0, 0, 0.5, 0.2}, {"L1", {wide}, 0, 0.4, 0.5, 0.2}};
    c.arrows = {{0.25, 0.2, 0.25, 0.4, {"requests"}}};
    return c;
}

// Every text the layout records inside the picture, no legend line over another.
void expect_laid_out(const TimeDiagramLayout& lay, int width, int height) {
    EXPECT_TRUE(lay.fits);
    ASSERT_FALSE(lay.legend_lines.empty());
    for (std::size_t i = 0; i < lay.legend_lines.size(); ++i) {
        const PixelRect& r = lay.legend_lines[i];
        EXPECT_TRUE(r.inside(width, height)) << "legend line " << i << " at " << r.x << "," << r.y << " " << r.w << "x" << r.h;
        for (std::size_t j = 0; j < i; ++j) EXPECT_FALSE(r.overlaps(lay.legend_lines[j])) << i << " over " << j;
        EXPECT_FALSE(r.overlaps(lay.plot));
    }
    if (lay.title.w > 0) {
        EXPECT_TRUE(lay.title.inside(width, height));
    }
    EXPECT_TRUE(lay.time_title.inside(width, height))
        << lay.time_title.x << "," << lay.time_title.y << " " << lay.time_title.w << "x" << lay.time_title.h;
    for (const PixelRect& r : lay.y_labels) EXPECT_TRUE(r.inside(width, height));
}

}  // namespace

TEST(DiagramTimeLayout, ChartNoteIsALegendLineOfItsOwn) {
    const RecordedRun run = stencil_run(64, 64);
    TimeDiagramStyle s = style(1400, 360);
    s.memory_chart = wide_chart();
    s.aggregate = AggregateRule::priority;  // the state palette's seven swatches
    const RenderedTimeDiagram r = render_time_diagram(run.diagram, s);
    // Heading, seven swatches, six notes, two strip lines and the chart's note, top to bottom.
    const auto& lines = r.layout.legend_lines;
    ASSERT_EQ(lines.size(), 17u);
    for (std::size_t i = 0; i < lines.size(); ++i)
        for (std::size_t j = 0; j < i; ++j) EXPECT_FALSE(lines[i].overlaps(lines[j])) << i << " over " << j;
    // At 13 px: the heading at the plot's top (2.6 font sizes under a title, 33), eight lines of
    // 22 px (heading and swatches), half a line (11), then eight steps of 18 px to the ninth and last
    // note, which is as tall as 11.96-px text; 8 px of margin under it.
    const int last_top = 33 + 8 * 22 + 11 + 8 * 18;
    EXPECT_EQ(lines.back().y, last_top);
    const int needed = last_top + measure_text("memory chart: needs --width", 13 * 0.92).height() + 8;
    EXPECT_FALSE(r.layout.fits);
    EXPECT_EQ(r.layout.width_needed, 1400);
    EXPECT_EQ(r.layout.height_needed, needed);
    s.height = needed;
    const RenderedTimeDiagram again = render_time_diagram(run.diagram, s);
    expect_laid_out(again.layout, 1400, needed);
}

TEST(DiagramTimeLayout, SmallPictureNamesTheSizeThatFits) {
    const RecordedRun run = stencil_run(64, 64);
    const RenderedTimeDiagram r = render_time_diagram(run.diagram, style(500, 300));
    // The legend's widest note alone (about 300 px) leaves no room for the plot and its axis title.
    EXPECT_FALSE(r.layout.fits);
    EXPECT_GT(r.layout.width_needed, 500);
    const int w = r.layout.width_needed, h = r.layout.height_needed;
    const RenderedTimeDiagram again = render_time_diagram(run.diagram, style(w, h));
    expect_laid_out(again.layout, w, h);
    // The default picture fits as it is.
    const RenderedTimeDiagram usual = render_time_diagram(run.diagram, style(1400, 800));
    expect_laid_out(usual.layout, 1400, 800);
    EXPECT_EQ(usual.layout.width_needed, 1400);
    EXPECT_EQ(usual.layout.height_needed, 800);
}

TEST(DiagramTimeLayout, RowsSharingALineShareALabel) {
    // 2 x 8 elements of 4 bytes: a 16-byte line holds rows 2k and 2k + 1, so each of the four
    // lines of an array starts at an even row and the odd rows have no line of their own.
    const RecordedRun run = stencil_run(2, 8);
    TimeDiagramStyle s = style(900, 500);
    const RenderedTimeDiagram r = render_time_diagram(run.diagram, s);
    expect_laid_out(r.layout, 900, 500);
    ASSERT_EQ(r.layout.y_labels.size(), 4 * r.layout.groups.size());
    for (std::size_t i = 1; i < r.layout.y_labels.size(); ++i) {
        const PixelRect& a = r.layout.y_labels[i - 1];
        const PixelRect& b = r.layout.y_labels[i];
        EXPECT_GE(b.y - a.y, a.h) << "label " << i;
    }
}

TEST(DiagramTimeLayout, CliRefusesTooSmallAPicture) {
    const auto dir = test::temp_dir();
    const std::string out = (dir / "time_small.png").string();
    const test::CommandResult r =
        test::run_cachesim("diagram --size 64x64 --width 500 --height 300 --out '" + out + "'");
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("--width"), std::string::npos) << r.err;
    EXPECT_EQ(test::run_cachesim("diagram --size 64x64 --out '" + out + "'").exit_code, 0);
}

// The chart is drawn only where the picture is tall enough for its text (its least height in font
// sizes, under the plot's top); a picture a pixel shorter leaves it out and says so in a legend
// line of its own.
TEST(DiagramTimeLayout, ChartOnlyWhereTallEnoughForItsText) {
    const RecordedRun run = stencil_run(64, 64);
    MemoryChart chart;
    chart.title = "m";
    chart.boxes = {{"k", {"a"}, 0, 0, 0.4, 0.5}, {"d", {"b"}, 0, 0.6, 0.4, 0.4}};
    chart.arrows = {{0.2, 0.5, 0.2, 0.6, {"c"}}};
    chart.min_height_fonts = 40;
    // At 13 px: the plot's top 33 (2.6 font sizes under a title), 40 x 13 = 520 for the chart, 8 under it.
    const int tall_enough = 33 + 520 + 8;
    TimeDiagramStyle s = style(1400, tall_enough);
    s.memory_chart = chart;
    const RenderedTimeDiagram shown = render_time_diagram(run.diagram, s);
    EXPECT_GT(shown.layout.memory_chart.w, 0);
    EXPECT_GE(shown.layout.memory_chart.h, 520);
    EXPECT_TRUE(shown.layout.memory_chart.inside(1400, tall_enough));
    expect_laid_out(shown.layout, 1400, tall_enough);
    s.height = tall_enough - 1;
    const RenderedTimeDiagram left_out = render_time_diagram(run.diagram, s);
    EXPECT_EQ(left_out.layout.memory_chart.w, 0);
    EXPECT_EQ(left_out.layout.legend_lines.size(), shown.layout.legend_lines.size() + 1);  // the chart's note
    expect_laid_out(left_out.layout, 1400, tall_enough - 1);
}
