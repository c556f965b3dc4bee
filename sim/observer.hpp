#pragma once
// Optional hook into a simulation (diagram recording, tracing). A run without an observer pays
// one predictable branch per event.
#include <cstdint>

namespace cachesim {

class SimObserver {
public:
    virtual ~SimObserver() = default;
    // `level` is 0 for the first enabled level, 1 for the next. Lines are in that level's units.
    virtual void on_lookup(int /*level*/, std::uint64_t /*line*/, bool /*hit*/, bool /*is_write*/,
                           std::uint16_t /*array*/) {}
    // A line was allocated (not called when a missing sector joins a line already present).
    virtual void on_fill(int /*level*/, std::uint64_t /*line*/) {}
    virtual void on_evict(int /*level*/, std::uint64_t /*line*/) {}
    // Called after the last access of each step (work item or trace record).
    virtual void on_step_end(std::uint64_t /*step*/) {}
};

}  // namespace cachesim
