// An Accel-Sim kernel trace saved by an editor that puts a UTF-8 byte order mark before its first
// header line reads as the same file without it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/cli_util.hpp"
#include "tests/traceg_one_load_kernel.hpp"

namespace cachesim::test {
namespace {

const std::string kKernel = kOneLoadKernel;

TEST(CliAccelsimByteOrderMark, TheMarkBeforeTheHeaderIsDropped) {
    const std::filesystem::path in = temp_dir() / "marked.traceg";
    std::ofstream(in, std::ios::binary) << "\xEF\xBB\xBF" << kKernel;
    const std::filesystem::path out = temp_dir() / "marked.cst";
    const CommandResult r = run_cachesim("trace --trace '" + in.string() + "' -o '" + out.string() + "'");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("32 threads, 32 accesses"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace cachesim::test
