// The summary statistics of `cachesim compare` on hand-made runs: absolute errors, Spearman's
// rank correlation, the best schedule of a group, run-to-run ranges and the orders the hardware
// repeats, and whether the simulation's best schedule is repeatably worse on the hardware.
#include <gtest/gtest.h>

#include <cmath>

#include "apps/cachesim/compare_stats.hpp"

namespace cachesim {
namespace {

TEST(CompareStats, SpearmanWithTies) {
    EXPECT_DOUBLE_EQ(cli::spearman({1, 2, 3, 4}, {10, 20, 30, 40}), 1.0);
    EXPECT_DOUBLE_EQ(cli::spearman({1, 2, 3, 4}, {40, 30, 20, 10}), -1.0);
    // Ranks (1, 2.5, 2.5, 4) against (1, 2, 3, 4): rho = 4.5 / sqrt(4.5 * 5).
    EXPECT_NEAR(cli::spearman({1, 5, 5, 9}, {1, 2, 3, 4}), 4.5 / std::sqrt(4.5 * 5.0), 1e-12);
    EXPECT_TRUE(std::isnan(cli::spearman({1, 1, 1}, {1, 2, 3})));
}

TEST(CompareStats, SummaryErrorsAndRanking) {
    std::vector<cli::ComparedRun> runs(3);
    const char* schedules[] = {"linear", "column:8", "column:16"};
    const double measured_l1[] = {50, 70, 90}, simulated_hits[] = {60, 65, 95};
    for (int i = 0; i < 3; ++i) {
        cli::ComparedRun& r = runs[static_cast<std::size_t>(i)];
        r.measured.workload.schedule = parse_schedule(schedules[i]);
        r.measured.block = 128;
        r.measured.metrics.l1_hit_rate_pct = measured_l1[i];
        r.measured.metrics.l1_sectors = 100;
        r.measured.metrics.l2_sectors = 100;
        r.measured.metrics.l2_sector_hits = 50;
        r.simulated.l1_sectors_ld = 100;
        r.simulated.l1_sectors_ld_hit = static_cast<std::uint64_t>(simulated_hits[i]);
        r.simulated.l2_sectors_tex_read = 100;
        r.simulated.l2_sectors_tex_read_hit = 52;
    }
    const cli::CompareSummary s = cli::summarize(runs);
    EXPECT_NEAR(s.l1_mean_abs_pp, (10 + 5 + 5) / 3.0, 1e-12);
    EXPECT_DOUBLE_EQ(s.l1_worst_abs_pp, 10);
    EXPECT_EQ(s.l1_within_3pp, 0u);
    EXPECT_DOUBLE_EQ(s.l2_mean_abs_pp, 2);
    EXPECT_EQ(s.l2_within_5pp, 3u);
    EXPECT_EQ(s.sector_count_exact, 3u);
    EXPECT_EQ(s.ranked_groups, 0u);  // L2 rates are all equal: no ranking to compare
    // Best schedule: L1 column:16 in both (90 and 95); L2 all equal, so the simulation's first
    // pick is one of the hardware's best.
    EXPECT_EQ(s.best_groups, 1u);
    EXPECT_EQ(s.l1_best_same, 1u);
    EXPECT_EQ(s.l2_best_same, 1u);
    EXPECT_DOUBLE_EQ(s.l1_best_worst_loss_pp, 0);
}

// A compared run whose measured and simulated L1 and L2 hit rates are both the given rates.
cli::ComparedRun run_with_rates(const char* schedule, std::uint32_t block, double measured, double simulated) {
    cli::ComparedRun r;
    r.measured.workload.schedule = parse_schedule(schedule);
    r.measured.block = block;
    r.measured.metrics.l1_hit_rate_pct = measured;
    r.measured.metrics.l2_read_hit_rate_pct = measured;
    r.measured.metrics.l1_sectors = 100;  // rates over lookups counted
    r.measured.metrics.l2_sectors = 100;
    r.simulated.l1_sectors_ld = 100;
    r.simulated.l1_sectors_ld_hit = static_cast<std::uint64_t>(simulated);
    r.simulated.l2_sectors_tex_read = 100;
    r.simulated.l2_sectors_tex_read_hit = static_cast<std::uint64_t>(simulated);
    return r;
}

TEST(CompareStats, BestScheduleAndWhatTheWrongPickCosts) {
    // Two groups of three schedules (blocks 128 and 256). Block 128: measured 80 / 85 / 84,
    // simulated 70 / 75 / 76: the simulation picks column:16, 1 point below the hardware's best.
    // Block 256: measured 60 / 50 / 40, simulated 90 / 10 / 20: the same best.
    std::vector<cli::ComparedRun> runs;
    const char* schedules[] = {"linear", "column:8", "column:16"};
    const double measured[] = {80, 85, 84, 60, 50, 40}, simulated[] = {70, 75, 76, 90, 10, 20};
    for (std::size_t i = 0; i < 6; ++i)
        runs.push_back(run_with_rates(schedules[i % 3], i < 3 ? 128 : 256, measured[i], simulated[i]));
    const cli::CompareSummary s = cli::summarize(runs);
    EXPECT_EQ(s.best_groups, 2u);
    EXPECT_EQ(s.l1_best_same, 1u);
    EXPECT_EQ(s.l2_best_same, 1u);
    EXPECT_DOUBLE_EQ(s.l1_best_worst_loss_pp, 1);
    EXPECT_DOUBLE_EQ(s.l2_best_worst_loss_pp, 1);
}

TEST(CompareStats, WithinTargetOfTheMeasuredRange) {
    std::vector<cli::ComparedRun> runs(3);
    // simulated L1 60% against ranges [55, 57] (3 pp off), [50, 56] (4 pp) and none
    const double range_min[] = {55, 50}, range_max[] = {57, 56};
    for (std::size_t i = 0; i < 3; ++i) {
        cli::ComparedRun& r = runs[i];
        r.measured.metrics.l1_hit_rate_pct = 56;
        r.measured.metrics.l1_sectors = 100;
        r.measured.metrics.l2_read_hit_rate_pct = 90;
        r.simulated.l1_sectors_ld = 100;
        r.simulated.l1_sectors_ld_hit = 60;
        r.simulated.l2_sectors_tex_read = 100;
        r.simulated.l2_sectors_tex_read_hit = 99;
        if (i < 2) {
            r.measured.metrics.l1_hit_rate_range = MeasuredRange{range_min[i], range_max[i]};
            r.measured.metrics.l2_hit_rate_range = MeasuredRange{80 + 4.0 * i, 93};
        }
    }
    EXPECT_DOUBLE_EQ(*runs[0].l1_range_error_pp(), 3);
    EXPECT_DOUBLE_EQ(*runs[1].l1_range_error_pp(), 4);
    EXPECT_FALSE(runs[2].l1_range_error_pp().has_value());
    EXPECT_DOUBLE_EQ(*runs[0].l2_range_error_pp(), 6);  // 99 against [80, 93]
    const cli::CompareSummary s = cli::summarize(runs);
    EXPECT_EQ(s.ranged_runs, 2u);
    EXPECT_EQ(s.l1_within_3pp_of_range, 1u);
    EXPECT_EQ(s.l2_within_5pp_of_range, 0u);
    EXPECT_EQ(s.l1_within_3pp, 0u);  // against the medians: 4 pp off each
}

TEST(CompareStats, RankingCountsOnlyPairsTheHardwareOrdersRepeatably) {
    // One group of four schedules. Measured L1 ranges: [50, 52], [51, 53] (overlaps the first: no
    // measured order), [60, 61], and none. Simulated: 70, 40, 65, 10.
    std::vector<cli::ComparedRun> runs;
    const char* schedules[] = {"linear", "column:8", "column:16", "column:32"};
    const double measured[] = {51, 52, 60.5, 80}, simulated[] = {70, 40, 65, 10};
    for (std::size_t i = 0; i < 4; ++i) runs.push_back(run_with_rates(schedules[i], 256, measured[i], simulated[i]));
    runs[0].measured.metrics.l1_hit_rate_range = MeasuredRange{50, 52};
    runs[1].measured.metrics.l1_hit_rate_range = MeasuredRange{51, 53};
    runs[2].measured.metrics.l1_hit_rate_range = MeasuredRange{60, 61};
    runs[0].measured.metrics.l2_hit_rate_range = MeasuredRange{50, 52};
    runs[2].measured.metrics.l2_hit_rate_range = MeasuredRange{60, 61};
    const cli::CompareSummary s = cli::summarize(runs);
    // L1: (linear, column:16) measured 51 < 60.5, simulated 70 > 65: reversed;
    // (column:8, column:16) measured 52 < 60.5, simulated 40 < 65: same. The overlapping pair and
    // the pairs with the unranged column:32 do not count.
    EXPECT_EQ(s.l1_repeatable_pairs, 2u);
    EXPECT_EQ(s.l1_repeatable_same_order, 1u);
    EXPECT_EQ(s.l2_repeatable_pairs, 1u);  // only linear and column:16 have L2 ranges
    EXPECT_EQ(s.l2_repeatable_same_order, 0u);
}

TEST(CompareStats, BestScheduleNotRepeatablyWorseByRunToRunRanges) {
    // Three groups of three schedules, every run with ranges (L1 and L2 alike).
    // Block 128: hardware best column:8 (86, range [85, 88]); the simulation picks linear
    // (simulated 90), measured 84 in [83, 85.5]: its maximum 85.5 reaches the best's minimum 85.
    // Block 256: hardware best column:8 (86, [85, 88]); the pick linear measured 80 in [79, 84]:
    // 84 < 85, repeatably worse. Block 512: the pick is the hardware's best.
    // Block 1024: one run has no range, so the group is not counted.
    std::vector<cli::ComparedRun> runs;
    const char* schedules[] = {"linear", "column:8", "column:16"};
    const std::uint32_t blocks[] = {128, 256, 512, 1024};
    const double measured[4][3] = {{84, 86, 70}, {80, 86, 70}, {84, 86, 70}, {84, 86, 70}};
    const double simulated[4][3] = {{90, 80, 70}, {90, 80, 70}, {80, 90, 70}, {90, 80, 70}};
    const MeasuredRange ranges[4][3] = {{{83, 85.5}, {85, 88}, {69, 71}},
                                        {{79, 84}, {85, 88}, {69, 71}},
                                        {{83, 85.5}, {85, 88}, {69, 71}},
                                        {{83, 85.5}, {85, 88}, {69, 71}}};
    for (std::size_t g = 0; g < 4; ++g)
        for (std::size_t i = 0; i < 3; ++i) {
            cli::ComparedRun r = run_with_rates(schedules[i], blocks[g], measured[g][i], simulated[g][i]);
            if (!(g == 3 && i == 2)) {
                r.measured.metrics.l1_hit_rate_range = ranges[g][i];
                r.measured.metrics.l2_hit_rate_range = ranges[g][i];
            }
            runs.push_back(r);
        }
    const cli::CompareSummary s = cli::summarize(runs);
    EXPECT_EQ(s.best_groups, 4u);
    EXPECT_EQ(s.ranged_best_groups, 3u);
    EXPECT_EQ(s.l1_best_not_repeatably_worse, 2u);  // blocks 128 and 512
    EXPECT_EQ(s.l2_best_not_repeatably_worse, 2u);
    EXPECT_EQ(s.l1_best_within_1pp, 1u);  // block 512 only: the others lose 2 and 6 points
}

}  // namespace
}  // namespace cachesim
