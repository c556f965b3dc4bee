// gpubench --profile-spread P: the points a hit rate may move before --profile-reps N..M takes M,
// a plain decimal number above 0 and at most 100. What strtod would also read (blanks, a sign,
// hexadecimal, an exponent, inf) is refused, so that "0x2" is not quietly taken as 2 points.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "apps/gpubench/options.hpp"
#include "tests/gpubench_parse.hpp"
#include "traces/input_error.hpp"

namespace gpubench {
namespace {

using test::parse;
using test::refusal;

TEST(GpubenchProfileSpread, PlainNumbersAreTaken) {
    EXPECT_EQ(parse({"--profile-reps", "3..21", "--profile-spread", "2"}).profile_reps.spread_points, 2.0);
    EXPECT_EQ(parse({"--profile-reps", "3..21", "--profile-spread", "0.5"}).profile_reps.spread_points, 0.5);
    EXPECT_EQ(parse({"--profile-reps", "3..21", "--profile-spread", "100"}).profile_reps.spread_points, 100.0);
}

TEST(GpubenchProfileSpread, AnythingElseIsRefusedByName) {
    for (const char* text : {"", "0", "0.0", "100.5", " 2", "2 ", "+2", "-2", "0x2", "2e1", "inf", "nan", "2..3", "two"}) {
        try {
            parse({"--profile-reps", "3..21", "--profile-spread", text});
            ADD_FAILURE() << "'" << text << "' was accepted";
        } catch (const cachesim::InputError& e) {
            EXPECT_EQ(std::string(e.what()),
                      "--profile-spread: '" + std::string(text) + "' is not a number of points above 0 and at most 100");
        }
    }
}

}  // namespace
}  // namespace gpubench
