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
    run.result = simulate_thread_model(source, hierarchy, with_recorder);
    run.snapshot = recorder.snapshot();
    run.diagram = recorder.finish();
    return run;
}

}  // namespace cachesim::viz
