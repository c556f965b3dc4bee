#include "viz/detail_window.hpp"

#include <algorithm>
#include <cmath>

namespace cachesim::viz {

namespace {

// [floor(a), ceil(b)) within [0, n).
void whole_cells(double a, double b, std::uint64_t n, std::uint64_t& lo, std::uint64_t& hi) {
    const double top = static_cast<double>(n);
    lo = static_cast<std::uint64_t>(std::clamp(std::floor(a), 0.0, top));
    hi = static_cast<std::uint64_t>(std::clamp(std::ceil(b), 0.0, top));
    hi = std::max(hi, lo);
}

}  // namespace

bool needs_detail(const Diagram& coarse, const ViewExtent& v) {
    const double steps_per_px = (v.t1 - v.t0) / std::max(1, v.width);
    const double rows_per_px = (v.r1 - v.r0) / std::max(1, v.height);
    const auto spc = coarse.steps_per_column(), rpb = coarse.rows_per_bucket();
    return (spc > 1 && steps_per_px < static_cast<double>(spc)) || (rpb > 1 && rows_per_px < static_cast<double>(rpb));
}

DetailWindow visible_window(const ViewExtent& v, std::uint64_t steps, std::uint64_t rows) {
    std::uint64_t t0, t1, r0, r1;
    whole_cells(v.t0, v.t1, steps, t0, t1);
    whole_cells(v.r0, v.r1, rows, r0, r1);
    return {t0, t1 - t0, r0, r1 - r0};
}

std::optional<DetailWindow> choose_detail_window(const ViewExtent& v, std::uint64_t steps, std::uint64_t rows,
                                                 const DetailPolicy& policy) {
    const DetailWindow seen = visible_window(v, steps, rows);
    if (seen.empty() || policy.max_cells == 0) return std::nullopt;
    // Overflow-safe: the product of two spans each below 2^32 fits; larger spans never fit.
    auto fits = [&](const DetailWindow& w) {
        return w.steps <= policy.max_cells && w.rows <= policy.max_cells && w.steps <= policy.max_cells / w.rows;
    };
    if (!fits(seen)) return std::nullopt;
    auto widen = [](std::uint64_t lo, std::uint64_t span, std::uint64_t extra, std::uint64_t n, std::uint64_t& out_lo) {
        out_lo = lo > extra ? lo - extra : 0;
        const std::uint64_t hi = std::min(n, lo + span + extra);
        return hi - out_lo;
    };
    const double margin_t = std::max(seen.steps * policy.margin, static_cast<double>(policy.min_margin));
    const double margin_r = std::max(seen.rows * policy.margin, static_cast<double>(policy.min_margin));
    for (double scale = 1.0; scale >= 1.0 / 64; scale /= 2) {
        DetailWindow w;
        w.steps = widen(seen.first_step, seen.steps, static_cast<std::uint64_t>(std::ceil(margin_t * scale)), steps, w.first_step);
        w.rows = widen(seen.first_row, seen.rows, static_cast<std::uint64_t>(std::ceil(margin_r * scale)), rows, w.first_row);
        if (fits(w)) return w;
    }
    return seen;
}

bool covers(const DetailWindow& w, const ViewExtent& v, std::uint64_t steps, std::uint64_t rows) {
    const DetailWindow seen = visible_window(v, steps, rows);
    return !seen.empty() && seen.first_step >= w.first_step && seen.step_end() <= w.step_end() &&
           seen.first_row >= w.first_row && seen.row_end() <= w.row_end();
}

bool overlaps(const DetailWindow& w, const ViewExtent& v, std::uint64_t steps, std::uint64_t rows) {
    const DetailWindow seen = visible_window(v, steps, rows);
    return !seen.empty() && !w.empty() && seen.first_step < w.step_end() && w.first_step < seen.step_end() &&
           seen.first_row < w.row_end() && w.first_row < seen.row_end();
}

ShownCell shown_cell(const Diagram& coarse, const Diagram* detail, std::uint64_t step, std::uint64_t row) {
    const bool in_detail = detail && step >= detail->first_step() && step - detail->first_step() < detail->steps() &&
                           row >= detail->first_row() && row - detail->first_row() < detail->recorded_rows();
    const Diagram& d = in_detail ? *detail : coarse;
    return {d.at_step(step, row), d.exact(), d.tag_at_step(ColourBy::sm, step, row),
            d.tag_at_step(ColourBy::hit_source, step, row)};
}

RecorderOptions detail_recorder_options(const DetailWindow& w) {
    RecorderOptions o;
    o.first_step = w.first_step;
    o.window_steps = std::max<std::uint64_t>(w.steps, 1);
    o.first_row = w.first_row;
    o.window_rows = std::max<std::uint64_t>(w.rows, 1);
    o.max_rows = o.window_rows;  // one line per row...
    o.max_cells = o.window_steps * o.window_rows;  // ...and one step per column
    return o;
}

}  // namespace cachesim::viz
