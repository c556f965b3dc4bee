// gpubench's choices written in the wrong case are refused with the choice meant, as cachesim's
// are (traces/choice_hint.hpp): the lower-case spelling, which the option takes. A value that is
// no choice in any case gets no hint.
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

// Whether `message` ends with the hint naming `meant`.
bool ends_with_hint(const std::string& message, const std::string& meant) {
    return message.ends_with(" (did you mean " + meant + "?)");
}

TEST(GpubenchCaseHint, EachChoiceNamesItsLowerCaseSpelling) {
    EXPECT_PRED2(ends_with_hint, refusal({"--variants", "INDEX32"}), "index32");
    EXPECT_PRED2(ends_with_hint, refusal({"--variants", "index64,Unroll1"}), "unroll1");
    EXPECT_PRED2(ends_with_hint, refusal({"--kernel", "Matmul"}), "matmul");
    EXPECT_PRED2(ends_with_hint, refusal({"--schedules", "Column:4"}), "column:4");
    EXPECT_PRED2(ends_with_hint, refusal({"--counters", "CUPTI"}), "cupti");
    EXPECT_PRED2(ends_with_hint, refusal({"--stencil", "9X9"}), "9x9");
    EXPECT_PRED2(ends_with_hint, refusal({"--examples", "Transpose:64x64"}), "transpose:64x64");
    EXPECT_PRED2(ends_with_hint, refusal({"--metrics", "Fidelity,LOOP"}), "fidelity");
    EXPECT_PRED2(ends_with_hint, refusal({"--metrics", "fidelity,LOOP"}), "loop");
}

TEST(GpubenchCaseHint, TheRefusalStillNamesTheOptionAndTheValue) {
    const std::string message = refusal({"--variants", "INDEX32"});
    EXPECT_TRUE(message.starts_with("--variants: unknown variant 'INDEX32'")) << message;
}

// Nsight Compute's metric names are case-sensitive: only the names of gpubench's own sets get the
// hint, and any other name is passed on as written (for the profiler to judge).
TEST(GpubenchCaseHint, OtherMetricNamesAreTakenAsWritten) {
    EXPECT_EQ(refusal({"--metrics", "sm__cycles_active.avg,Loops"}), "(accepted)");
}

TEST(GpubenchCaseHint, NoHintForWhatNoCaseMakesAChoice) {
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             {"--variants", "INDEX16"}, {"--variants", "index16"}, {"--kernel", "Gemm"}, {"--counters", "Nsight"},
             {"--examples", "Transpose:64x65x3"}}) {
        const std::string message = refusal(args);
        EXPECT_NE(message, "(accepted)");
        EXPECT_EQ(message.find("did you mean"), std::string::npos) << message;
    }
}

}  // namespace
}  // namespace gpubench
