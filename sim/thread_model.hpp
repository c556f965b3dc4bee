#pragma once
// The thesis's model: work items run one after another in schedule order, each one's accesses
// going through L1 -> L2 -> memory in program order.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>

#include "sim/geometry.hpp"
#include "sim/level_stats.hpp"
#include "sim/observer.hpp"
#include "traces/access_source.hpp"

namespace cachesim {

// The accesses the thread model asks its source for at a time (a work item larger than this
// comes whole: a source never splits one).
inline constexpr std::size_t kThreadModelBatchAccesses = 1 << 14;

struct HierarchyConfig {
    CacheConfig l1{"L1", 0, 64, 0, 0, PolicyKind::lru, WritePolicy::write_through_no_allocate};
    CacheConfig l2{"L2", 0, 64, 0, 0, PolicyKind::lru, WritePolicy::write_back_allocate};
    std::uint64_t seed = 1;
    bool analysis = true;  // miss classes and reuse-distance histograms (sim/reuse_distance.hpp)
    double reuse_sample = 0;  // the analysis's SHARDS sampling rate, (0, 1]; 0: exact (sim/level_sim.hpp)
    std::uint64_t opt_max_lookups = 1ull << 28;  // OPT's pre-pass keeps 8 bytes per lookup
};

// Invalid configurations, unsupported requests; the message says what is wrong.
class SimulationError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct RunControl {
    SimObserver* observer = nullptr;
    std::function<void(double fraction)> progress;  // called between batches
    const std::atomic<bool>* cancel = nullptr;     // checked between batches
    // Threads a run may use (the GPU model's lock step: SMs and the L2 in parallel; results are
    // the same for any count). Runs with an observer or an issue log use one.
    std::uint32_t threads = 1;
    // Thread model with analysis: the most memory its reuse tracking may hold (it follows the
    // distinct lines); past it the run stops with a SimulationError. 0: no limit.
    std::uint64_t analysis_memory_limit = 0;
    // GPU model: the most memory its buffered L2 traffic may hold (it follows the L1's misses,
    // gpu_footprint.hpp); past it the run stops with a SimulationError. 0: no limit.
    std::uint64_t gpu_traffic_memory_limit = 0;
};

// Checks every enabled level's geometry; throws SimulationError naming the problem.
void validate(const HierarchyConfig& config);

SimulationResult simulate_thread_model(AccessSource& source, const HierarchyConfig& config,
                                       const RunControl& control = {});

class Cancelled : public std::runtime_error {
public:
    Cancelled() : std::runtime_error("simulation cancelled") {}
};

}  // namespace cachesim
