#pragma once
// Simulated-vs-measured comparison: one joined row per measured launch, and the summary
// statistics (absolute errors in percentage points, rank agreement of schedules).
#include <optional>
#include <string>
#include <vector>

#include "sim/gpu/gpu_model.hpp"
#include "traces/measured_csv.hpp"

namespace cachesim::cli {

struct ComparedRun {
    MeasuredRun measured;
    NcuCounters simulated;
    L1HitSourceCounts simulated_hit_sources;
    // The launch lies where the model is known to miss the chip (sim/gpu/known_misses.hpp).
    bool in_known_miss_region = false;
    // The simulated L2 hit rate as the measurement defines it: over all L2 read lookups when the
    // file has lts__t_sector_op_read_hit_rate.pct, else over the lookups from the L1s.
    double simulated_l2_hit_rate_pct() const;
    // A hit rate over no lookups is undefined: a row whose chip counted no L1 global-load sectors
    // has no measured L1 rate, one that counted no L2 read sectors from the L1s (and, where the
    // file has it, a single-pass L2 rate of 0) no measured L2 rate. Such a row's rate at that level
    // is left out of every rate statistic; its counts are still compared.
    bool l1_rate_measured() const;
    bool l2_rate_measured() const;
    double l1_error_pp() const;  // simulated - measured L1 hit rate, percentage points
    double l2_error_pp() const;
    // Points of the simulated L1 hit rate from sectors another block on the SM brought: the part
    // that depends on the SM's blocks keeping in step.
    double other_block_hit_pct() const;
    // Distance of the simulated rate from the measured run-to-run range (0 inside it); only when
    // the measurement has the range.
    std::optional<double> l1_range_error_pp() const;
    std::optional<double> l2_range_error_pp() const;
    std::string group_key() const;  // everything but the schedule (the compilation included)
};

struct CompareSummary {
    std::size_t runs = 0;
    // The runs with a measured L1 / L2 hit rate: the count the rate statistics of that level are
    // over (means, worst, within and beyond counts).
    std::size_t l1_rated_runs = 0, l2_rated_runs = 0;
    double l1_mean_abs_pp = 0, l1_worst_abs_pp = 0;
    double l2_mean_abs_pp = 0, l2_worst_abs_pp = 0;
    std::size_t l1_within_3pp = 0, l2_within_5pp = 0;
    std::size_t sector_count_exact = 0;  // L1 global-load sectors equal to the hardware's
    std::size_t request_count_exact = 0;  // L1 global-load requests equal to the hardware's
    std::size_t l1_beyond_6pp = 0;        // runs whose L1 error exceeds 6 points
    // Runs drawing at least kTimingDependentPoints (l1_hit_sources.hpp) of their simulated L1 rate
    // from sectors another block brought (hits that depend on the SM's blocks keeping in step),
    // and of those, and of the others, the ones whose L1 rate is within 3 points.
    std::size_t timing_dependent_runs = 0, timing_dependent_l1_within_3pp = 0, other_runs_l1_within_3pp = 0;
    // Runs in a region where the model is known to miss the chip, and of them within 3 points at L1.
    std::size_t known_miss_runs = 0, known_miss_l1_within_3pp = 0;
    // The stencil launches, and of those the ones whose L2 rate is within 5 points.
    std::size_t stencil_runs = 0, stencil_l2_within_5pp = 0;
    // Spearman rank correlation of schedules (by L1 / L2 hit rate) within each group of runs that
    // differ only in schedule, averaged over groups with at least 3 distinct schedules; NaN if
    // none. A group's schedules at a level, here and below, are its distinct schedules with a
    // measured rate there, and a group is scored where it has at least 3 at both levels. A
    // schedule with several rows in a group (repeated launches) is one schedule: its measured and
    // simulated rate the median of its rows' (the mean of the middle two for an even count), its
    // run-to-run range the span of its rows' ranges (none where a row has none).
    double l1_rank_correlation = 0, l2_rank_correlation = 0;
    std::size_t ranked_groups = 0;
    // Runs whose measurement has run-to-run ranges and rates (L1 and L2), and of those the ones whose
    // simulated rate is within 3 pp (L1) / 5 pp (L2) of the range.
    std::size_t ranged_runs = 0, l1_within_3pp_of_range = 0, l2_within_5pp_of_range = 0;
    // Pairs of schedules in a group that the hardware orders repeatably: both have run-to-run
    // ranges and the ranges do not overlap. Of those, the pairs the simulation orders the same way
    // (a simulated tie is not the same order). Pairs whose ranges overlap have no measured order.
    std::size_t l1_repeatable_pairs = 0, l1_repeatable_same_order = 0;
    std::size_t l2_repeatable_pairs = 0, l2_repeatable_same_order = 0;
    // The question a user asks of a group (runs that differ only in schedule, at least 3): which
    // schedule hits most? Groups where the simulation's best is one of the hardware's best (equal
    // measured rate), and the most the hardware loses, by its own measurement, when it runs the
    // simulation's pick instead of its best (percentage points; 0 when every pick is right).
    std::size_t best_groups = 0, l1_best_same = 0, l2_best_same = 0;
    // Groups where the simulation's pick costs the hardware at most 1 point (its best included).
    std::size_t l1_best_within_1pp = 0, l2_best_within_1pp = 0;
    double l1_best_worst_loss_pp = 0, l2_best_worst_loss_pp = 0;
    // Groups whose every run has run-to-run ranges (L1 and L2), and of those the ones where the
    // simulation's pick is not repeatably worse on the hardware than the hardware's best: the
    // pick's range reaches the best's (its maximum at least the best's minimum), so that some
    // launches of the pick hit as often as some of the best's.
    std::size_t ranged_best_groups = 0, l1_best_not_repeatably_worse = 0, l2_best_not_repeatably_worse = 0;
};

CompareSummary summarize(const std::vector<ComparedRun>& runs);
// Spearman's rho with average ranks for ties; NaN for fewer than 2 values or no variance.
double spearman(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace cachesim::cli
