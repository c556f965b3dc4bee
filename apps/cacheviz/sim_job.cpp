#include "apps/cacheviz/sim_job.hpp"

#include <algorithm>
#include <chrono>

#include "apps/cacheviz/job_threads.hpp"
#include "apps/common/cli_errors.hpp"
#include "traces/trace_format_reader.hpp"
#include "traces/workload_source.hpp"

namespace cachesim::gui {

SimJob::SimJob(JobInput input) : input_(std::move(input)) {
    ++running_job_threads;  // before the thread starts: its end counts it off
    thread_ = std::thread([this] { run(); });
}

SimJob::~SimJob() {
    cancel();
    if (thread_.joinable()) thread_.join();
}

std::shared_ptr<JobOutput> SimJob::output() {
    std::lock_guard lock(mutex_);
    return output_;
}

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

void SimJob::run() {
    auto out = std::make_shared<JobOutput>();
    out->input = input_;
    const auto t0 = std::chrono::steady_clock::now();
    try {
        RunControl control;
        control.cancel = &cancel_;
        const double fraction = std::clamp(input_.run_fraction, 1e-9, 1.0);
        control.progress = [this, fraction](double f) { progress_.store(std::min(1.0, f / fraction)); };
        viz::RecorderOptions recorder = input_.recorder;
        if (input_.stop_after_window) recorder.stop_when_recorded = &cancel_;  // the recorder stops the run
        std::optional<viz::ContentsObserver> contents;
        if (!input_.gpu_model && input_.contents_step) {
            contents.emplace(input_.hierarchy, *input_.contents_step, std::nullopt);
            control.observer = &*contents;  // beside the recorder (record_thread_model)
        }
        viz::RecordedRun run;
        if (input_.gpu_model) {
            GpuResult gpu;
            GpuConfig config = input_.gpu;
            config.count_l1_hit_sources = true;  // for the counters panel
            run = input_.trace ? viz::record_gpu_trace(input_.trace->path, config, recorder, control, &gpu)
                               : viz::record_gpu_model(input_.workload, config, recorder, control, &gpu);
            out->rounds = input_.gpu.timeline ? gpu.requests() : gpu.rounds;
            out->input.hierarchy = viz::gpu_hierarchy(input_.gpu);
            if (!run.stopped_after_window) {
                out->memory_chart = viz::gpu_memory_chart(gpu, input_.gpu);
                if (gpu.l1.enabled()) out->l1_hit_sources = gpu.l1_hit_sources;
            }
        } else if (input_.trace) {
            cst::TraceFileSource source(input_.trace->path);
            if (recorder.expected_steps == 0) recorder.expected_steps = input_.trace->header.steps;
            run = viz::record_thread_model(source, input_.hierarchy, recorder, std::nullopt, control);
        } else {
            WorkloadSource source(input_.workload);
            run = viz::record_thread_model(source, input_.hierarchy, recorder, input_.workload, control);
        }
        out->result = std::move(run.result);
        out->diagram = std::make_shared<const viz::Diagram>(std::move(run.diagram));
        out->snapshot = std::move(run.snapshot);
        if (contents) out->contents = contents->take();
        out->seconds = seconds_since(t0);  // the simulation's, without the array view's pictures
        if (input_.array_view_texels && out->snapshot) {
            out->array_view = viz::make_array_view(
                out->diagram->layout(), *out->snapshot, input_.workload,
                viz::step_unit(input_.gpu_model, static_cast<bool>(input_.trace), input_.gpu.timeline != nullptr));
            for (viz::ArrayGrid& g : out->array_view->arrays) {
                out->array_images.push_back(array_image_levels(g, input_.array_view_texels));
                g.cells = {};
            }
        }
    } catch (const Cancelled&) {
        out.reset();
    } catch (const std::exception& e) {
        out->error = cli::error_text(e);
    }
    {
        std::lock_guard lock(mutex_);
        output_ = std::move(out);
    }
    progress_.store(1.0);
    done_.store(true);
    --running_job_threads;
}

}  // namespace cachesim::gui
