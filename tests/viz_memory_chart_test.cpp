// The GPU memory chart's draw data: four boxes (kernel, L1, L2, DRAM) joined by three arrows
// pointing down, inside the unit square, labelled with the run's counters. The L1 misses the
// arrow into L2 names are the sectors looked up less those hit (ncu's l1tex counters), and they
// split into the L2 read sectors plus the coalesced ones.
#include <gtest/gtest.h>

#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "viz/memory_chart.hpp"
#include "viz/notes.hpp"

using namespace cachesim;
using namespace cachesim::viz;

TEST(VizMemoryChart, BoxesArrowsAndCounters) {
    WorkloadSpec w;
    w.width = w.height = 128;
    w.stencil_w = w.stencil_h = 5;
    GpuConfig config = with_sms(find_gpu_preset("h200")->config, 4);
    config.block = 128;
    const GpuResult g = simulate_gpu_model(w, config);
    const MemoryChart chart = gpu_memory_chart(g, config);
    ASSERT_EQ(chart.boxes.size(), 4u);
    ASSERT_EQ(chart.arrows.size(), 3u);
    for (const ChartBox& b : chart.boxes) {
        EXPECT_GE(b.x, 0);
        EXPECT_GE(b.y, 0);
        EXPECT_LE(b.x + b.w, 1.0 + 1e-9);
        EXPECT_LE(b.y + b.h, 1.0 + 1e-9);
    }
    for (std::size_t i = 0; i < 3; ++i) {
        const ChartArrow& a = chart.arrows[i];
        EXPECT_DOUBLE_EQ(a.y0, chart.boxes[i].y + chart.boxes[i].h);  // from the bottom of one box
        EXPECT_DOUBLE_EQ(a.y1, chart.boxes[i + 1].y);                   // to the top of the next
    }
    EXPECT_NE(chart.boxes[0].title.find("4 SMs"), std::string::npos);
    EXPECT_EQ(chart.boxes[0].lines[0], thousands(g.load_requests) + " load requests");
    const std::uint64_t l1_misses = g.ncu.l1_sectors_ld - g.ncu.l1_sectors_ld_hit;
    EXPECT_EQ(l1_misses, g.ncu.l2_sectors_tex_read + g.ncu.l2_sectors_coalesced);
    EXPECT_EQ(chart.arrows[1].labels[0],
              thousands(g.ncu.l2_sectors_tex_read) + " read sectors (" + thousands(l1_misses) + " L1 misses");
    EXPECT_NE(chart.boxes[2].lines.back().find("far: " + thousands(g.l2_far_lookups())), std::string::npos);
}
