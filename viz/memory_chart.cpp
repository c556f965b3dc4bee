#include "viz/memory_chart.hpp"

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

}  // namespace

MemoryChart gpu_memory_chart(const GpuResult& g, const GpuConfig& config) {
    const NcuCounters& n = g.ncu;
    MemoryChart chart;
    chart.title = "memory chart (global loads, Nsight Compute names)";
    // Four boxes down the left, arrows between them with their labels to the right.
    const double box_w = 0.42, box_h = 0.16, gap = (1.0 - 4 * box_h) / 3;
    auto y_of = [&](int i) { return i * (box_h + gap); };
    const std::uint64_t l1_misses = n.l1_sectors_ld - n.l1_sectors_ld_hit;
    char per_request[48];
    std::snprintf(per_request, sizeof per_request, "%.2f sectors / request",
                  g.load_requests ? static_cast<double>(g.load_sectors) / static_cast<double>(g.load_requests) : 0.0);

    chart.boxes.push_back({"kernel: " + thousands(config.sms) + " SMs",
                           {thousands(g.load_requests) + " load requests", thousands(g.store_requests) + " store requests"},
                           0, y_of(0), box_w, box_h});
    chart.boxes.push_back({"L1 " + bytes(g.l1.size_bytes) + " per SM",
                           {"hit rate " + percent(n.l1_sectors_ld_hit, n.l1_sectors_ld),
                            thousands(n.l1_sectors_ld_hit) + " / " + thousands(n.l1_sectors_ld) + " sectors hit"},
                           0, y_of(1), box_w, box_h});
    std::vector<std::string> l2_lines = {"hit rate " + percent(n.l2_sectors_tex_read_hit, n.l2_sectors_tex_read) +
                                             " (from L1)"};
    if (config.l2_partitions > 1)
        l2_lines.push_back("far: " + thousands(g.l2_far_lookups()) + " lookups, " + thousands(g.l2_far_hits()) + " hits");
    chart.boxes.push_back({config.l2.enabled() ? "L2 " + bytes(config.l2.size_bytes) +
                                                     (config.l2_partitions > 1 ? ", " + thousands(config.l2_partitions) + " partitions" : "")
                                               : "L2 off",
                           l2_lines, 0, y_of(2), box_w, box_h});
    chart.boxes.push_back({"DRAM",
                           {bytes(n.dram_bytes_read) + " read", bytes(g.result.memory_bytes_written) + " written"},
                           0, y_of(3), box_w, box_h});

    const double ax = box_w / 2;
    chart.arrows.push_back({ax, y_of(0) + box_h, ax, y_of(1),
                            {thousands(g.load_sectors) + " load sectors", per_request}});
    chart.arrows.push_back({ax, y_of(1) + box_h, ax, y_of(2),
                            {thousands(n.l2_sectors_tex_read) + " read sectors (" + thousands(l1_misses) + " L1 misses",
                             "  less " + thousands(n.l2_sectors_coalesced) + " coalesced)",
                             thousands(g.store_sectors) + " store sectors"}});
    chart.arrows.push_back({ax, y_of(2) + box_h, ax, y_of(3),
                            {thousands(n.l2_sectors_tex_read_miss) + " miss sectors",
                             bytes(n.dram_bytes_read) + " DRAM reads"}});
    return chart;
}

}  // namespace cachesim::viz
