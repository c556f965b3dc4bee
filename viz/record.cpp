#include "viz/record.hpp"

namespace cachesim::viz {

namespace {

// Runs `simulate(control with the recorder attached, result)`, then takes the recorder's snapshot
// and diagram. A cancellation raised by the recorder's own early stop (options.stop_when_recorded,
// once the window is recorded) ends the run normally; any other propagates.
template <class Simulate>
RecordedRun run_recorded(DiagramRecorder& recorder, const RecorderOptions& options, const RunControl& control,
                         Simulate&& simulate) {
    RunControl with_recorder = control;
    with_recorder.observer = &recorder;
    RecordedRun run;
    try {
        simulate(with_recorder, run.result);
    } catch (const Cancelled&) {
        if (!recorder.window_recorded() || !options.stop_when_recorded) throw;
        run.stopped_after_window = true;
    }
    run.snapshot = recorder.snapshot();
    run.diagram = recorder.finish();
    return run;
}

}  // namespace

RecordedRun record_thread_model(AccessSource& source, const HierarchyConfig& hierarchy,
                                RecorderOptions options, const std::optional<WorkloadSpec>& workload,
                                const RunControl& control) {
    if (options.expected_steps == 0 && workload) options.expected_steps = workload->items();
    DiagramRecorder recorder(source.arrays(), hierarchy, options, workload);
    return run_recorded(recorder, options, control, [&](const RunControl& c, SimulationResult& result) {
        result = simulate_thread_model(source, hierarchy, c);
    });
}

HierarchyConfig gpu_hierarchy(const GpuConfig& config) {
    HierarchyConfig h;
    h.l1 = effective_l1(config);
    h.l2 = config.l2;
    h.seed = config.seed;
    return h;
}

RecordedRun record_gpu_model(const WorkloadSpec& workload, const GpuConfig& config, RecorderOptions options,
                             const RunControl& control, GpuResult* gpu) {
    options.gpu_events = true;
    // The SM of each request: the model's issue log, emptied by the recorder at every step.
    std::vector<GpuIssue> issues;
    GpuConfig run_config = config;
    if (options.record_sm) {
        options.issue_log = &issues;
        run_config.issue_log = &issues;
    }
    // Rounds are unknown up front; the recorder merges columns as the run grows.
    DiagramRecorder recorder(workload.arrays(), gpu_hierarchy(config), options);
    GpuResult r;
    RecordedRun run = run_recorded(recorder, options, control, [&](const RunControl& c, SimulationResult& result) {
        r = simulate_gpu_model(workload, run_config, c);
        result = r.result;
    });
    if (gpu) *gpu = std::move(r);
    return run;
}

}  // namespace cachesim::viz
