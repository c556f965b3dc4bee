#pragma once
// How many threads of cacheviz's jobs (SimJob, ContentsJob) have not ended, process-wide: a
// cancelled simulation can run on for seconds (a large cache is set up in one go, without a
// cancel check), and at exit nothing reads its result, so main ends the process without
// waiting for it.
#include <atomic>

namespace cachesim::gui {

inline std::atomic<int> running_job_threads{0};

}  // namespace cachesim::gui
