// The fidelity targets `cachesim compare` counts per set, on hand-made runs: L1 errors beyond 6
// points, L2 within 5 on stencil launches only, the best schedule within 1 point, exact request
// counts, the L1 target split by the points of the simulated rate from other blocks, and a
// compilation variant keeping its own schedule group.
#include <gtest/gtest.h>

#include "apps/cachesim/compare_stats.hpp"

namespace cachesim {
namespace {

// A run whose measured L1 rate is `measured` and simulated `simulated` (of 100 sectors), with L2
// rates `l2_measured` / `l2_simulated` and 40 requests measured, `requests` simulated.
cli::ComparedRun run(WorkloadKind kind, const char* schedule, double measured, double simulated, double l2_measured,
                     double l2_simulated, std::uint64_t requests = 40) {
    cli::ComparedRun r;
    r.measured.workload.kind = kind;
    r.measured.workload.schedule = parse_schedule(schedule);
    r.measured.block = 128;
    r.measured.metrics.l1_requests = 40;
    r.measured.metrics.l1_sectors = 100;
    r.measured.metrics.l1_hit_rate_pct = measured;
    r.measured.metrics.l2_read_hit_rate_pct = l2_measured;
    r.simulated.l1_requests_ld = requests;
    r.simulated.l1_sectors_ld = 100;
    r.simulated.l1_sectors_ld_hit = static_cast<std::uint64_t>(simulated);
    r.simulated.l2_sectors_tex_read = 100;
    r.simulated.l2_sectors_tex_read_hit = static_cast<std::uint64_t>(l2_simulated);
    return r;
}

TEST(CompareTargets, CountsEachTarget) {
    using K = WorkloadKind;
    // Matmul group: the simulation picks column:16 (sim 80), which the chip measures 0.5 below its
    // best (column:8, 75.5 vs 75): within 1 point but not the best. L2: the pick (column:8, sim 90)
    // is the chip's 97 vs its best 99: 2 points lost.
    // Stencil group: errors 0, 7 (beyond 6) and -4; L2 errors 0, 6 and 1 (two within 5).
    const std::vector<cli::ComparedRun> runs = {
        run(K::matmul, "linear", 50, 50, 99, 80),         run(K::matmul, "column:8", 75.5, 70, 97, 90),
        run(K::matmul, "column:16", 75, 80, 98, 85, 41),  run(K::stencil, "linear", 90, 90, 80, 80),
        run(K::stencil, "column:8", 80, 87, 70, 76),      run(K::stencil, "column:16", 85, 81, 60, 61),
    };
    const cli::CompareSummary s = cli::summarize(runs);
    EXPECT_EQ(s.runs, 6u);
    EXPECT_EQ(s.l1_beyond_6pp, 1u);                 // the stencil's +7
    EXPECT_EQ(s.l1_within_3pp, 2u);                 // the two linear runs (errors -5.5, 5, 7, -4 are not)
    EXPECT_EQ(s.stencil_runs, 3u);
    EXPECT_EQ(s.stencil_l2_within_5pp, 2u);         // 0 and 1; the matmul's -19 does not count
    EXPECT_EQ(s.request_count_exact, 5u);           // one run simulated 41 requests of 40
    EXPECT_EQ(s.sector_count_exact, 6u);
    EXPECT_EQ(s.best_groups, 2u);
    EXPECT_EQ(s.l1_best_same, 1u);                  // stencil: linear in both
    EXPECT_EQ(s.l1_best_within_1pp, 2u);            // matmul: 0.5 lost
    EXPECT_EQ(s.l2_best_within_1pp, 1u);            // matmul: 2 lost; stencil: linear in both
}

TEST(CompareTargets, SplitsTheL1TargetByThePointsFromOtherBlocks) {
    using K = WorkloadKind;
    // Of 100 sectors, 9 / 10 / 40 hits from other blocks: 9, 10 and 40 points of the simulated rate.
    std::vector<cli::ComparedRun> runs = {run(K::matmul, "linear", 50, 58, 99, 99),
                                          run(K::matmul, "column:8", 80, 81, 99, 99),
                                          run(K::matmul, "column:16", 80, 85, 99, 99)};
    runs[0].simulated_hit_sources.other_block = 9;
    runs[1].simulated_hit_sources.other_block = 10;
    runs[2].simulated_hit_sources.other_block = 40;
    const cli::CompareSummary s = cli::summarize(runs);
    EXPECT_EQ(s.timing_dependent_runs, 2u);            // 10 and 40 points
    EXPECT_EQ(s.timing_dependent_l1_within_3pp, 1u);   // +1; not +5
    EXPECT_EQ(s.other_runs_l1_within_3pp, 0u);         // the 9-point run is 8 points off
}

TEST(CompareTargets, AVariantIsItsOwnScheduleGroup) {
    using K = WorkloadKind;
    std::vector<cli::ComparedRun> runs = {run(K::stencil, "linear", 90, 90, 80, 80),
                                          run(K::stencil, "column:8", 80, 80, 70, 70),
                                          run(K::stencil, "column:16", 85, 85, 60, 60)};
    for (const char* variant : {"index32", "unroll1"})
        for (int i = 0; i < 3; ++i) {
            runs.push_back(runs[static_cast<std::size_t>(i)]);
            runs.back().measured.variant = variant;
        }
    // index64 (no variant), index32 and unroll1: three groups of three schedules, not one of nine.
    EXPECT_EQ(cli::summarize(runs).best_groups, 3u);
    EXPECT_NE(runs[0].group_key(), runs[3].group_key());
    EXPECT_NE(runs[3].group_key(), runs[6].group_key());
}

}  // namespace
}  // namespace cachesim
