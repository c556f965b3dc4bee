// Repeated launches of one schedule in a group (rows that differ in nothing, the schedule
// included) are one schedule of compare's groups, not several: a group needs three distinct
// schedules to be scored, and a schedule measured several times ranks, and is picked, by the
// median of its rows. The per-run error statistics stay per row.
#include <gtest/gtest.h>

#include "apps/cachesim/compare_stats.hpp"

namespace cachesim {
namespace {

// A run of `schedule` whose measured L1 and L2 rates are `measured` and simulated `simulated`.
cli::ComparedRun run(const char* schedule, double measured, double simulated) {
    cli::ComparedRun r;
    r.measured.workload.schedule = parse_schedule(schedule);
    r.measured.block = 128;
    r.measured.metrics.l1_sectors = 100;
    r.measured.metrics.l1_hit_rate_pct = measured;
    r.measured.metrics.l2_sectors = 100;
    r.measured.metrics.l2_read_hit_rate_pct = measured;
    r.simulated.l1_sectors_ld = 100;
    r.simulated.l1_sectors_ld_hit = static_cast<std::uint64_t>(simulated);
    r.simulated.l2_sectors_tex_read = 100;
    r.simulated.l2_sectors_tex_read_hit = static_cast<std::uint64_t>(simulated);
    return r;
}

TEST(CompareRepeatedSchedules, RepeatsOfOneScheduleAreNotAGroup) {
    // Three launches of linear and two of column:8: two schedules, fewer than three.
    const std::vector<cli::ComparedRun> runs = {run("linear", 84, 85), run("linear", 86, 85), run("linear", 82, 85),
                                                run("column:8", 70, 60), run("column:8", 72, 60)};
    const cli::CompareSummary s = cli::summarize(runs);
    EXPECT_EQ(s.best_groups, 0u);
    EXPECT_EQ(s.ranked_groups, 0u);
    // Errors stay per row: 1, 1, 3, 10, 12 -> mean 27 / 5, within 3: three rows.
    EXPECT_EQ(s.runs, 5u);
    EXPECT_DOUBLE_EQ(s.l1_mean_abs_pp, 27.0 / 5);
    EXPECT_EQ(s.l1_within_3pp, 3u);
}

TEST(CompareRepeatedSchedules, OneScheduleOfARowRepeatedIsNotAGroupOfThree) {
    // The same launch three times: one schedule, even with three rows.
    const cli::CompareSummary s =
        cli::summarize({run("linear", 84.94, 85), run("linear", 86.14, 85), run("linear", 82.13, 85)});
    EXPECT_EQ(s.best_groups, 0u);
    EXPECT_EQ(s.ranked_groups, 0u);
}

TEST(CompareRepeatedSchedules, ARepeatedScheduleRanksByItsMedian) {
    // linear measured 80 and 90 (median 85), simulated 90; column:8 measured 86, simulated 80;
    // column:16 measured 60, simulated 70. The hardware's best is column:8 (86 > 85); the
    // simulation picks linear: 86 - 85 = 1 point lost. (Row by row, linear's 90 would be the best
    // and the pick's first row, 80, would lose 10.)
    std::vector<cli::ComparedRun> runs = {run("linear", 80, 90), run("linear", 90, 90), run("column:8", 86, 80),
                                          run("column:16", 60, 70)};
    // Ranges: linear's rows [78, 82] and [88, 92] span [78, 92]; column:8 [85, 87]; column:16 [58, 62].
    const MeasuredRange ranges[] = {{78, 82}, {88, 92}, {85, 87}, {58, 62}};
    for (std::size_t i = 0; i < runs.size(); ++i) {
        runs[i].measured.metrics.l1_hit_rate_range = ranges[i];
        runs[i].measured.metrics.l2_hit_rate_range = ranges[i];
    }
    const cli::CompareSummary s = cli::summarize(runs);
    EXPECT_EQ(s.best_groups, 1u);
    EXPECT_EQ(s.l1_best_same, 0u);
    EXPECT_EQ(s.l1_best_within_1pp, 1u);
    EXPECT_DOUBLE_EQ(s.l1_best_worst_loss_pp, 1);
    EXPECT_DOUBLE_EQ(s.l2_best_worst_loss_pp, 1);
    // Spearman over the three schedules: measured ranks (2, 3, 1), simulated (3, 2, 1);
    // differences -1, 1, 0: rho = 1 - 6 * 2 / (3 * 8) = 0.5.
    EXPECT_EQ(s.ranked_groups, 1u);
    EXPECT_DOUBLE_EQ(s.l1_rank_correlation, 0.5);
    // Pairs apart: linear [78, 92] with column:16, and column:8 with column:16, both simulated in
    // the hardware's order; linear's two rows are no pair, and linear overlaps column:8.
    EXPECT_EQ(s.l1_repeatable_pairs, 2u);
    EXPECT_EQ(s.l1_repeatable_same_order, 2u);
    // The pick's span reaches up to 92, over the best's minimum 85: not repeatably worse.
    EXPECT_EQ(s.ranged_best_groups, 1u);
    EXPECT_EQ(s.l1_best_not_repeatably_worse, 1u);
    // Per row: errors 10, 0, 6, 10.
    EXPECT_EQ(s.runs, 4u);
    EXPECT_DOUBLE_EQ(s.l1_mean_abs_pp, 26.0 / 4);
}

}  // namespace
}  // namespace cachesim
