#include "viz/cell_colouring.hpp"

#include <algorithm>
#include <cmath>

#include "viz/render.hpp"

namespace cachesim::viz {

CellColouring CellColouring::choose(AggregateRule requested, bool aggregated, ColourBy by) {
    CellColouring c;
    c.rule = aggregated ? requested : AggregateRule::priority;
    c.by = by;
    c.density = c.rule == AggregateRule::density && by == ColourBy::state;
    return c;
}

bool CellColouring::wants_tag(CellCode code) const {
    switch (by) {
        case ColourBy::sm: return code & kCodeAccessed;
        case ColourBy::hit_source:
            return (code & kCodeAccessed) && (code & kCodeHit) && !(rule == AggregateRule::any_miss && has_fetch(code));
        case ColourBy::state: default: return false;
    }
}

std::string muted_state_label(CellState s, ColourBy by, bool density) {
    if (s == CellState::accessed && by == ColourBy::hit_source) return "L1 hit, source unknown";
    if (s == CellState::accessed && !density) return "accessed, SM unknown";
    return std::string(cell_state_name(s));
}

double CellColouring::ramp_position(double d) const {
    if (!(density_max > density_min) || density_min <= 0) return 1.0;
    return std::clamp(std::log(d / density_min) / std::log(density_max / density_min), 0.0, 1.0);
}

Rgba CellColouring::colour(CellCode code, double d, std::uint8_t tag) const {
    if (tag && wants_tag(code)) return by == ColourBy::sm ? sm_color(tag - 1u) : hit_source_color(static_cast<HitSource>(tag));
    if (density && has_fetch(code)) return miss_density_color(ramp_position(d));
    if (muted()) return muted_color(decode(code, AggregateRule::any_miss));
    return cell_color(decode(code, rule));
}

std::uint8_t majority_tag(const TagGrid& g, std::uint64_t c0, std::uint64_t c1, std::uint64_t b0, std::uint64_t b1,
                         std::vector<std::uint32_t>& votes, std::uint64_t max_side) {
    std::uint8_t best = 0;
    std::uint32_t best_votes = 0;
    std::uint8_t seen[256];
    int n_seen = 0;
    const std::uint64_t dc = max_side && c1 - c0 > max_side ? (c1 - c0 + max_side - 1) / max_side : 1;
    const std::uint64_t db = max_side && b1 - b0 > max_side ? (b1 - b0 + max_side - 1) / max_side : 1;
    for (std::uint64_t c = c0; c < c1; c += dc)
        for (std::uint64_t b = b0; b < b1; b += db) {
            const std::uint8_t v = g.at(c, b);
            if (!v) continue;
            if (votes[v]++ == 0) seen[n_seen++] = v;
            if (votes[v] > best_votes || (votes[v] == best_votes && v < best)) {
                best = v;
                best_votes = votes[v];
            }
        }
    for (int i = 0; i < n_seen; ++i) votes[seen[i]] = 0;
    return best;
}

double strip_top_rate(double highest) {
    for (double v : {0.01, 0.02, 0.05, 0.1, 0.2, 0.5})
        if (highest <= v) return v;
    return 1.0;
}

Rgba strip_level_colour(std::size_t level) {
    return level == 0 ? Rgba{228, 26, 28, 255} : Rgba{255, 152, 0, 255};
}

std::string strip_level_label(const MissRateSeries& series, std::size_t level) {
    return series.name() + (level == 0 ? " (red)" : " (orange)") + " miss rate: misses / read lookups";
}

}  // namespace cachesim::viz
