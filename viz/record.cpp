#include "viz/record.hpp"

namespace cachesim::viz {

RecordedRun record_thread_model(AccessSource& source, const HierarchyConfig& hierarchy,
                                RecorderOptions options, const std::optional<WorkloadSpec>& workload,
                                const RunControl& control) {
    if (options.expected_steps == 0 && workload) options.expected_steps = workload->items();
    DiagramRecorder recorder(source.arrays(), hierarchy, options, workload);
    RunControl with_recorder = control;
    with_recorder.observer = &recorder;
    RecordedRun run;
    try {
        run.result = simulate_thread_model(source, hierarchy, with_recorder);
    } catch (const Cancelled&) {
        if (!recorder.window_recorded() || !options.stop_when_recorded) throw;
        run.stopped_after_window = true;
    }
    run.snapshot = recorder.snapshot();
    run.diagram = recorder.finish();
    return run;
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
    // Rounds are unknown up front; the recorder merges columns as the run grows.
    DiagramRecorder recorder(workload.arrays(), gpu_hierarchy(config), options);
    RunControl with_recorder = control;
    with_recorder.observer = &recorder;
    RecordedRun run;
    GpuResult r;
    try {
        r = simulate_gpu_model(workload, config, with_recorder);
    } catch (const Cancelled&) {
        if (!recorder.window_recorded() || !options.stop_when_recorded) throw;
        run.stopped_after_window = true;
    }
    run.result = r.result;
    run.snapshot = recorder.snapshot();
    run.diagram = recorder.finish();
    if (gpu) *gpu = std::move(r);
    return run;
}

}  // namespace cachesim::viz
