#include "apps/common/drawable_trace.hpp"

#include <filesystem>

#include "traces/input_error.hpp"
#include "traces/trace_format_reader.hpp"

namespace cachesim::cli {

namespace {

const char* const kWhatToDraw =
    ": it has no array layout to draw (array names, bases, element sizes and 2D shapes, which cst version 2 "
    "traces of the kernel recorder or of `cachesim trace` hold); draw one of those, or a --workload";

}  // namespace

cst::TraceHeader drawable_trace_header(const SimulationOptions& sim, const std::string& given_path) {
    if (sim.traceg)
        throw InputError(given_path + ": an Accel-Sim trace, whose arrays are only the address regions its kernel touched" +
                         kWhatToDraw);
    if (!sim.trace_cst) throw InputError(given_path + ": a " + sim.trace_input.format + " trace" + kWhatToDraw);
    const cst::TraceFileSource trace(sim.trace_path);
    // A version 1 trace of a workload holds that workload's arrays (its steps are the work items in
    // launch order), so it draws; one converted from a din/u64 trace has one flat address range.
    if (!trace.header().launch && !trace.header().workload)
        throw InputError(given_path + ": a version 1 cst trace converted from a plain (din/u64) trace" + kWhatToDraw +
                         "; `cachesim trace --workload ... -o FILE.cst` records a workload's trace that draws");
    return trace.header();
}

std::string describe_trace(const std::string& given_path, const cst::TraceHeader& header) {
    const std::string name = std::filesystem::path(given_path).filename().string();
    return name + (header.launch ? " (" + header.launch->describe() + ")" : std::string());
}

}  // namespace cachesim::cli
