#include "apps/cacheviz/recorded_trace.hpp"

#include "apps/common/drawable_trace.hpp"

namespace cachesim::gui {

std::string describe_subject(const WorkloadSpec& workload, const RecordedTrace* trace) {
    return trace ? "trace " + cli::describe_trace(trace->path, trace->header) : workload.describe();
}

std::uint64_t thread_model_steps(const WorkloadSpec& workload, const RecordedTrace* trace) {
    return trace ? trace->header.steps : workload.items();
}

}  // namespace cachesim::gui
