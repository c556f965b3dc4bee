// A choice-valued option given in the wrong case is refused (never taken silently) with the
// spelling that is one: "(did you mean column:4?)". The parser that rejects the value decides,
// so the hint is given once and only for a value its lower case makes valid.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

// Exit 2, and the hint exactly once.
void expect_hint(const std::string& args, const std::string& meant) {
    const auto r = test::run_cachesim(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
    const std::string hint = "(did you mean " + meant + "?)";
    const auto at = r.err.find(hint);
    EXPECT_NE(at, std::string::npos) << args << "\n" << r.err;
    EXPECT_EQ(r.err.find(hint, at + 1), std::string::npos) << "hinted twice: " << r.err;
}

void expect_no_hint(const std::string& args) {
    const auto r = test::run_cachesim(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
    EXPECT_EQ(r.err.find("did you mean"), std::string::npos) << args << "\n" << r.err;
}

TEST(CliChoiceCaseHint, ScheduleWithAnArgument) {
    expect_hint("simulate --size 64x64 --stencil 3x3 --schedule Column:4", "column:4");
    expect_hint("simulate --size 64x64 --stencil 3x3 --schedule TILED:8x8", "tiled:8x8");
    expect_hint("simulate --size 64x64 --stencil 3x3 --schedule Morton", "morton");
}

TEST(CliChoiceCaseHint, CacheLevelChoices) {
    expect_hint("simulate --l1-ways FULL", "full");
    expect_hint("simulate --l1-policy LRU", "lru");
    expect_hint("simulate --l1-write Back", "back");
}

TEST(CliChoiceCaseHint, RunChoices) {
    expect_hint("simulate --workload Matmul", "matmul");
    expect_hint("simulate --format CSV", "csv");
    expect_hint("simulate --model GPU", "gpu");
    expect_hint("simulate --preset Thesis-Stencil", "thesis-stencil");
    expect_hint("simulate --preset H100", "h100");
    expect_hint("simulate --model gpu --cta-order FILL", "fill");
    expect_hint("trace --out x.cst --backend HOST", "host");
}

TEST(CliChoiceCaseHint, TraceFormat) {
    const std::string path = (test::temp_dir() / "case_hint.din").string();
    std::ofstream(path) << "0 10\n";
    expect_hint("simulate --trace '" + path + "' --trace-format DIN", "din");
}

TEST(CliChoiceCaseHint, CompareChoices) {
    // Refused before any measured row is read, so the file need not exist.
    expect_hint("compare --preset H200 --measured none.csv", "h200");
    const std::string measured = std::string(CACHESIM_TEST_DATA_DIR) + "/h200/fidelity_stencil_spread.csv";
    expect_hint("compare --measured '" + measured + "' --where Schedule=linear", "schedule");
    const std::string config = (test::temp_dir() / "case_hint.cfg").string();
    std::ofstream(config) << "preset = H100\n";
    expect_hint("compare --config '" + config + "' --measured '" + measured + "'", "h100");
}

TEST(CliChoiceCaseHint, NoHintWhereTheLowerCaseIsWrongToo) {
    expect_no_hint("simulate --size 64x64 --stencil 3x3 --schedule Column:X");
    expect_no_hint("simulate --l1-policy LRV");
    expect_no_hint("simulate --l1-ways fulll");
    expect_no_hint("simulate --format xml");
}

}  // namespace
}  // namespace cachesim
