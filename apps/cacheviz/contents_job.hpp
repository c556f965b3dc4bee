#pragma once
// The caches' contents after one step (viz/cache_contents.hpp), computed on a background thread:
// the cache-contents panel at the playhead, and the tooltip's reuse distance and evictor of the
// hovered line. Destroying a job cancels it and waits for it.
#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "apps/cacheviz/recorded_trace.hpp"
#include "traces/workload_spec.hpp"
#include "viz/cache_contents.hpp"

namespace cachesim::gui {

struct ContentsRequest {
    WorkloadSpec workload;
    std::shared_ptr<const RecordedTrace> trace;  // replayed instead of the workload when set
    HierarchyConfig hierarchy;
    std::uint64_t step = 0;
    std::optional<std::uint64_t> focus_line;
};

class ContentsJob {
public:
    explicit ContentsJob(ContentsRequest request);
    // Contents that another run brought (JobInput::contents_step): done from the start.
    ContentsJob(ContentsRequest request, viz::CacheContents contents);
    ~ContentsJob();
    ContentsJob(const ContentsJob&) = delete;
    ContentsJob& operator=(const ContentsJob&) = delete;

    bool done() const { return done_.load(); }
    const ContentsRequest& request() const { return request_; }
    // Once done(): the contents, or the error.
    const std::optional<viz::CacheContents>& contents() const { return contents_; }
    const std::string& error() const { return error_; }

private:
    void run();
    ContentsRequest request_;
    std::atomic<bool> cancel_{false}, done_{false};
    std::optional<viz::CacheContents> contents_;
    std::string error_;
    std::thread thread_;
};

}  // namespace cachesim::gui
