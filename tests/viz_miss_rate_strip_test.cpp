// The miss-rate strip, on a run small enough to work by hand: a 16x1 image, 1x1 stencil, 4-byte
// elements, a 16-byte-line L1 that holds everything and an L2 of 16-byte lines. Item x reads
// in[x]: the L1 misses at x = 0, 4, 8, 12 (a new line of four elements) and hits otherwise; each
// of those misses is the L2's first lookup of that line, a miss. Stores look nothing up in L1
// and count as L2 writes, which the strip leaves out (read lookups only).
#include <gtest/gtest.h>

#include "traces/workload_source.hpp"
#include "viz/record.hpp"
#include "viz/render.hpp"

using namespace cachesim;
using namespace cachesim::viz;

namespace {

RecordedRun hand_run() {
    WorkloadSpec w;
    w.width = 16;
    w.height = 1;
    w.stencil_w = w.stencil_h = 1;
    HierarchyConfig h;
    h.l1.size_bytes = 1024;
    h.l1.line_bytes = 16;
    h.l2.size_bytes = 4096;
    h.l2.line_bytes = 16;
    WorkloadSource source(w);
    return record_thread_model(source, h, {}, w);
}

}  // namespace

TEST(VizMissRateStrip, SeriesPerLevel) {
    const RecordedRun run = hand_run();
    const auto& rates = run.diagram.miss_rates();
    ASSERT_EQ(rates.size(), 2u);
    EXPECT_EQ(rates[0].name(), "L1");
    EXPECT_EQ(rates[1].name(), "L2");
    EXPECT_EQ(rates[0].steps_per_bucket(), 1u);
    for (std::uint64_t t = 0; t < 16; ++t) {
        const bool miss = t % 4 == 0;
        EXPECT_EQ(rates[0].lookups(t), 1u) << t;
        EXPECT_EQ(rates[0].misses(t), miss ? 1u : 0u) << t;
        EXPECT_EQ(rates[1].lookups(t), miss ? 1u : 0u) << t;
        EXPECT_EQ(rates[1].misses(t), miss ? 1u : 0u) << t;
    }
    // Steps 0-7: 2 misses in 8 L1 lookups.
    EXPECT_DOUBLE_EQ(rates[0].sum(0, 8).rate(), 0.25);
    EXPECT_DOUBLE_EQ(rates[1].sum(0, 8).rate(), 1.0);
}

TEST(VizMissRateStrip, DrawnPerPixelColumn) {
    const RecordedRun run = hand_run();
    TimeDiagramStyle style;
    style.width = 900;
    style.height = 500;
    style.miss_rate_strip = TimeDiagramStyle::Strip::on;
    const RenderedTimeDiagram r = render_time_diagram(run.diagram, style);
    const PixelRect& s = r.layout.strip;
    ASSERT_GT(s.w, 0);
    ASSERT_EQ(r.layout.strip_levels.size(), 2u);
    EXPECT_DOUBLE_EQ(r.layout.strip_top_rate, 1.0);
    const Rgba l1{228, 26, 28, 255}, l2{255, 152, 0, 255};
    for (std::uint64_t t = 0; t < 16; ++t) {
        const int x = r.layout.x_of_step(t);
        const bool miss = t % 4 == 0;
        // L1: 100 % at the top on a miss, 0 % at the bottom on a hit. L2 (drawn after L1): 100 %
        // on the L1's misses, nothing between (no lookups).
        if (miss) {
            EXPECT_EQ(r.image.pixel(x, s.y), l2) << t;
        } else {
            EXPECT_EQ(r.image.pixel(x, s.y + s.h - 1), l1) << t;
            EXPECT_NE(r.image.pixel(x, s.y), l2) << t;
        }
    }
    // Off: no strip, and the exact picture of a small run does not draw one by default.
    style.miss_rate_strip = TimeDiagramStyle::Strip::automatic;
    EXPECT_EQ(render_time_diagram(run.diagram, style).layout.strip.w, 0);
}
