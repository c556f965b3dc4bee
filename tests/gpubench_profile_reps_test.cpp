// gpubench's profiled launches per configuration (apps/gpubench/profile_reps.hpp): a fixed number,
// or a least and a most, the most only where a hit rate moves by more than the spread allowed.
// The expected answers are worked out by hand from the values given.
#include <gtest/gtest.h>

#include "apps/gpubench/profile_reps.hpp"
#include "traces/input_error.hpp"

namespace gpubench {
namespace {

TEST(GpubenchProfileReps, ANumberOrARangeOfThem) {
    const ProfileReps fixed = parse_profile_reps("3");
    EXPECT_EQ(fixed.least, 3);
    EXPECT_EQ(fixed.most, 3);
    EXPECT_FALSE(fixed.adaptive());
    const ProfileReps range = parse_profile_reps("3..21");
    EXPECT_EQ(range.least, 3);
    EXPECT_EQ(range.most, 21);
    EXPECT_TRUE(range.adaptive());
    EXPECT_FALSE(parse_profile_reps("5..5").adaptive());
    EXPECT_EQ(parse_profile_reps("1..1000").most, 1000);
}

TEST(GpubenchProfileReps, AnythingElseIsRefusedByName) {
    for (const char* text : {"", "0", "1001", "21..3", "3..", "..21", "a", "3...21", "3..21..40", "-1", "3..0", " 3"}) {
        try {
            parse_profile_reps(text);
            ADD_FAILURE() << "'" << text << "' was accepted";
        } catch (const cachesim::InputError& e) {
            EXPECT_NE(std::string(e.what()).find("--profile-reps: '" + std::string(text) + "'"), std::string::npos)
                << e.what();
        }
    }
}

TEST(GpubenchProfileReps, TheMostOnlyWhereAHitRateMoves) {
    ProfileReps reps = parse_profile_reps("3..21");  // spread 2 points by default
    const std::vector<std::string> metrics{"lts__t_sectors_srcunit_tex_op_read.sum", "lts__t_sector_op_read_hit_rate.pct"};
    const std::vector<double> steady{95, 96, 96.5}, moving{90, 96, 97};
    // The least, whatever the values so far.
    for (int done = 0; done < 3; ++done) EXPECT_TRUE(needs_another_launch(reps, metrics, {{}, {}}, done)) << done;
    // After the least: a rate within 2 points stops (1.5); one past them goes on (7).
    EXPECT_FALSE(needs_another_launch(reps, metrics, {{1, 2, 3}, steady}, 3));
    EXPECT_TRUE(needs_another_launch(reps, metrics, {{1, 2, 3}, moving}, 3));
    // Exactly the spread is within it.
    EXPECT_FALSE(needs_another_launch(reps, metrics, {{1, 2, 3}, {95, 96, 97}}, 3));
    // A count that moves is no hit rate: only ".pct" metrics decide.
    EXPECT_FALSE(needs_another_launch(reps, metrics, {{1, 100, 1000}, steady}, 3));
    // Up to the most and no further.
    EXPECT_TRUE(needs_another_launch(reps, metrics, {{1}, moving}, 20));
    EXPECT_FALSE(needs_another_launch(reps, metrics, {{1}, moving}, 21));
    // A wider spread allowed keeps the moving rate at the least.
    reps.spread_points = 10;
    EXPECT_FALSE(needs_another_launch(reps, metrics, {{1, 2, 3}, moving}, 3));
    // A fixed number is that number, however the rates move.
    const ProfileReps fixed = parse_profile_reps("3");
    EXPECT_TRUE(needs_another_launch(fixed, metrics, {{1, 2}, {90, 97}}, 2));
    EXPECT_FALSE(needs_another_launch(fixed, metrics, {{1, 2, 3}, moving}, 3));
}

TEST(GpubenchProfileReps, DescribedInGpubenchsMessages) {
    EXPECT_EQ(describe(parse_profile_reps("3")), "3");
    EXPECT_EQ(describe(parse_profile_reps("3..21")), "3 (21 where a hit rate moves by more than 2 points)");
}

}  // namespace
}  // namespace gpubench
