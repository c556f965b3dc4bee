#pragma once
// The reference the miss-drawing tests compare pictures with: a run's L1 misses (step, line) and
// lookups noted by an observer of the test's own, with no recorder and no renderer involved.
#include <cstdint>
#include <utility>
#include <vector>

#include "sim/thread_model.hpp"
#include "traces/workload_source.hpp"

namespace cachesim::test {

// Every level-0 lookup: each miss with the step it belongs to, and how many lookups there were.
class MissLog final : public SimObserver {
public:
    void on_lookup(int level, std::uint64_t line, bool hit, bool, std::uint16_t) override {
        if (level != 0) return;
        ++lookups;
        if (!hit) pending_.push_back(line);
    }
    void on_step_end(std::uint64_t step) override {
        for (std::uint64_t line : pending_) misses.push_back({step, line});
        pending_.clear();
    }
    std::vector<std::pair<std::uint64_t, std::uint64_t>> misses;  // (step, line)
    std::uint64_t lookups = 0;

private:
    std::vector<std::uint64_t> pending_;
};

// The misses of `run(control)`, any simulation that takes a RunControl.
template <class Run>
MissLog log_misses(Run&& run) {
    MissLog log;
    RunControl control;
    control.observer = &log;
    run(control);
    return log;
}

// The thread model's L1 misses of workload `w` under hierarchy `h`.
inline MissLog log_thread_model_misses(const WorkloadSpec& w, const HierarchyConfig& h) {
    return log_misses([&](const RunControl& control) {
        WorkloadSource source(w);
        simulate_thread_model(source, h, control);
    });
}

}  // namespace cachesim::test
