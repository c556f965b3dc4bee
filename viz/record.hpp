#pragma once
// One simulation with a diagram recorder attached: the counters and the diagram together.
#include <optional>
#include <string>

#include "sim/gpu/gpu_model.hpp"
#include "sim/thread_model.hpp"
#include "traces/access_source.hpp"
#include "traces/workload_spec.hpp"
#include "viz/diagram_recorder.hpp"

namespace cachesim::viz {

struct RecordedRun {
    SimulationResult result;
    Diagram diagram;
    std::optional<LineSnapshot> snapshot;
    // options.stop_when_recorded stopped the run after the window: `result` (and the GPU model's
    // full result) are left empty; the diagram and snapshot are complete.
    bool stopped_after_window = false;
};

// Thread model. `control.observer`, when set, sees every event after the recorder (cacheviz's
// cache contents at a step, from the run it draws); progress and cancel pass through (Cancelled propagates, except the stop that options.stop_when_recorded
// raises once the window is recorded). expected_steps defaults to the workload's items.
RecordedRun record_thread_model(AccessSource& source, const HierarchyConfig& hierarchy,
                                RecorderOptions options, const std::optional<WorkloadSpec>& workload,
                                const RunControl& control = {});

// The hierarchy the GPU model simulates (its effective L1 and its L2), as the recorder sees it.
HierarchyConfig gpu_hierarchy(const GpuConfig& config);

// GPU model: a step is one scheduling round (every SM with work issues one request); every SM's
// L1 reports as level 0. `gpu` receives the model's full result when given. With
// options.record_sm the diagram also holds the SM of each cell (the run keeps an issue log).
RecordedRun record_gpu_model(const WorkloadSpec& workload, const GpuConfig& config, RecorderOptions options,
                             const RunControl& control = {}, GpuResult* gpu = nullptr);
// The same for the launch recorded in the cst version 2 trace at `path` (simulate_gpu_trace): the
// rows are the lines of the trace's arrays.
RecordedRun record_gpu_trace(const std::string& path, const GpuConfig& config, RecorderOptions options,
                             const RunControl& control = {}, GpuResult* gpu = nullptr);

}  // namespace cachesim::viz
