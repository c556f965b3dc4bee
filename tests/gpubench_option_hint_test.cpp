// gpubench's refusal of an option it does not know names the option meant when one is a slip
// away (a letter missing, extra, replaced, or in the other case), as cachesim's commands do, and
// says how values are given when a word stands where an option should.
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

TEST(GpubenchOptionHint, ASlipNamesTheOptionMeant) {
    // one letter missing, one extra, one replaced, two in the other case
    EXPECT_EQ(refusal({"--schedule", "linear"}), "unknown option '--schedule' (did you mean --schedules?) (see --help)");
    EXPECT_EQ(refusal({"--kernels", "matmul"}), "unknown option '--kernels' (did you mean --kernel?) (see --help)");
    EXPECT_EQ(refusal({"--dry-rum"}), "unknown option '--dry-rum' (did you mean --dry-run?) (see --help)");
    EXPECT_EQ(refusal({"--Warm-L2"}), "unknown option '--Warm-L2' (did you mean --warm-l2?) (see --help)");
    EXPECT_EQ(refusal({"--profile-rep=3"}), "unknown option '--profile-rep=3' (did you mean --profile-reps?) (see --help)");
}

TEST(GpubenchOptionHint, NothingIsNamedForAnOptionUnlikeAny) {
    // "--ot" is two edits from --out: too many for a name of two letters
    EXPECT_EQ(refusal({"--ot"}), "unknown option '--ot' (see --help)");
    EXPECT_EQ(refusal({"--frobnicate"}), "unknown option '--frobnicate' (see --help)");
    EXPECT_EQ(refusal({"-x"}), "unknown option '-x' (see --help)");
}

TEST(GpubenchOptionHint, AWordWhereAnOptionShouldBeIsAValueWithoutItsOption) {
    const std::string message = refusal({"--kernel", "stencil", "matmul"});
    EXPECT_TRUE(message.starts_with("unexpected argument 'matmul' (every value follows its option")) << message;
}

}  // namespace
}  // namespace gpubench
