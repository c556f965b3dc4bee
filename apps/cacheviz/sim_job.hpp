#pragma once
// One simulation with a diagram recorder on a background thread: progress, cancellation, and
// the result handed to the UI thread when done. Destroying a job cancels it and waits for it.
#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "apps/cacheviz/array_image.hpp"
#include "apps/cacheviz/recorded_trace.hpp"
#include "sim/gpu/l1_hit_sources.hpp"
#include "traces/warp_times.hpp"
#include "viz/array_view.hpp"
#include "viz/cache_contents.hpp"
#include "viz/memory_chart.hpp"
#include "viz/record.hpp"

namespace cachesim::gui {

struct JobInput {
    WorkloadSpec workload;  // unused with a trace
    std::shared_ptr<const RecordedTrace> trace;
    HierarchyConfig hierarchy;  // thread model; for the GPU model, the levels it simulates
    bool gpu_model = false;
    GpuConfig gpu;
    std::shared_ptr<const WarpTimeline> timeline;  // keeps gpu.timeline alive while set
    viz::RecorderOptions recorder;
    // A windowed recording (recorder.window_steps): stop the run once the window is recorded.
    bool stop_after_window = false;
    // The fraction of the whole run the job simulates (the window's end over the run's steps),
    // so that progress reaches 1 when the job does.
    double run_fraction = 1.0;
    // With recorder.snapshot_step: also build the array view at that step and its textures'
    // pixels (off the UI thread: an array may have millions of elements), at most this many
    // texels a side.
    std::uint32_t array_view_texels = 0;
    // Thread model: also the caches' contents after this step (the contents panel), from the
    // same run rather than a second one.
    std::optional<std::uint64_t> contents_step;
};

struct JobOutput {
    JobInput input;
    SimulationResult result;
    std::shared_ptr<const viz::Diagram> diagram;
    std::optional<viz::LineSnapshot> snapshot;
    std::string error;  // empty on success
    std::uint64_t rounds = 0;  // GPU model: the diagram's steps (scheduling rounds, or requests
                               // in a measured order)
    double seconds = 0;
    // GPU model: the run's memory chart (viz/memory_chart.hpp), from the model's counters.
    std::optional<viz::MemoryChart> memory_chart;
    // GPU model, a whole run: the L1's read hits by who brought the sector (l1_hit_sources.hpp).
    std::optional<L1HitSourceCounts> l1_hit_sources;
    // input.array_view_texels: the arrays at the snapshot step (their cells dropped once drawn
    // into `array_images`: per array, its levels).
    std::optional<viz::ArrayView> array_view;
    std::vector<std::vector<ArrayImage>> array_images;
    // input.contents_step: the contents after that step (nullopt when the run ended before it).
    std::optional<viz::CacheContents> contents;
};

class SimJob {
public:
    explicit SimJob(JobInput input);
    ~SimJob();
    SimJob(const SimJob&) = delete;
    SimJob& operator=(const SimJob&) = delete;

    void cancel() { cancel_.store(true); }
    bool done() const { return done_.load(); }
    double progress() const { return progress_.load(); }
    const JobInput& input() const { return input_; }
    // The output once done() (nullptr before, and after a cancelled run).
    std::shared_ptr<JobOutput> output();

private:
    void run();
    JobInput input_;
    std::atomic<bool> cancel_{false}, done_{false};
    std::atomic<double> progress_{0.0};
    std::mutex mutex_;
    std::shared_ptr<JobOutput> output_;
    std::thread thread_;
};

}  // namespace cachesim::gui
