#pragma once
// A small pool of threads for one run of the GPU model: created once, then handed jobs of coarse
// tasks (an SM's share of a chunk, the L2's replay of a chunk). A job is a function and a task
// count; whichever thread is free takes the next task. No allocation per job or task.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace cachesim {

class WorkerPool {
public:
    // A job: task(i, worker) for i in [0, count). Lives with its poster until waited for.
    class Job {
    public:
        template <class F>
        void set(std::size_t count, F& task) {
            count_ = count;
            context_ = &task;
            call_ = [](void* c, std::size_t i, unsigned worker) { (*static_cast<F*>(c))(i, worker); };
            next_.store(0, std::memory_order_relaxed);
            done_.store(0, std::memory_order_relaxed);
        }

    private:
        friend class WorkerPool;
        std::size_t count_ = 0;
        void* context_ = nullptr;
        void (*call_)(void*, std::size_t, unsigned) = nullptr;
        std::atomic<std::size_t> next_{0}, done_{0};
        unsigned active_ = 0;  // helpers inside it (guarded by the pool's mutex): it is reused only at 0
    };

    // `threads` in all, the caller of run() and wait() included (so threads - 1 are started).
    explicit WorkerPool(unsigned threads);
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    unsigned threads() const { return static_cast<unsigned>(helpers_.size()) + 1; }

    // Starts `job` for the helpers and returns at once.
    void post(Job& job);
    // Takes tasks of `job` on the calling thread (worker 0) until none is left, then waits until
    // every task has finished.
    void wait(Job& job, bool help = true);
    // post() and wait().
    void run(Job& job) {
        post(job);
        wait(job);
    }

private:
    bool take(Job& job, unsigned worker);  // runs one task of job; false when none was left
    void helper(unsigned worker);

    std::mutex mutex_;
    std::condition_variable posted_, finished_;
    std::vector<Job*> jobs_;  // posted, not yet finished
    bool stopping_ = false;
    std::vector<std::thread> helpers_;
};

}  // namespace cachesim
