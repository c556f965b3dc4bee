// `cachesim info` counts a launch's blocks and threads in words that agree with the numbers: a block
// of one thread is "1 thread", not "1 threads".
#include <gtest/gtest.h>

#include "tests/cli_util.hpp"

namespace cachesim::test {
namespace {

std::string launch_line(const std::string& size, int block) {
    const std::string cst = (temp_dir() / ("launch" + std::to_string(block) + ".cst")).string();
    const CommandResult t = run_cachesim("trace -q --size " + size + " --stencil 1x1 --block " + std::to_string(block) +
                                         " -o '" + cst + "'");
    EXPECT_EQ(t.exit_code, 0) << t.err;
    const CommandResult r = run_cachesim("info '" + cst + "'");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const std::size_t at = r.out.find("launch:");
    return at == std::string::npos ? r.out : r.out.substr(at, r.out.find('\n', at) - at);
}

TEST(CliInfoLaunchCounts, OneThreadABlockIsSingular) {
    // A 1x1 stencil over 1x1 elements: one work item, a block of 1: one block of one thread.
    EXPECT_EQ(launch_line("1x1", 1), "launch:            grid 1x1x1, block 1x1x1 (1 block of 1 thread)");
}

TEST(CliInfoLaunchCounts, ManyAreCountedInThePlural) {
    // 8x8 = 64 work items in blocks of 32: 2 blocks of 32 threads.
    EXPECT_EQ(launch_line("8x8", 32), "launch:            grid 2x1x1, block 32x1x1 (2 blocks of 32 threads)");
}

}  // namespace
}  // namespace cachesim::test
