// A file named .traceg that is no Accel-Sim kernel trace says what it is: an empty file is called
// empty (not "line 0 has no header"), and binary data (zeros, random bytes) is called binary rather
// than a text file missing its '-grid dim' line.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/cli_util.hpp"

namespace cachesim::test {
namespace {

CommandResult convert(const std::string& name, const std::string& bytes) {
    const std::filesystem::path in = temp_dir() / name;
    std::ofstream(in, std::ios::binary) << bytes;
    const std::filesystem::path out = temp_dir() / (name + ".cst");
    CommandResult r = run_cachesim("trace --trace '" + in.string() + "' -o '" + out.string() + "'");
    EXPECT_FALSE(std::filesystem::exists(out)) << name;
    return r;
}

TEST(CliAccelsimNotAKernelTrace, AnEmptyFileIsCalledEmpty) {
    const CommandResult r = convert("empty.traceg", "");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("empty.traceg: the file is empty"), std::string::npos) << r.err;
}

TEST(CliAccelsimNotAKernelTrace, ZerosAreCalledBinaryData) {
    const CommandResult r = convert("zeros.traceg", std::string(4096, '\0'));
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("zeros.traceg:1: binary data, not an Accel-Sim kernel trace"), std::string::npos) << r.err;
}

TEST(CliAccelsimNotAKernelTrace, ATextFileWithoutItsHeaderIsStillNamedByTheMissingLine) {
    const CommandResult r = convert("headless.traceg", "#BEGIN_TB\nthread block = 0,0,0\n");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("headless.traceg:1: the header has no '-grid dim = (x,y,z)' line"), std::string::npos)
        << r.err;
}

}  // namespace
}  // namespace cachesim::test
