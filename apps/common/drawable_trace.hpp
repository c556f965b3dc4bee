#pragma once
// What a diagram of a recorded trace draws (cachesim diagram --trace, cacheviz --trace): the arrays
// a cst version 2 trace's header holds, with their names, bases, element sizes and 2D shapes, as
// the kernel recorder (traces/recorder.hpp) and `cachesim trace` write them. Other traces have no
// such layout: din and u64 traces hold addresses only, a version 1 cst trace (a converted din/u64
// trace, or --trace-version 1) holds no launch, and an Accel-Sim trace's arrays are the address
// regions its kernel touched, not allocations with a shape.
#include <string>

#include "apps/common/options.hpp"
#include "traces/trace_format.hpp"

namespace cachesim::cli {

// The header of the trace `sim` replays; InputError naming `given_path` (the --trace value) when
// the trace has no array layout to draw.
cst::TraceHeader drawable_trace_header(const SimulationOptions& sim, const std::string& given_path);

// "k.cst (grid 2x2x1, block 4x4x1)": the trace's file name and launch, for titles.
std::string describe_trace(const std::string& given_path, const cst::TraceHeader& header);

}  // namespace cachesim::cli
