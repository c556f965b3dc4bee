#include "viz/notes.hpp"

#include <cstdio>

#include "viz/analytic.hpp"

namespace cachesim::viz {

std::string thousands(std::uint64_t v) {
    std::string s = std::to_string(v);
    for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), ",");
    return s;
}

std::string describe_level(const CacheConfig& c) {
    if (!c.enabled()) return c.name + " off";
    const std::uint64_t lines = c.size_bytes / std::max<std::uint32_t>(c.line_bytes, 1);
    std::string ways = c.ways == 0 ? "fully associative" : std::to_string(c.ways) + "-way";
    return c.name + " " + thousands(c.size_bytes) + " B: " + thousands(lines) + (lines == 1 ? " line x " : " lines x ") + std::to_string(c.line_bytes) +
           " B, " + ways + ", " + std::string(policy_name(c.policy));
}

std::string hit_sources_note(const L1HitSourceCounts& h) {
    if (h.total() == 0) return "";
    const double all = static_cast<double>(h.total());
    char buf[160];
    std::snprintf(buf, sizeof buf, "L1 hits from: own warp %.1f%%, block %.1f%%, other blocks %.1f%%",
                  100.0 * h.own_warp / all, 100.0 * h.own_block / all, 100.0 * h.other_block / all);
    return buf;
}

std::vector<std::string> known_miss_notes(const std::vector<const KnownMiss*>& misses) {
    std::vector<std::string> lines;
    if (misses.empty()) return lines;
    lines.emplace_back("model known off here (the list: docs/cli.md):");
    for (const KnownMiss* miss : misses) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "  %s: %s", miss->region, miss->effect);
        lines.emplace_back(buf);
    }
    return lines;
}

std::vector<std::string> run_notes(const std::optional<WorkloadSpec>& workload, const HierarchyConfig& h,
                                   const SimulationResult& r, const RunKind& kind) {
    std::vector<std::string> notes;
    if (workload) notes.push_back(workload->describe());
    for (const CacheConfig* c : {&h.l1, &h.l2})
        if (c->enabled()) notes.push_back(describe_level(*c));
    for (const LevelStats& s : r.levels) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "%s: %s misses / %s lookups, hit rate %.1f%%", s.name.c_str(),
                      thousands(s.misses()).c_str(), thousands(s.accesses()).c_str(), 100.0 * s.hit_rate());
        std::string line = buf;
        // With stores among the lookups, the reads' own rate too: the one `simulate` leads with.
        if (s.writes > 0 && s.reads > 0) {
            std::snprintf(buf, sizeof buf, " (reads %.1f%%)", 100.0 * static_cast<double>(s.read_hits) / static_cast<double>(s.reads));
            line += buf;
        }
        notes.push_back(line);
    }
    if (!workload || r.levels.empty()) return notes;
    if (kind.gpu_model) {
        for (std::string& line : analytic::gpu_model_reason(kind.sms)) notes.push_back(std::move(line));
        return notes;
    }
    const CacheConfig& first = h.l1.enabled() ? h.l1 : h.l2;
    const analytic::Summary a = analytic::summarize(*workload, first);
    if (a.fetch_bound) {
        char buf[200];
        std::snprintf(buf, sizeof buf, "thesis %s: fetches %s %s (simulated %s)", a.fetch_equation.c_str(),
                      a.fetch_is_estimate ? "~" : "<=", thousands(static_cast<std::uint64_t>(*a.fetch_bound)).c_str(),
                      thousands(r.levels[0].read_misses).c_str());
        notes.push_back(buf);
        if (!a.fetch_condition.empty()) notes.push_back("  (one cache, items in order; " + a.fetch_condition + ")");
        // The thesis ignores associativity (its section 3.1): with sets, conflict misses come on top.
        const std::uint64_t lines = first.size_bytes / std::max<std::uint32_t>(first.line_bytes, 1);
        if (first.ways != 0 && first.ways < lines)
            notes.push_back("  (the thesis assumes a fully associative cache; conflict misses: " +
                            thousands(r.levels[0].conflict) + ")");
    } else {
        notes.push_back("no thesis fetch bound: " + a.no_bound_reason);
    }
    if (a.recommended_column) {
        if (*a.recommended_column < workload->width)
            notes.push_back("recommended column width: " + std::to_string(*a.recommended_column));
        else
            notes.push_back("recommended column width: none needed (sec. 4.3/4.4 give " + thousands(*a.recommended_column) +
                            " >= the image width " + std::to_string(workload->width) + ": linear order already fits)");
    }
    return notes;
}

}  // namespace cachesim::viz
