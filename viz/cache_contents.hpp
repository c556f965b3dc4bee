#pragma once
// What is in the thread model's caches after a given step, as a teacher draws it (and as Ripes
// shows it): for each level, sets x ways, each way's line, valid / dirty, its age in the
// replacement policy, the way the next miss in the set would fill or evict, and what the step
// itself did (hits, fills, victims). Plain data: no window system.
//
// The contents are rebuilt from the simulator's own lookup / fill / evict events (a SimObserver
// on the real run, stopped after the step), so the lines are exactly the ones the simulator
// holds. Ways are numbered as in a textbook cache: a fill takes the way its victim left, or the
// first empty way. Ages are known for LRU (0 = most recently used) and FIFO (0 = filled last);
// for the other policies the victim depends on state the events do not show (tree bits, the
// random stream, the future), so ages and the next victim of a full set are left unknown.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/thread_model.hpp"
#include "traces/access_source.hpp"

namespace cachesim::viz {

inline constexpr std::uint32_t kUnknownAge = ~0u;

struct WayContents {
    bool valid = false;
    bool dirty = false;                // written since it was filled (write-back levels)
    std::uint64_t line = 0;            // the level's line number: byte address / line bytes
    std::uint16_t array = 0;           // the array of the access that filled it
    std::uint64_t filled_step = 0;     // the step whose lookup brought it in
    std::uint64_t last_used_step = 0;  // the step of its latest lookup
    std::uint32_t age = kUnknownAge;   // LRU: recency rank; FIFO: fill rank; 0 = youngest
};

// What a step's lookup did to a way.
enum class WayEvent : std::uint8_t { hit, fill, evicted };

struct StepEvent {
    WayEvent event;
    std::uint32_t set = 0, way = 0;
    std::uint64_t line = 0;  // the line hit or filled, or the victim
};

struct SetContents {
    std::vector<WayContents> ways;
    // The way the next miss in this set would fill (an empty way) or evict; unset when the
    // policy decides with state the events do not show.
    std::optional<std::uint32_t> next_victim;
};

struct LevelContents {
    std::string name;
    CacheConfig config;
    std::uint32_t sets = 0, ways = 0;
    bool ages_known = false;  // LRU or FIFO
    std::vector<SetContents> set;
    std::vector<StepEvent> step_events;  // the step's lookups, in order
    std::uint64_t valid_lines() const;
};

// The history of one line (in the first level's units) up to and including the step.
struct LineHistory {
    std::uint64_t line = 0;
    std::optional<std::uint64_t> last_access_step;
    // Reuse (LRU stack) distance of that access: the distinct other lines looked up in the first
    // level since the line's access before it; unset for its first access.
    std::optional<std::uint64_t> reuse_distance;
    bool resident = false;  // in the first level after the step
    // Its latest eviction from the first level: the step, and the line whose fill evicted it.
    std::optional<std::uint64_t> evicted_step, evicted_by_line;
    std::uint16_t evicted_by_array = 0;
};

struct CacheContents {
    std::uint64_t step = 0;
    std::vector<LevelContents> levels;  // the enabled levels, first first
    std::optional<LineHistory> focus;
};

// Replays `source` through the thread model with `hierarchy` and returns the caches' contents
// after step `step` (the run stops there). `focus_line`: also the history of that first-level
// line. Throws SimulationError for a step past the run's end; control.cancel gives Cancelled.
CacheContents cache_contents_at(AccessSource& source, const HierarchyConfig& hierarchy, std::uint64_t step,
                                std::optional<std::uint64_t> focus_line = std::nullopt, const RunControl& control = {});

}  // namespace cachesim::viz
