#include "viz/memory_chart.hpp"

#include <algorithm>
#include <cstdio>

#include "viz/notes.hpp"

namespace cachesim::viz {

namespace {

std::string percent(std::uint64_t part, std::uint64_t whole) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f%%", whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
    return buf;
}

std::string bytes(std::uint64_t b) {
    char buf[48];
    if (b >= (std::uint64_t{1} << 20)) std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(b) / (1 << 20));
    else if (b >= 1024) std::snprintf(buf, sizeof buf, "%.1f KiB", static_cast<double>(b) / 1024);
    else std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(b));
    return buf;
}

// The L2's rates, each named for what it counts, since three differ once the L2 has two halves:
// Nsight's hit rate is over every read lookup, the far half's included; the near half's over the
// L1s' lookups; and the share of the L1s' sectors either half served (the notes' "reads" rate,
// the L2 level's read hits in `simulate`).
std::vector<std::string> l2_box_lines(const GpuResult& g, const GpuConfig& config) {
    const NcuCounters& n = g.ncu;
    if (!config.l2.enabled()) return {};
    if (config.l2_partitions <= 1)
        return {"hit rate " + percent(n.l2_sectors_tex_read_hit, n.l2_sectors_tex_read),
                thousands(n.l2_sectors_tex_read_hit) + " / " + thousands(n.l2_sectors_tex_read) + " sectors hit"};
    const LevelStats* l2 = nullptr;
    for (const LevelStats& s : g.result.levels)
        if (s.name == "L2") l2 = &s;
    std::vector<std::string> lines = {
        "hit rate " + percent(n.l2_sectors_tex_read_hit + n.l2_sectors_fabric_read_hit,
                              n.l2_sectors_tex_read + n.l2_sectors_fabric_read) + " of all read lookups",
        "near: " + percent(n.l2_sectors_tex_read_hit, n.l2_sectors_tex_read) + " of L1's reads",
        "far: " + thousands(g.l2_far_lookups()) + " lookups, " + thousands(g.l2_far_hits()) + " hits"};
    if (l2) lines.push_back("near or far: " + percent(l2->read_hits, l2->reads) + " of L1's reads");
    return lines;
}

// Boxes and arrows stacked down the chart, each as tall as its text needs (in font sizes: a box's
// title and its lines, an arrow's labels and its head), scaled to the unit height, so that at
// min_height_fonts every text fits and taller charts grow every part alike.
void stack(MemoryChart& chart, double box_w) {
    const auto box_fonts = [](const ChartBox& b) { return kBoxTitleFonts + kBoxLineFonts * static_cast<double>(b.lines.size()); };
    const auto arrow_fonts = [](const ChartArrow& a) { return kArrowHeadFonts + kArrowLabelFonts * static_cast<double>(a.labels.size()); };
    double total = 0;
    for (const ChartBox& b : chart.boxes) total += box_fonts(b);
    for (const ChartArrow& a : chart.arrows) total += arrow_fonts(a);
    double y = 0;
    for (std::size_t i = 0; i < chart.boxes.size(); ++i) {
        ChartBox& b = chart.boxes[i];
        b.x = 0, b.y = y, b.w = box_w, b.h = box_fonts(b) / total;
        y += b.h;
        if (i >= chart.arrows.size()) continue;
        ChartArrow& a = chart.arrows[i];
        a.x0 = a.x1 = box_w / 2;
        a.y0 = y;
        y += arrow_fonts(a) / total;
        a.y1 = y;
    }
    chart.min_height_fonts = kChartTitleFonts + total;
}

}  // namespace

MemoryChart gpu_memory_chart(const GpuResult& g, const GpuConfig& config) {
    const NcuCounters& n = g.ncu;
    MemoryChart chart;
    chart.title = "memory chart (global loads, Nsight Compute names)";
    // Four boxes down the left, arrows between them with their labels to the right.
    const std::uint64_t l1_misses = n.l1_sectors_ld - n.l1_sectors_ld_hit;
    char per_request[48];
    std::snprintf(per_request, sizeof per_request, "%.2f sectors / request",
                  g.load_requests ? static_cast<double>(g.load_sectors) / static_cast<double>(g.load_requests) : 0.0);

    chart.boxes.push_back({"kernel: " + thousands(config.sms) + " SMs",
                           {thousands(g.load_requests) + " load requests", thousands(g.store_requests) + " store requests"}});
    chart.boxes.push_back({"L1 " + bytes(g.l1.size_bytes) + " per SM",
                           {"hit rate " + percent(n.l1_sectors_ld_hit, n.l1_sectors_ld),
                            thousands(n.l1_sectors_ld_hit) + " / " + thousands(n.l1_sectors_ld) + " sectors hit"}});
    chart.boxes.push_back({config.l2.enabled() ? "L2 " + bytes(config.l2.size_bytes) +
                                                     (config.l2_partitions > 1 ? ", " + thousands(config.l2_partitions) + " partitions" : "")
                                               : "L2 off",
                           l2_box_lines(g, config)});
    chart.boxes.push_back({"DRAM", {bytes(n.dram_bytes_read) + " read", bytes(g.result.memory_bytes_written) + " written"}});

    chart.arrows.push_back({.labels = {thousands(g.load_sectors) + " load sectors", per_request}});
    chart.arrows.push_back({.labels = {thousands(n.l2_sectors_tex_read) + " read sectors (" + thousands(l1_misses) + " L1 misses",
                                       "  less " + thousands(n.l2_sectors_coalesced) + " coalesced)",
                                       thousands(g.store_sectors) + " store sectors"}});
    chart.arrows.push_back({.labels = {thousands(n.l2_sectors_tex_read_miss) + " miss sectors", bytes(n.dram_bytes_read) + " DRAM reads"}});
    stack(chart, 0.42);
    return chart;
}

double memory_chart_least_width(const MemoryChart& chart,
                                const std::function<double(const std::string&, ChartText)>& width_of) {
    double w = 0;
    for (const ChartBox& b : chart.boxes) {
        if (b.w <= 0) continue;
        w = std::max(w, (width_of(b.title, ChartText::box_title) + 2 * kBoxTextPad) / b.w);
        for (const std::string& l : b.lines) w = std::max(w, (width_of(l, ChartText::box_line) + 2 * kBoxTextPad) / b.w);
    }
    for (const ChartArrow& a : chart.arrows) {
        const double room = 1 - std::max(a.x0, a.x1);  // the share right of the arrow
        if (room <= 0) continue;
        for (const std::string& l : a.labels)
            w = std::max(w, (kArrowLabelGap + width_of(l, ChartText::arrow_label) + kArrowLabelRightPad) / room);
    }
    return w;
}

}  // namespace cachesim::viz
