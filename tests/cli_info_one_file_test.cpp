// `cachesim info` describes one trace file: a second word (another file, a stray argument) is named
// in the message rather than refused as "too many positional options".
#include <gtest/gtest.h>

#include "tests/cli_util.hpp"

namespace cachesim::test {
namespace {

TEST(CliInfoOneFile, ASecondWordIsNamed) {
    const std::string cst = (temp_dir() / "one.cst").string();
    ASSERT_EQ(run_cachesim("trace -q --size 8x8 --stencil 1x1 -o '" + cst + "'").exit_code, 0);
    const CommandResult r = run_cachesim("info '" + cst + "' --verify extra");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_NE(r.err.find("one trace file at a time: 'extra' follows '" + cst + "'"), std::string::npos) << r.err;
    // One file reads as before: 8x8 work items of a 1x1 stencil, one load and one store each.
    const CommandResult one = run_cachesim("info '" + cst + "'");
    EXPECT_EQ(one.exit_code, 0) << one.err;
    EXPECT_NE(one.out.find("accesses:          128\n"), std::string::npos) << one.out;
}

}  // namespace
}  // namespace cachesim::test
