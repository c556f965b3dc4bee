#pragma once
// A recorded kernel that cacheviz replays instead of a workload (cacheviz --trace).
#include <cstdint>
#include <string>

#include "traces/trace_format.hpp"
#include "traces/workload_spec.hpp"

namespace cachesim::gui {

// A cst version 2 trace, drawn by the arrays its header holds (apps/common/drawable_trace.hpp).
struct RecordedTrace {
    std::string path;  // as given
    cst::TraceHeader header;
    std::uint32_t threads_per_block() const { return header.launch ? header.launch->threads_per_block() : 0; }
};

// What a run replays, for titles and the state: the workload, or the trace's name and launch.
std::string describe_subject(const WorkloadSpec& workload, const RecordedTrace* trace);
// The thread model's steps: the workload's items, or the trace's threads.
std::uint64_t thread_model_steps(const WorkloadSpec& workload, const RecordedTrace* trace);

}  // namespace cachesim::gui
