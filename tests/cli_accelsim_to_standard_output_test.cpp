// `cachesim trace --trace kernel.traceg -o -` writes the converted trace alone on standard output:
// the conversion summary goes to standard error, so the saved output is a whole cst file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/cli_util.hpp"
#include "tests/traceg_one_load_kernel.hpp"

namespace cachesim::test {
namespace {

const std::string kKernel = kOneLoadKernel;

TEST(CliAccelsimToStandardOutput, TheSavedOutputIsAWholeTrace) {
    const std::filesystem::path in = temp_dir() / "kernel.traceg";
    std::ofstream(in) << kKernel;
    const std::filesystem::path saved = temp_dir() / "saved.cst";
    for (const std::string out : {"-", "/dev/stdout"}) {
        const CommandResult r =
            run_shell("CACHESIM trace --trace '" + in.string() + "' -o " + out + " > '" + saved.string() + "'");
        EXPECT_EQ(r.exit_code, 0) << r.err;
        EXPECT_NE(r.err.find("32 threads, 32 accesses"), std::string::npos) << r.err;  // the summary
        const CommandResult info = run_cachesim("info --verify '" + saved.string() + "'");
        EXPECT_EQ(info.exit_code, 0) << out << ": " << info.err;
        EXPECT_NE(info.out.find("32 reads, 0 writes, 32 steps"), std::string::npos) << info.out;
    }
}

}  // namespace
}  // namespace cachesim::test
