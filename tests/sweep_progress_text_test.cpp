// The numbers a sweep's progress line and summary show (sweep_progress.hpp): durations as a reader
// wants them, and a percentage that reaches 100% only once every configuration has finished,
// however much of the work the running ones have done.
#include <gtest/gtest.h>

#include "apps/cachesim/sweep_progress.hpp"

namespace cachesim::cli {
namespace {

TEST(SweepProgressText, DurationsInUnitsAReaderWants) {
    EXPECT_EQ(format_duration(0.0290204), "0.03 s");  // hundredths below a second
    EXPECT_EQ(format_duration(0), "0.00 s");
    EXPECT_EQ(format_duration(-1), "0.00 s");        // a clock that went back
    EXPECT_EQ(format_duration(2.54), "2.5 s");        // tenths below ten seconds
    EXPECT_EQ(format_duration(12.4), "12 s");
    EXPECT_EQ(format_duration(59.4), "59 s");
    EXPECT_EQ(format_duration(59.6), "1 min 00 s");   // rounds to 60 s: a minute
    EXPECT_EQ(format_duration(125), "2 min 05 s");
    EXPECT_EQ(format_duration(3599.4), "59 min 59 s");
    EXPECT_EQ(format_duration(3720), "1 h 02 min");   // 62 minutes
}

TEST(SweepProgressText, OneHundredPercentOnlyOnceEveryConfigurationFinished) {
    // 0 of 1 configurations finished with 80% of its work done: 80%.
    EXPECT_EQ(shown_percent(0.8, 0, 1), 80);
    // All the work reported but the row not yet kept: 99%, not 100%.
    EXPECT_EQ(shown_percent(1.0, 0, 1), 99);
    EXPECT_EQ(shown_percent(0.996, 7, 8), 99);
    EXPECT_EQ(shown_percent(1.0, 1, 1), 100);
    // Rounded down: 29% of the work is 29% (0.29 x 100 is 28.999... in binary), 99.6% is 99%.
    EXPECT_EQ(shown_percent(0.29, 0, 2), 29);
    EXPECT_EQ(shown_percent(0.996, 2, 2), 99);
}

// A report that a configuration has done all its work comes before its result is kept: it is
// finished only once finish() says so.
TEST(SweepProgressText, AConfigurationIsFinishedWhenItsResultIsKept) {
    WorkProgress progress({1, 1});
    progress.report(0, 1.0);
    EXPECT_DOUBLE_EQ(progress.fraction(), 0.5);
    EXPECT_EQ(progress.finished(), 0u);
    progress.finish(0);
    progress.finish(0);  // once only
    EXPECT_EQ(progress.finished(), 1u);
    EXPECT_DOUBLE_EQ(progress.fraction(), 0.5);
}

}  // namespace
}  // namespace cachesim::cli
