#pragma once
// What is in the thread model's caches after a given step, as a teacher draws it (and as Ripes
// shows it): for each level, sets x ways, each way's line, valid / dirty, its age in the
// replacement policy, the way the next miss in the set would fill or evict, and what the step
// itself did (hits, fills, victims). Plain data: no window system.
//
// The contents are rebuilt from the simulator's own lookup / fill / evict events (a SimObserver
// on the real run), so the lines are exactly the ones the simulator holds. Ways are numbered as in a textbook cache: a fill takes the way its victim left, or the
// first empty way. Ages are known for LRU (0 = most recently used) and FIFO (0 = filled last);
// for the other policies the victim depends on state the events do not show (tree bits, the
// random stream, the future), so ages and the next victim of a full set are left unknown.
#include <cstdint>
#include <memory>
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

// A way that holds a line: where it is and what it holds.
struct ResidentWay {
    std::uint32_t set = 0, way = 0;
    WayContents contents;
};

// The valid ways of one set, in way order (a slice of LevelContents::resident).
struct SetWays {
    const ResidentWay* first = nullptr;
    const ResidentWay* last = nullptr;
    const ResidentWay* begin() const { return first; }
    const ResidentWay* end() const { return last; }
    std::size_t size() const { return static_cast<std::size_t>(last - first); }
};

// The way the next miss in a set would fill (an empty way) or evict, for a set holding lines.
struct SetVictim {
    std::uint32_t set = 0;
    std::optional<std::uint32_t> way;  // unset when the policy decides with state the events do not show
};

struct LevelContents {
    std::string name;
    CacheConfig config;
    std::uint32_t sets = 0, ways = 0;
    bool ages_known = false;  // LRU or FIFO
    // Only the valid ways, by set then way: what a run holds, not the cache's capacity (a cache
    // of millions of lines holds few of them after a short run).
    std::vector<ResidentWay> resident;
    // The next victim of every set in `resident`, by set; a set holding no line fills way 0.
    std::vector<SetVictim> victims;
    std::vector<StepEvent> step_events;  // the step's lookups, in order
    std::uint64_t valid_lines() const { return resident.size(); }
    // A way's contents (not valid where it holds no line).
    WayContents way(std::uint32_t set, std::uint32_t way) const;
    SetWays set_ways(std::uint32_t set) const;
    // The way the next miss in `set` would fill or evict; unset when the policy decides with
    // state the events do not show.
    std::optional<std::uint32_t> next_victim(std::uint32_t set) const;
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

// Follows a thread-model run's events and keeps the caches' contents after step `step`: as the
// run's only observer (cache_contents_at), or beside a diagram recorder, so that the run drawn
// also gives the contents at the playhead without simulating again. Its state grows with the
// lines the run fills, not with the caches' capacity.
class ContentsObserver final : public SimObserver {
public:
    // kStopRun: the observer ends the run once the step is over (cache_contents_at catches what
    // it throws); kKeepRunning: it only stops listening.
    enum class AfterStep { kStopRun, kKeepRunning };
    ContentsObserver(const HierarchyConfig& hierarchy, std::uint64_t step, std::optional<std::uint64_t> focus_line,
                     AfterStep after = AfterStep::kKeepRunning);
    ~ContentsObserver() override;
    ContentsObserver(const ContentsObserver&) = delete;
    ContentsObserver& operator=(const ContentsObserver&) = delete;

    void on_lookup(int level, std::uint64_t line, bool hit, bool is_write, std::uint16_t array) override;
    void on_fill(int level, std::uint64_t line) override;
    void on_evict(int level, std::uint64_t line) override;
    void on_step_end(std::uint64_t step) override;

    // The contents once the step has ended (nullopt while it has not: a run that ended before).
    std::optional<CacheContents> take() { return std::move(contents_); }

private:
    struct State;
    std::unique_ptr<State> state_;
    std::optional<CacheContents> contents_;
    AfterStep after_;
};

// Replays `source` through the thread model with `hierarchy` and returns the caches' contents
// after step `step` (the run stops there). `focus_line`: also the history of that first-level
// line. Throws SimulationError for a step past the run's end; control.cancel gives Cancelled.
CacheContents cache_contents_at(AccessSource& source, const HierarchyConfig& hierarchy, std::uint64_t step,
                                std::optional<std::uint64_t> focus_line = std::nullopt, const RunControl& control = {});

}  // namespace cachesim::viz
