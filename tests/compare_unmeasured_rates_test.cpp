// A measured row whose chip counted no lookups at a cache level has no hit rate there: compare's
// summary leaves that level's rate out of every rate statistic (means, worst, within and beyond
// counts, schedule groups) and still compares the row's counts. A kernel that loads nothing
// (0 sectors measured and simulated) is such a row too, with its counts equal.
#include <gtest/gtest.h>

#include <cmath>

#include "apps/cachesim/compare_stats.hpp"

namespace cachesim {
namespace {

// A run of `schedule` whose chip counted 100 L1 sectors (rate `measured`) and 100 L2 reads (50
// hits), and whose simulation hits `simulated` of 100 L1 sectors and 55 of 100 L2 reads.
cli::ComparedRun counted_run(const char* schedule, double measured, std::uint64_t simulated) {
    cli::ComparedRun r;
    r.measured.workload.kind = WorkloadKind::stencil;
    r.measured.workload.schedule = parse_schedule(schedule);
    r.measured.block = 128;
    r.measured.metrics.l1_requests = 40;
    r.measured.metrics.l1_sectors = 100;
    r.measured.metrics.l1_sector_hits = measured;
    r.measured.metrics.l1_hit_rate_pct = measured;
    r.measured.metrics.l2_sectors = 100;
    r.measured.metrics.l2_sector_hits = 50;
    r.simulated.l1_requests_ld = 40;
    r.simulated.l1_sectors_ld = 100;
    r.simulated.l1_sectors_ld_hit = simulated;
    r.simulated.l2_sectors_tex_read = 100;
    r.simulated.l2_sectors_tex_read_hit = 55;
    return r;
}

// The same run with every measured counter 0, as a profile of no loads reads.
cli::ComparedRun nothing_counted(cli::ComparedRun r) {
    r.measured.metrics = MeasuredMetrics{};
    return r;
}

TEST(CompareUnmeasuredRates, RowsWithoutLookupsAreLeftOutOfTheRateStatistics) {
    // linear: L1 80 measured, 84 simulated (+4); L2 50 against 55 (+5).
    // column:8: nothing counted, 90 of 100 sectors simulated: no rate at either level.
    // column:16: a kernel that loads nothing, measured and simulated: no rate, counts equal (0 = 0).
    cli::ComparedRun loads_nothing = nothing_counted(counted_run("column:16", 0, 0));
    loads_nothing.simulated = NcuCounters{};
    const std::vector<cli::ComparedRun> runs = {counted_run("linear", 80, 84),
                                                nothing_counted(counted_run("column:8", 0, 90)), loads_nothing};
    EXPECT_TRUE(runs[0].l1_rate_measured());
    EXPECT_FALSE(runs[1].l1_rate_measured());
    EXPECT_FALSE(runs[1].l2_rate_measured());
    const cli::CompareSummary s = cli::summarize(runs);
    EXPECT_EQ(s.runs, 3u);
    EXPECT_EQ(s.l1_rated_runs, 1u);
    EXPECT_EQ(s.l2_rated_runs, 1u);
    EXPECT_DOUBLE_EQ(s.l1_mean_abs_pp, 4);  // not (4 + 90 + 0) / 3
    EXPECT_DOUBLE_EQ(s.l1_worst_abs_pp, 4);
    EXPECT_EQ(s.l1_within_3pp, 0u);
    EXPECT_EQ(s.l1_beyond_6pp, 0u);  // the 90 points of column:8 are no error
    EXPECT_DOUBLE_EQ(s.l2_mean_abs_pp, 5);
    EXPECT_EQ(s.l2_within_5pp, 1u);
    EXPECT_EQ(s.stencil_runs, 1u);
    // Counts: linear equal; column:8 100 sectors simulated against 0; the empty kernel 0 = 0.
    EXPECT_EQ(s.sector_count_exact, 2u);
    EXPECT_EQ(s.request_count_exact, 2u);
    // Three schedules, one with rates: no group to score.
    EXPECT_EQ(s.best_groups, 0u);
    EXPECT_EQ(s.ranked_groups, 0u);
}

TEST(CompareUnmeasuredRates, NoRowWithARateGivesNoMean) {
    const cli::CompareSummary s = cli::summarize({nothing_counted(counted_run("linear", 0, 90))});
    EXPECT_EQ(s.l1_rated_runs, 0u);
    EXPECT_TRUE(std::isnan(s.l1_mean_abs_pp));
    EXPECT_TRUE(std::isnan(s.l2_worst_abs_pp));
}

TEST(CompareUnmeasuredRates, AScheduleWithoutARateIsNotRanked) {
    // linear 50 measured / 55 simulated, column:8 70 / 65, column:16 nothing counted but 95
    // simulated. Counted as a 0% launch, column:16 would make a group of three whose simulated
    // best (column:16) loses 70 points; without its rate the group has two schedules: not scored.
    const std::vector<cli::ComparedRun> runs = {counted_run("linear", 50, 55), counted_run("column:8", 70, 65),
                                                nothing_counted(counted_run("column:16", 0, 95))};
    const cli::CompareSummary s = cli::summarize(runs);
    EXPECT_EQ(s.best_groups, 0u);
    EXPECT_DOUBLE_EQ(s.l1_best_worst_loss_pp, 0);
}

TEST(CompareUnmeasuredRates, OnlyTheL2RateLeftOutWhereTheL2CountedNone) {
    // L1 sectors counted, every one a hit: no L2 read from the L1s, so no L2 rate.
    cli::ComparedRun r = counted_run("linear", 100, 98);
    r.measured.metrics.l2_sectors = 0;
    r.measured.metrics.l2_sector_hits = 0;
    const cli::CompareSummary s = cli::summarize({r});
    EXPECT_EQ(s.l1_rated_runs, 1u);
    EXPECT_EQ(s.l2_rated_runs, 0u);
    EXPECT_DOUBLE_EQ(s.l1_mean_abs_pp, 2);
    EXPECT_EQ(s.l2_within_5pp, 0u);
    // A single-pass rate over all L2 reads that is not 0 counted lookups from other sources.
    r.measured.metrics.l2_read_hit_rate_pct = 40;
    EXPECT_TRUE(r.l2_rate_measured());
}

}  // namespace
}  // namespace cachesim
