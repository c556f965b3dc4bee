// Progress of runs of different sizes (sweep_progress.hpp's WorkProgress): the fraction done
// weighs each configuration by its work, so the ETA at the rate so far is right on a schedule
// whose first finished configuration is the smallest; and how sweeps and compare split the cores
// between configurations at once and the GPU model's threads (sweep_run.hpp).
#include <gtest/gtest.h>

#include "apps/cachesim/sweep_progress.hpp"
#include "apps/cachesim/sweep_run.hpp"

namespace cachesim::cli {
namespace {

// A synthetic schedule on one worker that simulates 1 unit of work a second: configurations of
// 1, 3 and 6 units run one after the other (10 s in all). After the first (1 s elapsed) a tenth of
// the work is done and 9 s are left; counting configurations would say a third and 2 s.
TEST(WorkProgress, TheEtaFollowsTheWorkNotTheCount) {
    WorkProgress progress({1, 3, 6});
    EXPECT_DOUBLE_EQ(progress.fraction(), 0.0);
    EXPECT_LT(eta_seconds(0.5, progress.fraction()), 0) << "nothing done yet: no estimate";
    progress.finish(0);
    EXPECT_DOUBLE_EQ(progress.fraction(), 0.1);
    EXPECT_DOUBLE_EQ(eta_seconds(1.0, progress.fraction()), 9.0);
    // Halfway through the second (2.5 s elapsed): 2.5 of 10 units, 7.5 s left.
    progress.report(1, 0.5);
    EXPECT_DOUBLE_EQ(progress.fraction(), 0.25);
    EXPECT_DOUBLE_EQ(eta_seconds(2.5, progress.fraction()), 7.5);
    EXPECT_EQ(progress.finished(), 1u);
    progress.finish(1);
    progress.report(2, 0.5);  // 7 of 10 at 7 s
    EXPECT_DOUBLE_EQ(eta_seconds(7.0, progress.fraction()), 3.0);
    progress.finish(2);
    EXPECT_DOUBLE_EQ(progress.fraction(), 1.0);
    EXPECT_EQ(progress.finished(), 3u);
    EXPECT_DOUBLE_EQ(eta_seconds(10.0, progress.fraction()), 0.0);
}

// Two workers on configurations of 4, 4 and 8 units, 1 unit a second each: at 4 s the first two
// are done (8 of 16 units); at the rate so far, 2 units a second, 4 s are left. A report never goes
// back, and a configuration of unknown (0) work still counts for a little.
TEST(WorkProgress, ParallelRunsAndReportsThatGoBack) {
    WorkProgress progress({4, 4, 8});
    progress.report(0, 0.5);
    progress.report(1, 0.5);
    EXPECT_DOUBLE_EQ(progress.fraction(), 0.25);
    progress.report(0, 0.25);  // late report of an earlier point: ignored
    EXPECT_DOUBLE_EQ(progress.fraction(), 0.25);
    progress.finish(0);
    progress.finish(1);
    EXPECT_DOUBLE_EQ(eta_seconds(4.0, progress.fraction()), 4.0);
    WorkProgress unknown({0, 0});
    unknown.finish(0);
    EXPECT_DOUBLE_EQ(unknown.fraction(), 0.5);
}

// By default jobs x threads <= cores: jobs fill the cores up to one per configuration, and the GPU
// model's threads take what is left.
TEST(Parallelism, ByDefaultJobsTimesThreadsFitTheCores) {
    const Parallelism many = choose_parallelism("sweep", 0, 0, 16, 57, true);
    EXPECT_EQ(many.jobs, 16u);
    EXPECT_EQ(many.threads, 1u);
    EXPECT_TRUE(many.note.empty());
    const Parallelism few = choose_parallelism("sweep", 0, 0, 16, 3, true);
    EXPECT_EQ(few.jobs, 3u);
    EXPECT_EQ(few.threads, 5u);
    const Parallelism cpu = choose_parallelism("sweep", 0, 0, 16, 3, false);
    EXPECT_EQ(cpu.threads, 1u);
}

TEST(Parallelism, OneGivenTheOtherFitsAndTheChoiceIsSaid) {
    const Parallelism jobs = choose_parallelism("sweep", 4, 0, 16, 57, true);
    EXPECT_EQ(jobs.jobs, 4u);
    EXPECT_EQ(jobs.threads, 4u);
    EXPECT_NE(jobs.note.find("4 threads"), std::string::npos) << jobs.note;
    const Parallelism threads = choose_parallelism("compare", 0, 8, 16, 57, true);
    EXPECT_EQ(threads.jobs, 2u);
    EXPECT_EQ(threads.threads, 8u);
    EXPECT_NE(threads.note.find("2 configurations at once"), std::string::npos) << threads.note;
    EXPECT_EQ(threads.note.rfind("compare: ", 0), 0u) << threads.note;
    const Parallelism wide = choose_parallelism("sweep", 0, 32, 16, 57, true);
    EXPECT_EQ(wide.jobs, 1u);
}

TEST(Parallelism, BothGivenAreObeyedWithAWarningWhenOversubscribed) {
    const Parallelism fits = choose_parallelism("sweep", 2, 8, 16, 57, true);
    EXPECT_EQ(fits.jobs, 2u);
    EXPECT_EQ(fits.threads, 8u);
    EXPECT_TRUE(fits.note.empty()) << fits.note;
    EXPECT_FALSE(fits.warning);
    const Parallelism over = choose_parallelism("sweep", 4, 8, 16, 57, true);
    EXPECT_EQ(over.jobs, 4u);
    EXPECT_EQ(over.threads, 8u);
    EXPECT_TRUE(over.warning);
    EXPECT_NE(over.note.find("warning"), std::string::npos) << over.note;
    EXPECT_NE(over.note.find("32 threads on 16 cores"), std::string::npos) << over.note;
}

}  // namespace
}  // namespace cachesim::cli
