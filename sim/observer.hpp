#pragma once
// Optional hook into a simulation (diagram recording, tracing). A run without an observer pays
// one predictable branch per event.
#include <cstdint>

namespace cachesim {

// GPU model: who brought the sectors an L1 hit finds (sim/gpu/l1_hit_sources.hpp). The values are
// the diagram's tags (viz/tag_grid.hpp): 0 stands for none.
enum class HitSource : std::uint8_t { own_warp = 1, own_block = 2, other_block = 3 };

class SimObserver {
public:
    virtual ~SimObserver() = default;
    // `level` is 0 for the first enabled level, 1 for the next. Lines are in that level's units.
    virtual void on_lookup(int /*level*/, std::uint64_t /*line*/, bool /*hit*/, bool /*is_write*/,
                           std::uint16_t /*array*/) {}
    // GPU model, where it counts the hit sources: one call per L1 sector hit, before that
    // sector's on_lookup, naming who filled the sector. `line` is in L1 line units.
    virtual void on_l1_hit_source(std::uint64_t /*line*/, HitSource /*source*/) {}
    // A line was allocated (not called when a missing sector joins a line already present).
    virtual void on_fill(int /*level*/, std::uint64_t /*line*/) {}
    virtual void on_evict(int /*level*/, std::uint64_t /*line*/) {}
    // Called after the last access of each step (work item or trace record).
    virtual void on_step_end(std::uint64_t /*step*/) {}
};

}  // namespace cachesim
