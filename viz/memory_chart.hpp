#pragma once
// The memory chart of a GPU-model run, in the manner of Nsight Compute's "Memory Workload
// Analysis" chart: the kernel's requests and sectors flowing L1 -> L2 -> DRAM, with each level's
// hit rate, the L2 traffic the L1s' misses cause (less the sectors coalesced into another SM's
// request on the way), the far-partition traffic and DRAM bytes.
//
// Plain draw data, no renderer: boxes and arrows in chart units (x and y in [0, 1], y downwards,
// the chart's aspect left to the renderer), each with its text lines. render.cpp draws it in the
// PNG's legend column; a GUI can draw the same data.
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

struct MemoryChart {
    std::string title;
    std::vector<ChartBox> boxes;    // kernel, L1, L2, DRAM, top to bottom
    std::vector<ChartArrow> arrows;  // kernel -> L1 -> L2 -> DRAM
};

// `config`: the run's configuration (SMs, partitions, L2 size); `g`: its result.
MemoryChart gpu_memory_chart(const GpuResult& g, const GpuConfig& config);

}  // namespace cachesim::viz
