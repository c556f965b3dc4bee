#include "viz/cache_contents.hpp"

#include <algorithm>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

#include "sim/geometry.hpp"

namespace cachesim::viz {

std::uint64_t LevelContents::valid_lines() const {
    std::uint64_t n = 0;
    for (const SetContents& s : set)
        for (const WayContents& w : s.ways) n += w.valid;
    return n;
}

namespace {

// Thrown by the observer once the step is over: it ends the run there.
struct StepReached {};

// One level as the events show it: ways in textbook order, plus ordering keys for the ages.
struct LevelState {
    LevelContents out;
    SetIndexer indexer{1};
    std::vector<std::uint64_t> used_seq, filled_seq;  // per slot (set * ways + way)
    std::unordered_map<std::uint64_t, std::size_t> slot_of;
    std::vector<std::size_t> freed;  // slots the current lookup's evictions emptied
    std::uint64_t lookup_line = 0;
    std::uint16_t lookup_array = 0;
    bool lookup_write = false;

    WayContents& way(std::size_t slot) { return out.set[slot / out.ways].ways[slot % out.ways]; }
};

class ContentsObserver final : public SimObserver {
public:
    ContentsObserver(const HierarchyConfig& h, std::uint64_t step, std::optional<std::uint64_t> focus)
        : step_(step) {
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
            s.out.set.assign(s.out.sets, SetContents{std::vector<WayContents>(s.out.ways), std::nullopt});
            s.indexer = SetIndexer(s.out.sets);
            s.used_seq.assign(g.geometry->lines, 0);
            s.filled_seq.assign(g.geometry->lines, 0);
            levels_.push_back(std::move(s));
        }
        if (focus) {
            focus_.emplace();
            focus_->line = *focus;
        }
    }

    void on_lookup(int level, std::uint64_t line, bool hit, bool is_write, std::uint16_t array) override {
        LevelState& s = levels_[level];
        s.freed.clear();
        s.lookup_line = line;
        s.lookup_array = array;
        s.lookup_write = is_write;
        ++seq_;
        if (level == 0 && focus_) track_focus(line);
        const auto it = s.slot_of.find(line);
        if (it == s.slot_of.end()) return;  // a miss: the fill places it
        // A hit, or a missing sector joining its line: the line is used either way.
        WayContents& w = s.way(it->second);
        w.last_used_step = current_;
        w.dirty |= is_write;
        s.used_seq[it->second] = seq_;
        if (current_ == step_) note(s, hit ? WayEvent::hit : WayEvent::fill, it->second, line);
    }

    void on_evict(int level, std::uint64_t line) override {
        LevelState& s = levels_[level];
        const auto it = s.slot_of.find(line);
        if (it == s.slot_of.end()) return;
        const std::size_t slot = it->second;
        s.slot_of.erase(it);
        s.way(slot) = WayContents{};
        s.freed.push_back(slot);
        if (current_ == step_) note(s, WayEvent::evicted, slot, line);
        if (level == 0 && focus_ && line == focus_->line) {
            focus_->resident = false;
            focus_->evicted_step = current_;
            focus_->evicted_by_line = s.lookup_line;
            focus_->evicted_by_array = s.lookup_array;
        }
    }

    void on_fill(int level, std::uint64_t line) override {
        LevelState& s = levels_[level];
        const std::uint32_t set = s.indexer(line);
        std::size_t slot = 0;
        if (!s.freed.empty()) {
            slot = s.freed.front();  // the victim's way (the first, when several were emptied)
        } else {
            std::uint32_t w = 0;
            while (w < s.out.ways && s.out.set[set].ways[w].valid) ++w;
            if (w == s.out.ways) return;  // cannot happen: a full set evicts first
            slot = static_cast<std::size_t>(set) * s.out.ways + w;
        }
        s.freed.clear();
        WayContents& way = s.way(slot);
        way = WayContents{true, s.lookup_write, line, s.lookup_array, current_, current_, kUnknownAge};
        s.slot_of[line] = slot;
        s.used_seq[slot] = s.filled_seq[slot] = seq_;
        if (level == 0 && focus_ && line == focus_->line) focus_->resident = true;
        if (current_ == step_) note(s, WayEvent::fill, slot, line);
    }

    void on_step_end(std::uint64_t step) override {
        if (step >= step_) throw StepReached{};
        current_ = step + 1;
    }

    CacheContents finish() {
        CacheContents c;
        c.step = step_;
        for (LevelState& s : levels_) {
            for (std::uint32_t set = 0; set < s.out.sets; ++set) assign_ages(s, set);
            c.levels.push_back(std::move(s.out));
        }
        c.focus = focus_;
        return c;
    }

private:
    void note(LevelState& s, WayEvent e, std::size_t slot, std::uint64_t line) {
        s.out.step_events.push_back({e, static_cast<std::uint32_t>(slot / s.out.ways),
                                     static_cast<std::uint32_t>(slot % s.out.ways), line});
    }

    void track_focus(std::uint64_t line) {
        LineHistory& f = *focus_;
        if (line == f.line) {
            if (f.last_access_step) f.reuse_distance = since_focus_.size();
            f.last_access_step = current_;
            since_focus_.clear();
        } else if (f.last_access_step) {
            since_focus_.insert(line);
        }
    }

    static void assign_ages(LevelState& s, std::uint32_t set) {
        SetContents& sc = s.out.set[set];
        const std::size_t base = static_cast<std::size_t>(set) * s.out.ways;
        std::vector<std::uint32_t> valid;
        for (std::uint32_t w = 0; w < s.out.ways; ++w)
            if (sc.ways[w].valid) valid.push_back(w);
        if (valid.size() < s.out.ways) {
            // The cache fills an empty way before it asks the policy.
            for (std::uint32_t w = 0; w < s.out.ways; ++w)
                if (!sc.ways[w].valid) { sc.next_victim = w; break; }
        }
        if (!s.out.ages_known) return;
        const std::vector<std::uint64_t>& key = s.out.config.policy == PolicyKind::lru ? s.used_seq : s.filled_seq;
        std::sort(valid.begin(), valid.end(), [&](std::uint32_t a, std::uint32_t b) { return key[base + a] > key[base + b]; });
        for (std::uint32_t rank = 0; rank < valid.size(); ++rank) sc.ways[valid[rank]].age = rank;
        if (!sc.next_victim && !valid.empty()) sc.next_victim = valid.back();
    }

    std::uint64_t step_;
    std::uint64_t current_ = 0;
    std::uint64_t seq_ = 0;
    std::vector<LevelState> levels_;
    std::optional<LineHistory> focus_;
    std::unordered_set<std::uint64_t> since_focus_;
};

}  // namespace

CacheContents cache_contents_at(AccessSource& source, const HierarchyConfig& hierarchy, std::uint64_t step,
                                std::optional<std::uint64_t> focus_line, const RunControl& control) {
    HierarchyConfig h = hierarchy;
    h.analysis = false;  // the miss classes are not needed here
    ContentsObserver observer(h, step, focus_line);
    RunControl c = control;
    c.observer = &observer;
    c.threads = 1;
    try {
        const SimulationResult r = simulate_thread_model(source, h, c);
        throw SimulationError("step " + std::to_string(step) + " is past the run's last step " +
                              std::to_string(r.steps ? r.steps - 1 : 0));
    } catch (const StepReached&) {
    }
    return observer.finish();
}

}  // namespace cachesim::viz
