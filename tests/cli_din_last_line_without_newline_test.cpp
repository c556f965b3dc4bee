// A din whose last line has no newline is legal text but also what a cut file looks like: it is
// read, with one warning naming the file and the line.
#include <gtest/gtest.h>

#include <fstream>

#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

TEST(CliDinLastLineWithoutNewline, WarnsOnceAndReads) {
    const std::string path = (test::temp_dir() / "cut.din").string();
    std::ofstream(path) << "0 10\n1 20\n0 3";  // three records, the third unterminated
    const auto r = test::run_cachesim("simulate --trace '" + path + "'");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    // By hand: the third record is on line 3.
    const std::string warning = path + ": the last line has no newline: the file may be cut short (line 3)";
    const auto at = r.err.find(warning);
    EXPECT_NE(at, std::string::npos) << r.err;
    EXPECT_EQ(r.err.find(warning, at + 1), std::string::npos) << "warned more than once: " << r.err;
}

TEST(CliDinLastLineWithoutNewline, TerminatedFileGetsNoWarning) {
    const std::string path = (test::temp_dir() / "whole.din").string();
    std::ofstream(path) << "0 10\n1 20\n0 3\n";
    const auto r = test::run_cachesim("simulate --trace '" + path + "'");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err.find("no newline"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace cachesim
