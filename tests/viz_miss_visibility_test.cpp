// Zoomed-out diagrams keep their misses: every pixel that covers an L1 miss shows a miss colour
// (the density ramp by default, red/orange with any-miss) and no other pixel does. The expected
// pixels come from a second, unrecorded run of the same simulation whose own observer notes each
// L1 lookup that missed (step, line); they are mapped to pixels through the picture's geometry
// alone (which steps and lines each pixel covers, rounded outwards to the recorded cells).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "tests/miss_log.hpp"
#include "traces/workload_source.hpp"
#include "viz/record.hpp"
#include "viz/render.hpp"

using namespace cachesim;
using namespace cachesim::viz;

namespace {

bool is_miss_colour(Rgba c) {
    for (CellState s : {CellState::accessed, CellState::stored, CellState::in_l1, CellState::in_l2, CellState::not_cached})
        if (c == muted_color(s)) return false;
    return true;
}

// Per plot column: the pixel rows (absolute y) expected to show a miss.
std::map<int, std::set<int>> expected_pixels(const Diagram& d, const TimeDiagramLayout& lay,
                                             const std::vector<std::pair<std::uint64_t, std::uint64_t>>& misses) {
    const std::uint64_t spc = d.steps_per_column(), rpb = d.rows_per_bucket();
    // Each pixel's steps and rows, rounded outwards to whole recorded cells.
    std::vector<std::pair<std::uint64_t, std::uint64_t>> cols;
    for (int px = 0; px < lay.plot.w; ++px) {
        const auto [t0, t1] = lay.steps_of_column(px);
        cols.push_back({t0 / spc * spc, (t1 + spc - 1) / spc * spc});
    }
    std::map<int, std::set<int>> out;
    for (const auto& [step, line] : misses) {
        const std::uint64_t row = d.layout().row_of_line(line);
        if (row == kNoRow) continue;
        for (std::size_t b = 0; b < lay.groups.size(); ++b)
            for (int py = 0; py < lay.groups[b].h; ++py) {
                // Rounded outwards to whole cells, which count from the array's first line and end
                // at its last.
                auto [r0, r1] = lay.rows_of_pixel(b, py);
                const RowGroup& g = *d.layout().group_of_row(r0);
                r0 = g.first_row + (r0 - g.first_row) / rpb * rpb;
                r1 = std::min(g.first_row + g.lines, g.first_row + (r1 - g.first_row + rpb - 1) / rpb * rpb);
                if (row < r0 || row >= r1) continue;
                // The pixel columns near the step's own (rounding reaches at most one cell further).
                const auto centre = static_cast<int>((step - lay.from) * lay.plot.w / (lay.to - lay.from));
                const int reach = 2 + static_cast<int>(spc * lay.plot.w / (lay.to - lay.from));
                for (int px = std::max(0, centre - reach); px < std::min(lay.plot.w, centre + reach + 1); ++px)
                    if (step >= cols[px].first && step < cols[px].second) out[px].insert(lay.groups[b].y + py);
            }
    }
    return out;
}

void expect_misses_shown(const Diagram& d, const std::vector<std::pair<std::uint64_t, std::uint64_t>>& misses,
                         std::uint64_t expected_miss_count) {
    ASSERT_EQ(misses.size(), expected_miss_count);
    TimeDiagramStyle style;  // the defaults: density
    const RenderedTimeDiagram r = render_time_diagram(d, style);
    const Canvas png = decode_png(encode_png(r.image));
    const TimeDiagramLayout& lay = r.layout;
    ASSERT_TRUE(lay.aggregated);
    ASSERT_TRUE(lay.density);
    const auto expected = expected_pixels(d, lay, misses);
    std::uint64_t shown = 0, columns_with_misses = 0;
    for (int px = 0; px < lay.plot.w; ++px) {
        std::set<int> got;
        for (const PixelRect& band : lay.groups)
            for (int y = band.y; y < band.y + band.h; ++y)
                if (is_miss_colour(png.pixel(lay.plot.x + px, y))) got.insert(y);
        const auto it = expected.find(px);
        const std::set<int> want = it == expected.end() ? std::set<int>{} : it->second;
        ASSERT_EQ(got.size(), want.size()) << "plot column " << px;
        ASSERT_EQ(got, want) << "plot column " << px;
        shown += got.size();
        columns_with_misses += !got.empty();
    }
    EXPECT_GT(shown, 0u);
    EXPECT_EQ(columns_with_misses, expected.size());
    // The misses spread over the whole run: most pixel columns hold some.
    EXPECT_GT(columns_with_misses, static_cast<std::uint64_t>(lay.plot.w) * 8 / 10);

    // any-miss: the same pixels, in the fetch colours.
    style.aggregate = AggregateRule::any_miss;
    const RenderedTimeDiagram any = render_time_diagram(d, style);
    for (const auto& [px, ys] : expected)
        for (int y : ys) {
            const Rgba c = any.image.pixel(lay.plot.x + px, y);
            ASSERT_TRUE(c == cell_color(CellState::fetched_from_memory) || c == cell_color(CellState::fetched_from_l2))
                << px << "," << y;
        }
}

}  // namespace

TEST(VizMissVisibility, Stencil256ThesisCache) {
    WorkloadSpec w;  // 256x256, 5x5 box, linear; the thesis's 24-line L1 of 16 B
    w.width = w.height = 256;
    w.stencil_w = w.stencil_h = 5;
    HierarchyConfig h;
    h.l1.size_bytes = 384;
    h.l1.line_bytes = 16;
    const test::MissLog log = test::log_thread_model_misses(w, h);
    WorkloadSource source(w);
    const RecordedRun run = record_thread_model(source, h, {}, w);
    // 81,536: the run's L1 misses (`cachesim simulate --size 256x256 --stencil 5x5 --preset thesis-stencil`),
    // the same count as the log's.
    expect_misses_shown(run.diagram, log.misses, run.result.levels[0].read_misses);
}

TEST(VizMissVisibility, GpuModel128) {
    WorkloadSpec w;
    w.width = w.height = 128;
    w.stencil_w = w.stencil_h = 5;
    GpuConfig config = with_sms(find_gpu_preset("h200")->config, 4);
    config.block = 128;
    GpuResult plain;
    const test::MissLog log = test::log_misses([&](const RunControl& c) { plain = simulate_gpu_model(w, config, c); });
    const RecordedRun run = record_gpu_model(w, config, {});
    expect_misses_shown(run.diagram, log.misses, plain.ncu.l1_sectors_ld - plain.ncu.l1_sectors_ld_hit);
}
