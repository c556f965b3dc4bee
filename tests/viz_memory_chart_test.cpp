// The GPU memory chart's draw data: four boxes (kernel, L1, L2, DRAM) joined by three arrows
// pointing down, inside the unit square, labelled with the run's counters. The L1 misses the
// arrow into L2 names are the sectors looked up less those hit (ncu's l1tex counters), and they
// split into the L2 read sectors plus the coalesced ones.
#include <gtest/gtest.h>

#include <cstdio>

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
    EXPECT_EQ(chart.boxes[2].lines.at(2).rfind("far: " + thousands(g.l2_far_lookups()) + " lookups", 0), 0u);
}

namespace {

GpuResult small_run(GpuConfig& config) {
    WorkloadSpec w;
    w.width = w.height = 128;
    w.stencil_w = w.stencil_h = 5;
    config.block = 128;
    return simulate_gpu_model(w, config);
}

std::string percent_text(double pct) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f%%", pct);
    return buf;
}

}  // namespace

// With two L2 halves three L2 rates differ, and the box names each for what it counts: every
// read lookup (Nsight's lts__t_sector_op_read_hit_rate), the near half's lookups from the L1s,
// and the L1s' sectors that either half served (the L2 level's read hits).
TEST(VizMemoryChart, TwoHalvesNameEachL2Rate) {
    GpuConfig config = with_sms(find_gpu_preset("h200")->config, 4);
    ASSERT_EQ(config.l2_partitions, 2u);
    const GpuResult g = small_run(config);
    const NcuCounters& n = g.ncu;
    ASSERT_GT(n.l2_sectors_fabric_read, 0u);  // the halves differ only where the far half is asked
    const std::vector<std::string> lines = gpu_memory_chart(g, config).boxes[2].lines;
    ASSERT_EQ(lines.size(), 4u);
    const double all = 100.0 * static_cast<double>(n.l2_sectors_tex_read_hit + n.l2_sectors_fabric_read_hit) /
                       static_cast<double>(n.l2_sectors_tex_read + n.l2_sectors_fabric_read);
    EXPECT_EQ(lines[0], "hit rate " + percent_text(all) + " of all read lookups");
    EXPECT_EQ(lines[1], "near: " + percent_text(100.0 * static_cast<double>(n.l2_sectors_tex_read_hit) /
                                                static_cast<double>(n.l2_sectors_tex_read)) + " of L1's reads");
    EXPECT_EQ(lines[2], "far: " + thousands(n.l2_sectors_fabric_read) + " lookups, " + thousands(n.l2_sectors_fabric_read_hit) + " hits");
    const LevelStats& l2 = g.result.levels.at(1);
    ASSERT_EQ(l2.name, "L2");
    EXPECT_EQ(lines[3], "near or far: " + percent_text(100.0 * static_cast<double>(l2.read_hits) / static_cast<double>(l2.reads)) +
                            " of L1's reads");
}

TEST(VizMemoryChart, OneL2HasOneRate) {
    GpuConfig config = with_sms(find_gpu_preset("h200")->config, 4);
    config.l2_partitions = 1;
    const GpuResult g = small_run(config);
    const NcuCounters& n = g.ncu;
    EXPECT_EQ(n.l2_sectors_fabric_read, 0u);
    const std::vector<std::string> lines = gpu_memory_chart(g, config).boxes[2].lines;
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0], "hit rate " + percent_text(100.0 * static_cast<double>(n.l2_sectors_tex_read_hit) /
                                                   static_cast<double>(n.l2_sectors_tex_read)));
    EXPECT_EQ(lines[1], thousands(n.l2_sectors_tex_read_hit) + " / " + thousands(n.l2_sectors_tex_read) + " sectors hit");
}

// Boxes and arrows follow each other down the whole unit height, each as tall as its text: at
// min_height_fonts font sizes a box holds its title and 1.35 fonts a line, an arrow its head and
// 1.25 fonts a label, under the chart's title.
TEST(VizMemoryChart, PartsStackedInProportionToTheirText) {
    GpuConfig config = with_sms(find_gpu_preset("h200")->config, 4);
    const MemoryChart chart = gpu_memory_chart(small_run(config), config);
    // Box lines 2, 2, 4, 2 and arrow labels 2, 3, 2.
    const double body = 4 * 1.8 + 1.35 * (2 + 2 + 4 + 2) + 3 * 1.0 + 1.25 * (2 + 3 + 2);
    EXPECT_NEAR(chart.min_height_fonts, 1.8 + body, 1e-9);
    double y = 0;
    for (std::size_t i = 0; i < chart.boxes.size(); ++i) {
        const ChartBox& b = chart.boxes[i];
        EXPECT_NEAR(b.y, y, 1e-12);
        EXPECT_NEAR(b.h * body, 1.8 + 1.35 * static_cast<double>(b.lines.size()), 1e-9) << b.title;
        y += b.h;
        if (i == chart.arrows.size()) break;
        const ChartArrow& a = chart.arrows[i];
        EXPECT_NEAR(a.y0, y, 1e-12);
        EXPECT_NEAR((a.y1 - a.y0) * body, 1.0 + 1.25 * static_cast<double>(a.labels.size()), 1e-9);
        y = a.y1;
    }
    EXPECT_NEAR(y, 1.0, 1e-12);
}
