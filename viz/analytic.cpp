#include "viz/analytic.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace cachesim::viz::analytic {

namespace {

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return b == 0 ? 0 : (a + b - 1) / b; }

// A column or tile wider (or taller) than the array is the whole array: the schedule cuts it there
// (traces/schedule.hpp), so the formulas must too or they count lines past the array's edge.
std::uint64_t clamped(std::uint64_t given, std::uint64_t extent) { return std::min(given, extent); }

// "1 line", "42 lines".
std::string lines_count(std::uint64_t n) { return std::to_string(n) + (n == 1 ? " line" : " lines"); }

// "1 line fits", "42 lines fit": the count and its verb agree.
std::string lines_that(std::uint64_t n, const std::string& verb) {
    return lines_count(n) + " " + verb + (n == 1 ? "s" : "");
}

std::string fits(std::uint64_t need, std::uint64_t have, bool strictly) {
    const bool ok = strictly ? have > need : have >= need;
    std::ostringstream s;
    s << "M_l = " << have << (ok ? (strictly ? " > " : " >= ") : (strictly ? " <= " : " < ")) << need
      << (ok ? ": satisfied" : ": not satisfied");
    return s.str();
}

}  // namespace

std::uint64_t naive_stencil_lines(std::uint64_t iw, std::uint64_t sw, std::uint64_t sh, std::uint64_t l) {
    return ceil_div(iw + sw, l) * sh;
}
std::uint64_t tiled_stencil_lines(std::uint64_t t, std::uint64_t sw, std::uint64_t sh, std::uint64_t l) {
    return ceil_div(t + sw, l) * sh;
}
double max_stencil_tile(std::uint64_t l, std::uint64_t ml, std::uint64_t sh, std::uint64_t sw) {
    return static_cast<double>(l * ml) / static_cast<double>(sh) - static_cast<double>(sw);
}
std::uint64_t stencil_box_lines(std::uint64_t sw, std::uint64_t sh, std::uint64_t l) {
    return sh * (ceil_div(sw > 0 ? sw - 1 : 0, l) + 1);
}
std::uint64_t naive_stencil_fetches_worst(std::uint64_t iw, std::uint64_t ih, std::uint64_t sw, std::uint64_t sh,
                                          std::uint64_t l) {
    return ceil_div(iw + sw, l) * ih * sh;
}
std::uint64_t naive_stencil_fetches_fitting(std::uint64_t iw, std::uint64_t ih, std::uint64_t sw, std::uint64_t l) {
    return ceil_div(iw + sw, l) * ih;
}
std::uint64_t tiled_stencil_fetches(std::uint64_t iw, std::uint64_t ih, std::uint64_t tw, std::uint64_t th,
                                    std::uint64_t sw, std::uint64_t sh, std::uint64_t l) {
    return ceil_div(iw, tw) * ceil_div(tw + sw, l) * ceil_div(ih, th) * (th + sh);
}
std::uint64_t column_stencil_fetches(std::uint64_t iw, std::uint64_t ih, std::uint64_t c, std::uint64_t sw,
                                     std::uint64_t sh, std::uint64_t l) {
    return ceil_div(iw, c) * ceil_div(c + sw, l) * (ih + sh);
}
double recommended_stencil_column(std::uint64_t cache_bytes, std::uint64_t u, std::uint64_t sw, std::uint64_t sh,
                                  std::uint64_t threads) {
    return (static_cast<double>(cache_bytes) - static_cast<double>(u * (sh * sw + threads))) /
           static_cast<double>(sh * u);
}

std::uint64_t naive_matmul_lines(std::uint64_t d, std::uint64_t l) { return ceil_div(d, l) + d; }
std::uint64_t naive_matmul_fetches_row_reuse(std::uint64_t iw, std::uint64_t ih, std::uint64_t d, std::uint64_t l) {
    return ceil_div(d, l) * ih + d * iw * ih;
}
std::uint64_t naive_matmul_fetches_no_reuse(std::uint64_t iw, std::uint64_t ih, std::uint64_t d, std::uint64_t l) {
    return (ceil_div(d, l) + d) * iw * ih;
}
std::uint64_t full_reuse_matmul_lines(std::uint64_t iw, std::uint64_t d, std::uint64_t l) {
    return ceil_div(d, l) + ceil_div(iw * d, l);
}
std::uint64_t full_reuse_matmul_fetches(std::uint64_t iw, std::uint64_t ih, std::uint64_t d, std::uint64_t l) {
    return ceil_div(d, l) * ih + ceil_div(iw, l) * d;
}
std::uint64_t column_matmul_lines(std::uint64_t iw, std::uint64_t ih, std::uint64_t c, std::uint64_t l) {
    return ceil_div(iw, l) + ih * ceil_div(c, l);
}
double recommended_matmul_column(std::uint64_t cache_bytes, std::uint64_t u, std::uint64_t ih) {
    return static_cast<double>(cache_bytes) / static_cast<double>(u * ih);
}

Summary summarize(const WorkloadSpec& w, const CacheConfig& cache, std::uint64_t active_threads) {
    Summary s;
    if (!cache.enabled() || cache.line_bytes == 0 || w.elem_bytes == 0) return s;
    const std::uint64_t u = w.elem_bytes;
    const std::uint64_t l = std::max<std::uint64_t>(1, cache.line_bytes / u);
    const std::uint64_t ml = cache.size_bytes / cache.line_bytes;
    const std::uint64_t iw = w.width, ih = w.height;
    const Schedule& sched = w.schedule;
    const bool column = sched.kind == ScheduleKind::column || sched.kind == ScheduleKind::zigzag;
    auto add = [&](std::string eq, std::string meaning, double value, std::string cmp = {}) {
        s.items.push_back({std::move(eq), std::move(meaning), value, std::move(cmp)});
    };
    if (w.kind == WorkloadKind::stencil) {
        const std::uint64_t sw = w.stencil_w, sh = w.stencil_h;
        const std::uint64_t need = naive_stencil_lines(iw, sw, sh, l);
        add("eq. 3.2", "lines the naive (row-major) order needs", static_cast<double>(need), fits(need, ml, false));
        add("eq. 3.4", "largest tile / column width for this cache", max_stencil_tile(l, ml, sh, sw));
        const double rec = recommended_stencil_column(cache.size_bytes, u, sw, sh, active_threads);
        add("sec. 4.3", "recommended column width c", rec);
        if (rec >= 1) s.recommended_column = static_cast<std::uint64_t>(std::floor(rec));
        const std::uint64_t worst = naive_stencil_fetches_worst(iw, ih, sw, sh, l);
        const std::uint64_t fitting = naive_stencil_fetches_fitting(iw, ih, sw, l);
        add("sec. 3.3.1", "naive fetches when eq. 3.2 holds", static_cast<double>(fitting));
        add("sec. 3.3.1", "naive fetches, worst case", static_cast<double>(worst));
        // The worst case fetches a line at most once per output row and stencil row, so the line
        // must stay cached from one work item to the next. Under LRU it does where one item's box
        // fits: the lines read between two uses of a line lie in one box (rows below it from the
        // first item, rows above from the next), plus the output line a write-allocating cache keeps.
        const bool allocates = cache.write_policy == WritePolicy::write_back_allocate;
        const std::uint64_t box = stencil_box_lines(sw, sh, l) + (allocates ? 1 : 0);
        add("sec. 3.3.1", "lines one work item's box reads (the worst case needs them cached)", static_cast<double>(box),
            fits(box, ml, false));
        const std::string box_lines = "a work item's " + std::to_string(sw) + "x" + std::to_string(sh) + " box" +
                                      (allocates ? " and its output line, " : ", ") + lines_count(box);
        if (sched.kind == ScheduleKind::linear && ml >= need) {
            s.fetch_bound = static_cast<double>(fitting);
            s.fetch_equation = "sec. 3.3.1 (eq. 3.2 holds)";
            s.fetch_is_estimate = true;
            s.fetch_condition = "eq. 3.2's " + lines_that(need, "fit") + " in " + std::to_string(ml);
        } else if (sched.kind == ScheduleKind::linear && ml >= box) {
            s.fetch_bound = static_cast<double>(worst);
            s.fetch_equation = "sec. 3.3.1 worst case";
            s.fetch_condition = "eq. 3.2's " + lines_that(need, "exceed") + " " + std::to_string(ml);
        } else if (sched.kind == ScheduleKind::linear) {
            s.no_bound_reason = "sec. 3.3.1's worst case needs " + box_lines + ", in the cache; it holds " +
                                std::to_string(ml);
        } else if (sched.kind == ScheduleKind::tiled) {
            const std::uint64_t tw = clamped(sched.width, iw);
            const std::uint64_t th = clamped(sched.tile_height ? sched.tile_height : sched.width, ih);
            const std::uint64_t tneed = tiled_stencil_lines(tw, sw, sh, l);
            add("eq. 3.3", "lines a tile row needs (t = " + std::to_string(tw) + ")", static_cast<double>(tneed),
                fits(tneed, ml, false));
            const std::uint64_t f = tiled_stencil_fetches(iw, ih, tw, th, sw, sh, l);
            add("eq. 3.5", "tiled fetches, upper bound", static_cast<double>(f));
            if (ml >= tneed) {
                s.fetch_bound = static_cast<double>(f);
                s.fetch_equation = "eq. 3.5";
                s.fetch_condition = "a tile row's " + lines_that(tneed, "(eq. 3.3) fit") + " in " + std::to_string(ml);
            } else {
                s.no_bound_reason = "eq. 3.5 needs a tile row's " + lines_count(tneed) + " (eq. 3.3) in the cache; it holds " +
                                    std::to_string(ml);
            }
        } else if (column) {
            const std::uint64_t c = clamped(sched.width, iw);
            const std::uint64_t cneed = tiled_stencil_lines(c, sw, sh, l);
            add("eq. 3.3", "lines a column row needs (c = " + std::to_string(c) + ")", static_cast<double>(cneed),
                fits(cneed, ml, false));
            const std::uint64_t f = column_stencil_fetches(iw, ih, c, sw, sh, l);
            add("eq. 4.8", "column fetches, upper bound", static_cast<double>(f));
            if (ml >= cneed) {
                s.fetch_bound = static_cast<double>(f);
                s.fetch_equation = "eq. 4.8";
                s.fetch_condition = "a column row's " + lines_that(cneed, "(eq. 3.3) fit") + " in " + std::to_string(ml);
            } else {
                s.no_bound_reason = "eq. 4.8 needs a column row's " + lines_count(cneed) + " (eq. 3.3) in the cache; it holds " +
                                    std::to_string(ml);
            }
        }
    } else {
        const std::uint64_t d = w.depth;
        const std::uint64_t need_row = naive_matmul_lines(d, l);
        const std::uint64_t need_all = full_reuse_matmul_lines(iw, d, l);
        add("eq. 3.6", "lines to reuse B along a row", static_cast<double>(need_row), fits(need_row, ml, true));
        add("eq. 3.9", "lines to reuse A and B", static_cast<double>(need_all), fits(need_all, ml, true));
        const std::uint64_t f7 = naive_matmul_fetches_row_reuse(iw, ih, d, l);
        const std::uint64_t f8 = naive_matmul_fetches_no_reuse(iw, ih, d, l);
        const std::uint64_t f10 = full_reuse_matmul_fetches(iw, ih, d, l);
        add("eq. 3.7", "naive fetches when eq. 3.6 holds", static_cast<double>(f7));
        add("eq. 3.8", "naive fetches without reuse", static_cast<double>(f8));
        add("eq. 3.10", "fetches when eq. 3.9 holds", static_cast<double>(f10));
        const double rec = recommended_matmul_column(cache.size_bytes, u, ih);
        add("sec. 4.4", "recommended column width c", rec);
        if (rec >= 1) s.recommended_column = static_cast<std::uint64_t>(std::floor(rec));
        if (column) {
            const std::uint64_t c = clamped(sched.width, iw);
            const std::uint64_t cneed = column_matmul_lines(iw, ih, c, l);
            add("sec. 4.4", "lines a column needs (c = " + std::to_string(c) + ")", static_cast<double>(cneed),
                fits(cneed, ml, false));
        }
        if (sched.kind == ScheduleKind::linear) {
            s.fetch_is_estimate = true;
            if (ml > need_all) { s.fetch_bound = static_cast<double>(f10); s.fetch_equation = "eq. 3.10"; }
            else if (ml > need_row) { s.fetch_bound = static_cast<double>(f7); s.fetch_equation = "eq. 3.7"; }
            else { s.fetch_bound = static_cast<double>(f8); s.fetch_equation = "eq. 3.8"; }
            s.fetch_condition = ml > need_all ? "eq. 3.9's " + lines_that(need_all, "fit") + " in " + std::to_string(ml)
                              : ml > need_row ? "eq. 3.6's " + lines_that(need_row, "fit") + " in " + std::to_string(ml)
                                              : "eq. 3.6's " + lines_that(need_row, "exceed") + " " + std::to_string(ml);
        }
    }
    if (!s.fetch_bound && s.no_bound_reason.empty())
        s.no_bound_reason = "the thesis gives no fetch figure for " + std::string(workload_name(w.kind)) + " with schedule " +
                            schedule_name(sched);
    return s;
}

std::vector<std::string> gpu_model_reason(std::uint32_t sms) {
    return {"thesis bounds not shown: they model one cache",
            "  serving work items one at a time in launch order;",
            "  here " + std::to_string(sms) + " SMs with their own L1s run warps interleaved"};
}

}  // namespace cachesim::viz::analytic
