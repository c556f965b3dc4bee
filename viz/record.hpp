#pragma once
// One simulation with a diagram recorder attached: the counters and the diagram together.
#include <optional>

#include "sim/thread_model.hpp"
#include "traces/access_source.hpp"
#include "traces/workload_spec.hpp"
#include "viz/diagram_recorder.hpp"

namespace cachesim::viz {

struct RecordedRun {
    SimulationResult result;
    Diagram diagram;
    std::optional<LineSnapshot> snapshot;
};

// Thread model. `control.observer` is ignored (the recorder is the observer); progress and
// cancel pass through (Cancelled propagates). expected_steps defaults to the workload's items.
RecordedRun record_thread_model(AccessSource& source, const HierarchyConfig& hierarchy,
                                RecorderOptions options, const std::optional<WorkloadSpec>& workload,
                                const RunControl& control = {});

}  // namespace cachesim::viz
