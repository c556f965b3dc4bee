// gpubench's file options (--out, --placement, --warp-times, --warp-ends, --describe, --trace-dir,
// --merge-ncu, --rows) need a name: none at the end of the line, an empty one, or another of
// gpubench's options where the name should be ("--describe --device 1": the name was left out) is
// refused naming the option; a name that only looks like an option is a name.
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

TEST(GpubenchFileName, AMissingNameIsRefusedForEveryFileOption) {
    for (const char* option :
         {"--out", "--placement", "--warp-times", "--warp-ends", "--describe", "--trace-dir", "--merge-ncu", "--rows"}) {
        EXPECT_EQ(refusal({option}), std::string(option) + " needs a file name");
        EXPECT_EQ(refusal({option, ""}), std::string(option) + " needs a file name");
    }
}

TEST(GpubenchFileName, AnOptionWhereTheNameShouldBeIsNotTakenForIt) {
    EXPECT_EQ(refusal({"--describe", "--device", "1"}), "--describe needs a file name before --device");
    EXPECT_EQ(refusal({"--out", "--dry-run"}), "--out needs a file name before --dry-run");
}

TEST(GpubenchFileName, ANameThatOnlyLooksLikeAnOptionIsAName) {
    // "--rows.csv" and "-" (standard output) are no options of gpubench's
    EXPECT_EQ(refusal({"--out", "--rows.csv", "--dry-run"}), "(accepted)");
    EXPECT_EQ(refusal({"--out", "-", "--dry-run"}), "(accepted)");
}

}  // namespace
}  // namespace gpubench
