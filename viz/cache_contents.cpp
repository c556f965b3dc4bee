#include "viz/cache_contents.hpp"

#include <algorithm>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "sim/geometry.hpp"

namespace cachesim::viz {

namespace {

bool set_then_way_less(const ResidentWay& r, std::uint32_t set, std::uint32_t way) {
    return r.set < set || (r.set == set && r.way < way);
}

}  // namespace

WayContents LevelContents::way(std::uint32_t set, std::uint32_t way) const {
    const auto it = std::lower_bound(resident.begin(), resident.end(), std::make_pair(set, way),
                                     [](const ResidentWay& r, const std::pair<std::uint32_t, std::uint32_t>& key) {
                                         return set_then_way_less(r, key.first, key.second);
                                     });
    if (it == resident.end() || it->set != set || it->way != way) return {};
    return it->contents;
}

SetWays LevelContents::set_ways(std::uint32_t set) const {
    const auto first = std::lower_bound(resident.begin(), resident.end(), set,
                                        [](const ResidentWay& r, std::uint32_t s) { return r.set < s; });
    const auto last = std::upper_bound(first, resident.end(), set,
                                       [](std::uint32_t s, const ResidentWay& r) { return s < r.set; });
    return {resident.data() + (first - resident.begin()), resident.data() + (last - resident.begin())};
}

std::optional<std::uint32_t> LevelContents::next_victim(std::uint32_t set) const {
    const auto it = std::lower_bound(victims.begin(), victims.end(), set,
                                     [](const SetVictim& v, std::uint32_t s) { return v.set < s; });
    if (it == victims.end() || it->set != set) return 0u;  // an empty set fills its first way
    return it->way;
}

namespace {

// Thrown by the observer once the step is over, with AfterStep::kStopRun: it ends the run there.
struct StepReached {};

// The empty ways of one set, so that a fill takes the lowest as a textbook cache does, in time
// that does not grow with the set's ways (a fully associative cache may have millions).
class EmptyWays {
public:
    explicit EmptyWays(std::uint32_t ways) : ways_(ways) {}
    // The lowest empty way and takes it; nullopt when the set is full.
    std::optional<std::uint32_t> take_lowest() {
        if (!emptied_.empty()) {
            const std::uint32_t way = *emptied_.begin();
            emptied_.erase(emptied_.begin());
            return way;
        }
        if (never_used_ < ways_) return never_used_++;
        return std::nullopt;
    }
    void take(std::uint32_t way) { emptied_.erase(way); }
    void give_back(std::uint32_t way) { emptied_.insert(way); }

private:
    std::uint32_t ways_;
    std::uint32_t never_used_ = 0;    // the ways from here on have never held a line
    std::set<std::uint32_t> emptied_;  // ways below never_used_ that an eviction emptied
};

// A line held by a level: where, what, and the ordering keys of its age.
struct HeldLine {
    std::uint64_t slot = 0;  // set * ways + way
    WayContents contents;
    std::uint64_t used_seq = 0, filled_seq = 0;
};

// One level as the events show it. Everything here grows with the lines filled, not with the
// level's capacity.
struct LevelState {
    LevelContents out;
    SetIndexer indexer{1};
    std::unordered_map<std::uint64_t, HeldLine> held;          // by line
    std::unordered_map<std::uint32_t, EmptyWays> empty_ways;   // sets that have held a line
    std::vector<std::uint64_t> freed;  // slots the current lookup's evictions emptied
    std::uint64_t lookup_line = 0;
    std::uint16_t lookup_array = 0;
    bool lookup_write = false;

    EmptyWays& empties(std::uint32_t set) { return empty_ways.try_emplace(set, out.ways).first->second; }
};

// Adds one set's held lines (in way order) to `out`: their ages and the set's next victim.
void add_set(LevelContents& out, std::uint32_t set, const std::vector<const HeldLine*>& lines) {
    const std::size_t first = out.resident.size();
    for (const HeldLine* h : lines)
        out.resident.push_back({set, static_cast<std::uint32_t>(h->slot % out.ways), h->contents});
    SetVictim victim{set, std::nullopt};
    if (lines.size() < out.ways) {
        // The cache fills an empty way before it asks the policy: the lowest.
        std::uint32_t way = 0;
        while (way < lines.size() && out.resident[first + way].way == way) ++way;
        victim.way = way;
    }
    if (out.ages_known) {
        const bool lru = out.config.policy == PolicyKind::lru;
        std::vector<std::size_t> by_age(lines.size());
        for (std::size_t i = 0; i < by_age.size(); ++i) by_age[i] = i;
        const auto key = [&](std::size_t i) { return lru ? lines[i]->used_seq : lines[i]->filled_seq; };
        std::sort(by_age.begin(), by_age.end(), [&](std::size_t a, std::size_t b) { return key(a) > key(b); });
        for (std::uint32_t rank = 0; rank < by_age.size(); ++rank) out.resident[first + by_age[rank]].contents.age = rank;
        if (!victim.way && !by_age.empty()) victim.way = out.resident[first + by_age.back()].way;
    }
    out.victims.push_back(victim);
}

// The level's contents: its held lines by set then way, their ages and each set's next victim.
LevelContents level_contents(LevelState& s) {
    std::vector<const HeldLine*> lines;
    lines.reserve(s.held.size());
    for (const auto& [line, h] : s.held) lines.push_back(&h);
    std::sort(lines.begin(), lines.end(), [](const HeldLine* a, const HeldLine* b) { return a->slot < b->slot; });
    LevelContents out = std::move(s.out);
    out.resident.reserve(lines.size());
    std::vector<const HeldLine*> in_set;
    for (std::size_t i = 0; i < lines.size();) {
        const std::uint64_t set = lines[i]->slot / out.ways;
        in_set.clear();
        for (; i < lines.size() && lines[i]->slot / out.ways == set; ++i) in_set.push_back(lines[i]);
        add_set(out, static_cast<std::uint32_t>(set), in_set);
    }
    return out;
}

}  // namespace

struct ContentsObserver::State {
    std::uint64_t step = 0;
    std::uint64_t current = 0;
    std::uint64_t seq = 0;
    std::vector<LevelState> levels;
    std::optional<LineHistory> focus;
    std::unordered_set<std::uint64_t> since_focus;

    void note(LevelState& s, WayEvent e, std::uint64_t slot, std::uint64_t line) {
        if (current != step) return;
        s.out.step_events.push_back({e, static_cast<std::uint32_t>(slot / s.out.ways),
                                     static_cast<std::uint32_t>(slot % s.out.ways), line});
    }

    void track_focus(std::uint64_t line) {
        LineHistory& f = *focus;
        if (line == f.line) {
            if (f.last_access_step) f.reuse_distance = since_focus.size();
            f.last_access_step = current;
            since_focus.clear();
        } else if (f.last_access_step) {
            since_focus.insert(line);
        }
    }

    CacheContents finish() {
        CacheContents c;
        c.step = step;
        for (LevelState& s : levels) c.levels.push_back(level_contents(s));
        c.focus = focus;
        return c;
    }
};

ContentsObserver::ContentsObserver(const HierarchyConfig& h, std::uint64_t step, std::optional<std::uint64_t> focus,
                                   AfterStep after)
    : state_(std::make_unique<State>()), after_(after) {
    state_->step = step;
    for (const CacheConfig* c : {&h.l1, &h.l2}) {
        if (!c->enabled()) continue;
        const GeometryResult g = make_geometry(*c);
        if (!g.geometry) throw SimulationError(g.error);
        LevelState s;
        s.out.name = c->name;
        s.out.config = *c;
        s.out.sets = g.geometry->sets;
        s.out.ways = g.geometry->ways;
        s.out.ages_known = c->policy == PolicyKind::lru || c->policy == PolicyKind::fifo;
        s.indexer = SetIndexer(s.out.sets);
        state_->levels.push_back(std::move(s));
    }
    if (focus) {
        state_->focus.emplace();
        state_->focus->line = *focus;
    }
}

ContentsObserver::~ContentsObserver() = default;

void ContentsObserver::on_lookup(int level, std::uint64_t line, bool hit, bool is_write, std::uint16_t array) {
    if (!state_) return;  // past the step
    State& st = *state_;
    LevelState& s = st.levels[level];
    s.freed.clear();
    s.lookup_line = line;
    s.lookup_array = array;
    s.lookup_write = is_write;
    ++st.seq;
    if (level == 0 && st.focus) st.track_focus(line);
    const auto it = s.held.find(line);
    if (it == s.held.end()) return;  // a miss: the fill places it
    // A hit, or a missing sector joining its line: the line is used either way.
    HeldLine& h = it->second;
    h.contents.last_used_step = st.current;
    h.contents.dirty |= is_write;
    h.used_seq = st.seq;
    st.note(s, hit ? WayEvent::hit : WayEvent::fill, h.slot, line);
}

void ContentsObserver::on_evict(int level, std::uint64_t line) {
    if (!state_) return;
    State& st = *state_;
    LevelState& s = st.levels[level];
    const auto it = s.held.find(line);
    if (it == s.held.end()) return;
    const std::uint64_t slot = it->second.slot;
    s.held.erase(it);
    s.empties(static_cast<std::uint32_t>(slot / s.out.ways)).give_back(static_cast<std::uint32_t>(slot % s.out.ways));
    s.freed.push_back(slot);
    st.note(s, WayEvent::evicted, slot, line);
    if (level == 0 && st.focus && line == st.focus->line) {
        st.focus->resident = false;
        st.focus->evicted_step = st.current;
        st.focus->evicted_by_line = s.lookup_line;
        st.focus->evicted_by_array = s.lookup_array;
    }
}

void ContentsObserver::on_fill(int level, std::uint64_t line) {
    if (!state_) return;
    State& st = *state_;
    LevelState& s = st.levels[level];
    const std::uint32_t set = s.indexer(line);
    EmptyWays& empties = s.empties(set);
    std::uint64_t slot = 0;
    if (!s.freed.empty()) {
        slot = s.freed.front();  // the victim's way (the first, when several were emptied)
        empties.take(static_cast<std::uint32_t>(slot % s.out.ways));
    } else {
        const std::optional<std::uint32_t> way = empties.take_lowest();
        if (!way) return;  // cannot happen: a full set evicts first
        slot = std::uint64_t{set} * s.out.ways + *way;
    }
    s.freed.clear();
    HeldLine& h = s.held[line];
    h.slot = slot;
    h.contents = WayContents{true, s.lookup_write, line, s.lookup_array, st.current, st.current, kUnknownAge};
    h.used_seq = h.filled_seq = st.seq;
    if (level == 0 && st.focus && line == st.focus->line) st.focus->resident = true;
    st.note(s, WayEvent::fill, slot, line);
}

void ContentsObserver::on_step_end(std::uint64_t step) {
    if (!state_) return;
    if (step < state_->step) {
        state_->current = step + 1;
        return;
    }
    contents_ = state_->finish();
    state_.reset();  // the later events cannot change the step's contents
    if (after_ == AfterStep::kStopRun) throw StepReached{};
}

CacheContents cache_contents_at(AccessSource& source, const HierarchyConfig& hierarchy, std::uint64_t step,
                                std::optional<std::uint64_t> focus_line, const RunControl& control) {
    HierarchyConfig h = hierarchy;
    h.analysis = false;  // the miss classes are not needed here
    ContentsObserver observer(h, step, focus_line, ContentsObserver::AfterStep::kStopRun);
    RunControl c = control;
    c.observer = &observer;
    c.threads = 1;
    try {
        const SimulationResult r = simulate_thread_model(source, h, c);
        throw SimulationError("step " + std::to_string(step) + " is past the run's last step " +
                              std::to_string(r.steps ? r.steps - 1 : 0));
    } catch (const StepReached&) {
    }
    return *observer.take();
}

}  // namespace cachesim::viz
