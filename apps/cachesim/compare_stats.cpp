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

bool ComparedRun::l1_rate_measured() const { return measured.metrics.l1_sectors > 0; }
bool ComparedRun::l2_rate_measured() const {
    // A nonzero single-pass rate counts lookups from every source, not only the L1s'.
    const MeasuredMetrics& m = measured.metrics;
    return m.l2_sectors > 0 || m.l2_read_hit_rate_pct.value_or(0) > 0;
}

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

// One level's rates of a run: whether it has a measured one, the measured, the simulated, and the
// measured run-to-run range.
struct Level {
    bool (*rated)(const ComparedRun&);
    double (*measured)(const ComparedRun&);
    double (*simulated)(const ComparedRun&);
    std::optional<MeasuredRange> (*range)(const ComparedRun&);
};

const Level kL1{[](const ComparedRun& r) { return r.l1_rate_measured(); },
                [](const ComparedRun& r) { return r.measured.metrics.l1_hit_rate_pct; },
                [](const ComparedRun& r) { return r.simulated.l1_hit_rate_pct(); },
                [](const ComparedRun& r) { return r.measured.metrics.l1_hit_rate_range; }};
const Level kL2{[](const ComparedRun& r) { return r.l2_rate_measured(); },
                [](const ComparedRun& r) { return r.measured.metrics.l2_hit_rate_pct(); },
                [](const ComparedRun& r) { return r.simulated_l2_hit_rate_pct(); },
                [](const ComparedRun& r) { return r.measured.metrics.l2_hit_rate_range; }};

// One schedule of a group at one level.
struct ScheduleRate {
    double measured = 0, simulated = 0;
    std::optional<MeasuredRange> range;
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The group's distinct schedules with a measured rate at `level`, in the order they first come.
// Repeated launches of one schedule are one schedule, not several that rank against each other:
// its rate is the median of its rows' (robust to one odd launch), its range the span of theirs.
std::vector<ScheduleRate> schedule_rates(const std::vector<const ComparedRun*>& members, const Level& level) {
    std::vector<std::string> names;
    std::map<std::string, std::vector<const ComparedRun*>> rows;
    for (const ComparedRun* r : members) {
        if (!level.rated(*r)) continue;
        const std::string name = measured_schedule_name(r->measured);
        if (rows.find(name) == rows.end()) names.push_back(name);
        rows[name].push_back(r);
    }
    std::vector<ScheduleRate> schedules;
    for (const std::string& name : names) {
        std::vector<double> measured, simulated;
        std::optional<MeasuredRange> span = level.range(*rows[name].front());
        for (const ComparedRun* r : rows[name]) {
            measured.push_back(level.measured(*r));
            simulated.push_back(level.simulated(*r));
            const std::optional<MeasuredRange> range = level.range(*r);
            if (!range || !span) {
                span.reset();
            } else {
                span->min = std::min(span->min, range->min);
                span->max = std::max(span->max, range->max);
            }
        }
        schedules.push_back({median(measured), median(simulated), span});
    }
    return schedules;
}

struct PairOrder {
    std::size_t repeatable = 0, same_order = 0;
};

// Pairs of schedules whose measured ranges are apart, and of those the ones simulated in the same order.
PairOrder repeatable_pairs(const std::vector<ScheduleRate>& schedules) {
    PairOrder order;
    for (std::size_t i = 0; i < schedules.size(); ++i)
        for (std::size_t j = i + 1; j < schedules.size(); ++j) {
            const std::optional<MeasuredRange>& a = schedules[i].range;
            const std::optional<MeasuredRange>& b = schedules[j].range;
            if (!a || !b || !(a->max < b->min || b->max < a->min)) continue;
            ++order.repeatable;
            const double dm = schedules[i].measured - schedules[j].measured;
            const double ds = schedules[i].simulated - schedules[j].simulated;
            order.same_order += dm * ds > 0;
        }
    return order;
}

// The index of the highest value of `field` among `schedules`, the first of equals.
std::size_t highest(const std::vector<ScheduleRate>& schedules, double ScheduleRate::*field) {
    return static_cast<std::size_t>(
        std::max_element(schedules.begin(), schedules.end(),
                         [&](const ScheduleRate& a, const ScheduleRate& b) { return a.*field < b.*field; }) -
        schedules.begin());
}

std::vector<double> values(const std::vector<ScheduleRate>& schedules, double ScheduleRate::*field) {
    std::vector<double> v;
    for (const ScheduleRate& sr : schedules) v.push_back(sr.*field);
    return v;
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

namespace {

// The run's rate errors into the per-run statistics, each level only where the run has a measured rate.
void add_run(const ComparedRun& r, CompareSummary& s) {
    s.sector_count_exact += static_cast<double>(r.simulated.l1_sectors_ld) == r.measured.metrics.l1_sectors;
    s.request_count_exact += static_cast<double>(r.simulated.l1_requests_ld) == r.measured.metrics.l1_requests;
    const bool rated1 = r.l1_rate_measured(), rated2 = r.l2_rate_measured();
    if (rated1) {
        const double e1 = std::abs(r.l1_error_pp());
        ++s.l1_rated_runs;
        s.l1_mean_abs_pp += e1;
        s.l1_worst_abs_pp = std::max(s.l1_worst_abs_pp, e1);
        s.l1_within_3pp += e1 <= 3.0;
        s.l1_beyond_6pp += e1 > 6.0;
        if (r.in_known_miss_region) {
            ++s.known_miss_runs;
            s.known_miss_l1_within_3pp += e1 <= 3.0;
        }
        if (r.other_block_hit_pct() >= kTimingDependentPoints) {
            ++s.timing_dependent_runs;
            s.timing_dependent_l1_within_3pp += e1 <= 3.0;
        } else {
            s.other_runs_l1_within_3pp += e1 <= 3.0;
        }
    }
    if (rated2) {
        const double e2 = std::abs(r.l2_error_pp());
        ++s.l2_rated_runs;
        s.l2_mean_abs_pp += e2;
        s.l2_worst_abs_pp = std::max(s.l2_worst_abs_pp, e2);
        s.l2_within_5pp += e2 <= 5.0;
        if (r.measured.workload.kind == WorkloadKind::stencil) {
            ++s.stencil_runs;
            s.stencil_l2_within_5pp += e2 <= 5.0;
        }
    }
    const std::optional<double> d1 = r.l1_range_error_pp(), d2 = r.l2_range_error_pp();
    if (rated1 && rated2 && d1 && d2) {
        ++s.ranged_runs;
        s.l1_within_3pp_of_range += *d1 <= 3.0;
        s.l2_within_5pp_of_range += *d2 <= 5.0;
    }
}

// What the simulation's pick costs on the hardware against its best (both the highest rate, the
// first of equals).
void add_best(const std::vector<ScheduleRate>& schedules, std::size_t& same, std::size_t& within_1pp,
              double& worst_loss) {
    const std::size_t pick = highest(schedules, &ScheduleRate::simulated);
    const std::size_t top = highest(schedules, &ScheduleRate::measured);
    const double loss = schedules[top].measured - schedules[pick].measured;
    same += loss == 0;
    within_1pp += loss <= 1.0;
    worst_loss = std::max(worst_loss, loss);
}

bool all_ranged(const std::vector<ScheduleRate>& schedules) {
    return std::all_of(schedules.begin(), schedules.end(), [](const ScheduleRate& sr) { return sr.range.has_value(); });
}

// Not repeatably worse: the pick's highest launch at least the best's lowest.
bool pick_not_repeatably_worse(const std::vector<ScheduleRate>& schedules) {
    const std::size_t pick = highest(schedules, &ScheduleRate::simulated);
    const std::size_t top = highest(schedules, &ScheduleRate::measured);
    return schedules[pick].range->max >= schedules[top].range->min;
}

}  // namespace

CompareSummary summarize(const std::vector<ComparedRun>& runs) {
    CompareSummary s;
    s.runs = runs.size();
    std::map<std::string, std::vector<const ComparedRun*>> groups;
    for (const ComparedRun& r : runs) {
        add_run(r, s);
        groups[r.group_key()].push_back(&r);
    }
    const double nan = std::numeric_limits<double>::quiet_NaN();
    s.l1_mean_abs_pp = s.l1_rated_runs ? s.l1_mean_abs_pp / static_cast<double>(s.l1_rated_runs) : nan;
    s.l2_mean_abs_pp = s.l2_rated_runs ? s.l2_mean_abs_pp / static_cast<double>(s.l2_rated_runs) : nan;
    if (!s.l1_rated_runs) s.l1_worst_abs_pp = nan;
    if (!s.l2_rated_runs) s.l2_worst_abs_pp = nan;
    double sum1 = 0, sum2 = 0;
    for (const auto& [key, members] : groups) {
        const std::vector<ScheduleRate> l1 = schedule_rates(members, kL1), l2 = schedule_rates(members, kL2);
        const PairOrder p1 = repeatable_pairs(l1), p2 = repeatable_pairs(l2);
        s.l1_repeatable_pairs += p1.repeatable;
        s.l1_repeatable_same_order += p1.same_order;
        s.l2_repeatable_pairs += p2.repeatable;
        s.l2_repeatable_same_order += p2.same_order;
        if (l1.size() < 3 || l2.size() < 3) continue;
        ++s.best_groups;
        add_best(l1, s.l1_best_same, s.l1_best_within_1pp, s.l1_best_worst_loss_pp);
        add_best(l2, s.l2_best_same, s.l2_best_within_1pp, s.l2_best_worst_loss_pp);
        if (all_ranged(l1) && all_ranged(l2)) {
            ++s.ranged_best_groups;
            s.l1_best_not_repeatably_worse += pick_not_repeatably_worse(l1);
            s.l2_best_not_repeatably_worse += pick_not_repeatably_worse(l2);
        }
        const double rho1 = spearman(values(l1, &ScheduleRate::measured), values(l1, &ScheduleRate::simulated));
        const double rho2 = spearman(values(l2, &ScheduleRate::measured), values(l2, &ScheduleRate::simulated));
        if (std::isnan(rho1) || std::isnan(rho2)) continue;
        sum1 += rho1;
        sum2 += rho2;
        ++s.ranked_groups;
    }
    s.l1_rank_correlation = s.ranked_groups ? sum1 / static_cast<double>(s.ranked_groups) : nan;
    s.l2_rank_correlation = s.ranked_groups ? sum2 / static_cast<double>(s.ranked_groups) : nan;
    return s;
}

}  // namespace cachesim::cli
