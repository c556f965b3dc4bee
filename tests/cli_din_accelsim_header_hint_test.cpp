// An Accel-Sim kernel trace that auto reads as din (a name other than *.traceg, or gzip-compressed
// under another name) fails on its first header line with a hint naming --trace-format traceg.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "tests/cli_util.hpp"
#include "tests/traceg_one_load_kernel.hpp"

namespace cachesim::test {
namespace {

const std::string kKernel = kOneLoadKernel;
const std::string kHint = " (an Accel-Sim kernel trace's header line: name the format with --trace-format traceg)";

TEST(CliDinAccelsimHeaderHint, AKernelTraceUnderAnotherNameGetsTheHint) {
    const std::filesystem::path in = temp_dir() / "kernel.txt";
    std::ofstream(in) << kKernel;
    const CommandResult r = run_cachesim("simulate --trace '" + in.string() + "'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("kernel.txt:1: label must be 0-4: '-grid dim = (1,1,1)'" + kHint), std::string::npos) << r.err;
    // Named, it reads: 32 threads of one access.
    const CommandResult named = run_cachesim("trace --trace '" + in.string() + "' --trace-format traceg -o '" +
                                             (temp_dir() / "kernel.cst").string() + "'");
    EXPECT_EQ(named.exit_code, 0) << named.err;
    EXPECT_NE(named.out.find("32 threads, 32 accesses"), std::string::npos) << named.out;
}

TEST(CliDinAccelsimHeaderHint, AnOrdinaryBadDinLineGetsNoHint) {
    const std::filesystem::path in = temp_dir() / "bad.din";
    std::ofstream(in) << "-1 10\n";
    const CommandResult r = run_cachesim("simulate --trace '" + in.string() + "'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("bad.din:1: "), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("Accel-Sim"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace cachesim::test
