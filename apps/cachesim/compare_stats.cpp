#include "apps/cachesim/compare_stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <optional>

namespace cachesim::cli {

double ComparedRun::l1_error_pp() const { return simulated.l1_hit_rate_pct() - measured.metrics.l1_hit_rate_pct; }
double ComparedRun::simulated_l2_hit_rate_pct() const {
    return measured.metrics.l2_read_hit_rate_pct ? simulated.l2_read_hit_rate_pct() : simulated.l2_hit_rate_pct();
}
double ComparedRun::other_block_hit_pct() const {
    return simulated_hit_sources.other_block_points(simulated.l1_sectors_ld);
}
double ComparedRun::l2_error_pp() const { return simulated_l2_hit_rate_pct() - measured.metrics.l2_hit_rate_pct(); }

std::optional<double> ComparedRun::l1_range_error_pp() const {
    const auto& range = measured.metrics.l1_hit_rate_range;
    if (!range) return std::nullopt;
    return range->distance(simulated.l1_hit_rate_pct());
}
std::optional<double> ComparedRun::l2_range_error_pp() const {
    const auto& range = measured.metrics.l2_hit_rate_range;
    if (!range) return std::nullopt;
    return range->distance(simulated_l2_hit_rate_pct());
}

std::string ComparedRun::group_key() const {
    const WorkloadSpec& w = measured.workload;
    if (measured.recorded())
        return measured.kernel + " " + std::to_string(w.width) + "x" + std::to_string(w.height) + " d" +
               std::to_string(w.depth) + " block " + std::to_string(measured.block);
    return std::string(workload_name(w.kind)) + " " + std::to_string(w.width) + "x" + std::to_string(w.height) +
           (w.kind == WorkloadKind::stencil ? " " + std::to_string(w.stencil_w) + "x" + std::to_string(w.stencil_h)
                                            : " d" + std::to_string(w.depth)) +
           " block " + std::to_string(measured.block) +
           (measured.variant.empty() || measured.variant == "index64" ? "" : " " + measured.variant) +
           // Launches that start with a warm L2, or with shared memory that leaves the L1 smaller,
           // are other experiments, not other schedules of the same one.
           (w.elem_bytes == 4 ? "" : " " + std::to_string(w.elem_bytes) + " B elements") +
           (measured.shared_bytes.value_or(0) ? " smem " + std::to_string(*measured.shared_bytes) : "") +
           (measured.l2_start == "warm" ? " warm L2" : "");
}

namespace {

std::vector<double> ranks(const std::vector<double>& v) {
    std::vector<std::size_t> order(v.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return v[a] < v[b]; });
    std::vector<double> r(v.size());
    for (std::size_t i = 0; i < order.size();) {
        std::size_t j = i;
        while (j + 1 < order.size() && v[order[j + 1]] == v[order[i]]) ++j;
        const double average = (static_cast<double>(i) + static_cast<double>(j)) / 2.0 + 1.0;
        for (std::size_t k = i; k <= j; ++k) r[order[k]] = average;
        i = j + 1;
    }
    return r;
}

struct PairOrder {
    std::size_t repeatable = 0, same_order = 0;
};

// Pairs whose measured ranges are apart, and of those the ones simulated in the same order.
template <class Range, class Measured, class Simulated>
PairOrder repeatable_pairs(const std::vector<const ComparedRun*>& members, Range range, Measured measured,
                           Simulated simulated) {
    PairOrder order;
    for (std::size_t i = 0; i < members.size(); ++i)
        for (std::size_t j = i + 1; j < members.size(); ++j) {
            const std::optional<MeasuredRange> a = range(*members[i]), b = range(*members[j]);
            if (!a || !b || !(a->max < b->min || b->max < a->min)) continue;
            ++order.repeatable;
            const double dm = measured(*members[i]) - measured(*members[j]);
            const double ds = simulated(*members[i]) - simulated(*members[j]);
            order.same_order += dm * ds > 0;
        }
    return order;
}

// The index of v's highest value, the first of equals.
std::size_t highest(const std::vector<double>& v) {
    return static_cast<std::size_t>(std::max_element(v.begin(), v.end()) - v.begin());
}

}  // namespace

double spearman(const std::vector<double>& a, const std::vector<double>& b) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (a.size() != b.size() || a.size() < 2) return nan;
    const std::vector<double> ra = ranks(a), rb = ranks(b);
    const double n = static_cast<double>(a.size());
    const double mean = (n + 1) / 2;
    double cov = 0, va = 0, vb = 0;
    for (std::size_t i = 0; i < ra.size(); ++i) {
        cov += (ra[i] - mean) * (rb[i] - mean);
        va += (ra[i] - mean) * (ra[i] - mean);
        vb += (rb[i] - mean) * (rb[i] - mean);
    }
    if (va == 0 || vb == 0) return nan;
    return cov / std::sqrt(va * vb);
}

CompareSummary summarize(const std::vector<ComparedRun>& runs) {
    CompareSummary s;
    s.runs = runs.size();
    std::map<std::string, std::vector<const ComparedRun*>> groups;
    for (const ComparedRun& r : runs) {
        const double e1 = std::abs(r.l1_error_pp()), e2 = std::abs(r.l2_error_pp());
        s.l1_mean_abs_pp += e1;
        s.l2_mean_abs_pp += e2;
        s.l1_worst_abs_pp = std::max(s.l1_worst_abs_pp, e1);
        s.l2_worst_abs_pp = std::max(s.l2_worst_abs_pp, e2);
        s.l1_within_3pp += e1 <= 3.0;
        s.l2_within_5pp += e2 <= 5.0;
        s.sector_count_exact += static_cast<double>(r.simulated.l1_sectors_ld) == r.measured.metrics.l1_sectors;
        s.request_count_exact += static_cast<double>(r.simulated.l1_requests_ld) == r.measured.metrics.l1_requests;
        s.l1_beyond_6pp += e1 > 6.0;
        if (r.other_block_hit_pct() >= kTimingDependentPoints) {
            ++s.timing_dependent_runs;
            s.timing_dependent_l1_within_3pp += e1 <= 3.0;
        } else {
            s.other_runs_l1_within_3pp += e1 <= 3.0;
        }
        if (r.measured.workload.kind == WorkloadKind::stencil) {
            ++s.stencil_runs;
            s.stencil_l2_within_5pp += e2 <= 5.0;
        }
        const std::optional<double> d1 = r.l1_range_error_pp(), d2 = r.l2_range_error_pp();
        if (d1 && d2) {
            ++s.ranged_runs;
            s.l1_within_3pp_of_range += *d1 <= 3.0;
            s.l2_within_5pp_of_range += *d2 <= 5.0;
        }
        groups[r.group_key()].push_back(&r);
    }
    if (!runs.empty()) {
        s.l1_mean_abs_pp /= static_cast<double>(runs.size());
        s.l2_mean_abs_pp /= static_cast<double>(runs.size());
    }
    double sum1 = 0, sum2 = 0;
    for (const auto& [key, members] : groups) {
        const PairOrder p1 = repeatable_pairs(
            members, [](const ComparedRun& r) { return r.measured.metrics.l1_hit_rate_range; },
            [](const ComparedRun& r) { return r.measured.metrics.l1_hit_rate_pct; },
            [](const ComparedRun& r) { return r.simulated.l1_hit_rate_pct(); });
        const PairOrder p2 = repeatable_pairs(
            members, [](const ComparedRun& r) { return r.measured.metrics.l2_hit_rate_range; },
            [](const ComparedRun& r) { return r.measured.metrics.l2_hit_rate_pct(); },
            [](const ComparedRun& r) { return r.simulated_l2_hit_rate_pct(); });
        s.l1_repeatable_pairs += p1.repeatable;
        s.l1_repeatable_same_order += p1.same_order;
        s.l2_repeatable_pairs += p2.repeatable;
        s.l2_repeatable_same_order += p2.same_order;
        if (members.size() < 3) continue;
        std::vector<double> m1, s1, m2, s2;
        for (const ComparedRun* r : members) {
            m1.push_back(r->measured.metrics.l1_hit_rate_pct);
            s1.push_back(r->simulated.l1_hit_rate_pct());
            m2.push_back(r->measured.metrics.l2_hit_rate_pct());
            s2.push_back(r->simulated_l2_hit_rate_pct());
        }
        // The simulation's pick and the hardware's best: each the highest rate (the first of equals).
        const std::size_t pick1 = highest(s1), top1 = highest(m1), pick2 = highest(s2), top2 = highest(m2);
        // What the pick costs on the hardware against its best.
        auto best = [](double loss, std::size_t& same, std::size_t& within_1pp, double& worst_loss) {
            same += loss == 0;
            within_1pp += loss <= 1.0;
            worst_loss = std::max(worst_loss, loss);
        };
        ++s.best_groups;
        best(m1[top1] - m1[pick1], s.l1_best_same, s.l1_best_within_1pp, s.l1_best_worst_loss_pp);
        best(m2[top2] - m2[pick2], s.l2_best_same, s.l2_best_within_1pp, s.l2_best_worst_loss_pp);
        const bool ranged = std::all_of(members.begin(), members.end(), [](const ComparedRun* r) {
            return r->measured.metrics.l1_hit_rate_range && r->measured.metrics.l2_hit_rate_range;
        });
        if (ranged) {
            // Not repeatably worse: the pick's highest launch at least the best's lowest.
            const auto l1 = [&](std::size_t i) { return *members[i]->measured.metrics.l1_hit_rate_range; };
            const auto l2 = [&](std::size_t i) { return *members[i]->measured.metrics.l2_hit_rate_range; };
            ++s.ranged_best_groups;
            s.l1_best_not_repeatably_worse += l1(pick1).max >= l1(top1).min;
            s.l2_best_not_repeatably_worse += l2(pick2).max >= l2(top2).min;
        }
        const double rho1 = spearman(m1, s1), rho2 = spearman(m2, s2);
        if (std::isnan(rho1) || std::isnan(rho2)) continue;
        sum1 += rho1;
        sum2 += rho2;
        ++s.ranked_groups;
    }
    const double nan = std::numeric_limits<double>::quiet_NaN();
    s.l1_rank_correlation = s.ranked_groups ? sum1 / static_cast<double>(s.ranked_groups) : nan;
    s.l2_rank_correlation = s.ranked_groups ? sum2 / static_cast<double>(s.ranked_groups) : nan;
    return s;
}

}  // namespace cachesim::cli
