#include "sim/gpu/worker_pool.hpp"

#include <algorithm>

namespace cachesim {

WorkerPool::WorkerPool(unsigned threads) {
    for (unsigned w = 1; w < threads; ++w) helpers_.emplace_back([this, w] { helper(w); });
}

WorkerPool::~WorkerPool() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    posted_.notify_all();
    for (std::thread& t : helpers_) t.join();
}

void WorkerPool::post(Job& job) {
    if (job.count_ == 0) return;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        jobs_.push_back(&job);
    }
    posted_.notify_all();
}

bool WorkerPool::take(Job& job, unsigned worker) {
    const std::size_t i = job.next_.fetch_add(1, std::memory_order_relaxed);
    if (i >= job.count_) return false;
    job.call_(job.context_, i, worker);
    if (job.done_.fetch_add(1, std::memory_order_acq_rel) + 1 == job.count_) {
        std::lock_guard<std::mutex> lock(mutex_);
        jobs_.erase(std::find(jobs_.begin(), jobs_.end(), &job));
        finished_.notify_all();
    }
    return true;
}

void WorkerPool::wait(Job& job, bool help) {
    if (help)
        while (take(job, 0)) {
        }
    std::unique_lock<std::mutex> lock(mutex_);
    // Also until no helper is still inside it: one that picked the job just before its last task
    // was taken must not find it again once the caller reuses it.
    finished_.wait(lock, [&] { return job.done_.load(std::memory_order_acquire) == job.count_ && job.active_ == 0; });
}

void WorkerPool::helper(unsigned worker) {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        Job* job = nullptr;
        posted_.wait(lock, [&] {
            if (stopping_) return true;
            for (Job* j : jobs_)
                if (j->next_.load(std::memory_order_relaxed) < j->count_) {
                    job = j;
                    return true;
                }
            return false;
        });
        if (!job) return;  // stopping
        ++job->active_;
        lock.unlock();
        while (take(*job, worker)) {
        }
        lock.lock();
        --job->active_;
        finished_.notify_all();
    }
}

}  // namespace cachesim
