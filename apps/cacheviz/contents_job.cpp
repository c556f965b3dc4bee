#include "apps/cacheviz/contents_job.hpp"

#include "apps/cacheviz/job_threads.hpp"
#include "apps/common/cli_errors.hpp"
#include "traces/trace_format_reader.hpp"
#include "traces/workload_source.hpp"

namespace cachesim::gui {

ContentsJob::ContentsJob(ContentsRequest request) : request_(std::move(request)) {
    ++running_job_threads;  // before the thread starts: its end counts it off
    thread_ = std::thread([this] { run(); });
}

ContentsJob::ContentsJob(ContentsRequest request, viz::CacheContents contents)
    : request_(std::move(request)), done_(true), contents_(std::move(contents)) {}

ContentsJob::~ContentsJob() {
    cancel_.store(true);
    if (thread_.joinable()) thread_.join();
}

void ContentsJob::run() {
    try {
        RunControl control;
        control.cancel = &cancel_;
        if (request_.trace) {
            cst::TraceFileSource source(request_.trace->path);
            contents_ = viz::cache_contents_at(source, request_.hierarchy, request_.step, request_.focus_line, control);
        } else {
            WorkloadSource source(request_.workload);
            contents_ = viz::cache_contents_at(source, request_.hierarchy, request_.step, request_.focus_line, control);
        }
    } catch (const Cancelled&) {
        error_ = "cancelled";
    } catch (const std::exception& e) {
        error_ = cli::error_text(e);
    }
    done_.store(true);
    --running_job_threads;
}

}  // namespace cachesim::gui
