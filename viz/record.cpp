#include "viz/record.hpp"

#include <optional>

#include "traces/trace_format_reader.hpp"

namespace cachesim::viz {

namespace {

// Hands every event to the recorder, then to the caller's own observer.
class RecorderAndObserver final : public SimObserver {
public:
    RecorderAndObserver(DiagramRecorder& recorder, SimObserver& other) : recorder_(recorder), other_(other) {}
    void on_lookup(int level, std::uint64_t line, bool hit, bool is_write, std::uint16_t array) override {
        recorder_.on_lookup(level, line, hit, is_write, array);
        other_.on_lookup(level, line, hit, is_write, array);
    }
    void on_l1_hit_source(std::uint64_t line, HitSource source) override {
        recorder_.on_l1_hit_source(line, source);
        other_.on_l1_hit_source(line, source);
    }
    void on_fill(int level, std::uint64_t line) override {
        recorder_.on_fill(level, line);
        other_.on_fill(level, line);
    }
    void on_evict(int level, std::uint64_t line) override {
        recorder_.on_evict(level, line);
        other_.on_evict(level, line);
    }
    void on_step_end(std::uint64_t step) override {
        recorder_.on_step_end(step);
        other_.on_step_end(step);
    }

private:
    DiagramRecorder& recorder_;
    SimObserver& other_;
};

// Runs `simulate(control with the recorder attached, result)`, then takes the recorder's snapshot
// and diagram. A cancellation raised by the recorder's own early stop (options.stop_when_recorded,
// once the window is recorded) ends the run normally; any other propagates.
template <class Simulate>
RecordedRun run_recorded(DiagramRecorder& recorder, const RecorderOptions& options, const RunControl& control,
                         Simulate&& simulate) {
    RunControl with_recorder = control;
    std::optional<RecorderAndObserver> both;
    if (control.observer) both.emplace(recorder, *control.observer);
    with_recorder.observer = both ? static_cast<SimObserver*>(&*both) : &recorder;
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

// Hands the recorder each batch's stores as the simulator reads it (a trace's stores, which a
// write-through L1 never looks up). The simulator replays a batch's steps before it reads the next.
class StoreNotingSource final : public AccessSource {
public:
    StoreNotingSource(AccessSource& source, StepStores& stores) : source_(source), stores_(stores) {}
    std::vector<ArrayInfo> arrays() const override { return source_.arrays(); }
    bool next(AccessBatch& batch, std::size_t max_accesses) override {
        const bool more = source_.next(batch, max_accesses);
        stores_.stores.clear();
        stores_.next = 0;
        const std::uint32_t per_step = batch.accesses_per_step ? batch.accesses_per_step : 1;
        for (std::size_t i = 0; i < batch.accesses.size(); ++i) {
            const Access& a = batch.accesses[i];
            const std::uint64_t step = batch.first_step + i / per_step;
            if (a.is_write) stores_.stores.push_back({step, a.address, a.size});
            if (stores_.snapshot_step == step) stores_.snapshot_accesses.emplace_back(a.address, a.size);
        }
        return more;
    }
    void rewind() override { source_.rewind(); }
    bool rewindable() const override { return source_.rewindable(); }
    std::uint64_t size_hint() const override { return source_.size_hint(); }

private:
    AccessSource& source_;
    StepStores& stores_;
};

}  // namespace

RecordedRun record_thread_model(AccessSource& source, const HierarchyConfig& hierarchy,
                                RecorderOptions options, const std::optional<WorkloadSpec>& workload,
                                const RunControl& control) {
    if (options.expected_steps == 0 && workload) options.expected_steps = workload->items();
    DiagramRecorder recorder(source.arrays(), hierarchy, options, workload);
    if (workload) {
        return run_recorded(recorder, options, control, [&](const RunControl& c, SimulationResult& result) {
            result = simulate_thread_model(source, hierarchy, c);
        });
    }
    StepStores stores;  // a trace: its stores come from the accesses themselves
    stores.snapshot_step = options.snapshot_step;
    StoreNotingSource noting(source, stores);
    recorder.take_stores_from(&stores);
    return run_recorded(recorder, options, control, [&](const RunControl& c, SimulationResult& result) {
        result = simulate_thread_model(noting, hierarchy, c);
    });
}

HierarchyConfig gpu_hierarchy(const GpuConfig& config) {
    HierarchyConfig h;
    h.l1 = effective_l1(config);
    h.l2 = config.l2;
    h.seed = config.seed;
    return h;
}

namespace {

// The GPU model's recording, whichever launch `simulate(config, control)` runs.
template <class Simulate>
RecordedRun record_gpu_launch(const std::vector<ArrayInfo>& arrays, const GpuConfig& config, RecorderOptions options,
                              const RunControl& control, GpuResult* gpu, Simulate&& simulate) {
    options.gpu_events = true;
    // The SM of each request: the model's issue log, emptied by the recorder at every step.
    std::vector<GpuIssue> issues;
    GpuConfig run_config = config;
    if (options.record_sm) {
        options.issue_log = &issues;
        run_config.issue_log = &issues;
    }
    if (options.record_hit_sources) run_config.count_l1_hit_sources = true;
    // Rounds are unknown up front; the recorder merges columns as the run grows.
    DiagramRecorder recorder(arrays, gpu_hierarchy(config), options);
    GpuResult r;
    RecordedRun run = run_recorded(recorder, options, control, [&](const RunControl& c, SimulationResult& result) {
        r = simulate(run_config, c);
        result = r.result;
    });
    if (gpu) *gpu = std::move(r);
    return run;
}

}  // namespace

RecordedRun record_gpu_model(const WorkloadSpec& workload, const GpuConfig& config, RecorderOptions options,
                             const RunControl& control, GpuResult* gpu) {
    return record_gpu_launch(workload.arrays(), config, options, control, gpu,
                             [&](const GpuConfig& c, const RunControl& rc) { return simulate_gpu_model(workload, c, rc); });
}

RecordedRun record_gpu_trace(const std::string& path, const GpuConfig& config, RecorderOptions options,
                             const RunControl& control, GpuResult* gpu) {
    const cst::TraceFileSource trace(path);
    return record_gpu_launch(trace.header().arrays, config, options, control, gpu,
                             [&](const GpuConfig& c, const RunControl& rc) { return simulate_gpu_trace(path, c, rc); });
}

}  // namespace cachesim::viz
