#pragma once
// The memory chart of a GPU-model run, in the manner of Nsight Compute's "Memory Workload
// Analysis" chart: the kernel's requests and sectors flowing L1 -> L2 -> DRAM, with each level's
// hit rate, the L2 traffic the L1s' misses cause (less the sectors coalesced into another SM's
// request on the way), the far-partition traffic and DRAM bytes.
//
// Plain draw data, no renderer: boxes and arrows in chart units (x and y in [0, 1], y downwards,
// the chart's aspect left to the renderer), each with its text lines, each part as tall as its
// text needs at the chart's least height. render.cpp draws it in the
// PNG's legend column; a GUI can draw the same data.
#include <functional>
#include <string>
#include <vector>

#include "sim/gpu/gpu_config.hpp"
#include "sim/gpu/gpu_result.hpp"

namespace cachesim::viz {

struct ChartBox {
    std::string title;
    std::vector<std::string> lines;
    double x = 0, y = 0, w = 0, h = 0;  // chart units
};

// From (x0, y0) to (x1, y1), the head at the end; labels are written beside its middle.
struct ChartArrow {
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    std::vector<std::string> labels;
};

// The spacing a renderer keeps, in font sizes: the chart's title above the boxes; in a box, its
// title and margins, then one line each; an arrow's head and margins, then one line per label.
inline constexpr double kChartTitleFonts = 1.8;
inline constexpr double kBoxTitleFonts = 1.8, kBoxLineFonts = 1.35;
inline constexpr double kArrowHeadFonts = 1.0, kArrowLabelFonts = 1.25;

struct MemoryChart {
    std::string title;
    std::vector<ChartBox> boxes;    // kernel, L1, L2, DRAM, top to bottom
    std::vector<ChartArrow> arrows;  // kernel -> L1 -> L2 -> DRAM
    // The height, in font sizes, at which every text fits with the spacing above (the parts'
    // heights are in proportion to their text).
    double min_height_fonts = 0;
};

// `config`: the run's configuration (SMs, partitions, L2 size); `g`: its result.
MemoryChart gpu_memory_chart(const GpuResult& g, const GpuConfig& config);

// The margins every renderer keeps around the chart's texts, in pixels: a box's texts from its
// left and right edges; an arrow's labels from the arrow and from the chart's right edge.
inline constexpr double kBoxTextPad = 6, kArrowLabelGap = 10, kArrowLabelRightPad = 4;

// What a text of the chart is, for a renderer that sets them in different sizes.
enum class ChartText { box_title, box_line, arrow_label };

// The least width, in the renderer's pixels, at which each box's texts fit inside the box (its
// share `w` of the chart's width, less the margins) and each arrow's labels between the arrow
// and the chart's right edge; `width_of` measures a text as the renderer sets it. The chart's
// title is the renderer's to fit (set whole or wrapped).
double memory_chart_least_width(const MemoryChart& chart,
                                const std::function<double(const std::string&, ChartText)>& width_of);

}  // namespace cachesim::viz
