// A recorded kernel replays with its own loop: `cachesim trace` prints the loop it read from a
// traceg's instructions, `cachesim info` shows it in the cst, and `simulate --model gpu` takes the loop's burst, limit and cost where
// the options leave them to auto, exactly as if they were given (the handwritten loop kernel of
// tests/traceg_loop_kernel.hpp: 2 loads an iteration, the fma pipe's heavy half 60 / 9 cycles a
// request). Options given win.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/cli_util.hpp"
#include "tests/traceg_loop_kernel.hpp"

namespace cachesim::test {
namespace {

nlohmann::json parameters(const std::string& args) {
    const CommandResult r = run_cachesim("simulate --model gpu " + args + " --format json");
    EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.err;
    return r.exit_code == 0 ? nlohmann::json::parse(r.out)["parameters"] : nlohmann::json{};
}

TEST(CliTraceLoop, TheTracesLoopIsAppliedAsIfGiven) {
    const std::string traceg = (temp_dir() / "kernel-loop.traceg").string();
    std::ofstream(traceg) << traceg_loop_kernel();
    const std::string cst = (temp_dir() / "loop.cst").string();
    const CommandResult t = run_cachesim("trace --trace '" + traceg + "' -o '" + cst + "'");
    ASSERT_EQ(t.exit_code, 0) << t.err;
    EXPECT_NE(t.out.find("loop: 2 loads an iteration, 6.67 cycles per load request (fmaheavy pipe)"), std::string::npos)
        << t.out;
    const CommandResult info = run_cachesim("info '" + cst + "'");
    ASSERT_EQ(info.exit_code, 0) << info.err;
    EXPECT_NE(info.out.find("cst version 3"), std::string::npos) << info.out;
    EXPECT_NE(info.out.find("loop:              2 loads an iteration, 6.67 cycles per load request (fmaheavy pipe)"),
              std::string::npos) << info.out;

    for (const std::string& trace : {traceg, cst}) {
        const nlohmann::json automatic = parameters("--trace '" + trace + "'");
        EXPECT_EQ(automatic.value("issue_burst", ""), "2") << trace;
        EXPECT_EQ(automatic.value("loop_limit", ""), "pipe") << trace;
        EXPECT_EQ(automatic.value("loop_issue_cost", ""), "6.66667") << trace;
        EXPECT_EQ(automatic.value("trace_loop", ""), "2 loads an iteration, 6.67 cycles per load request (fmaheavy pipe)");
        // 60 / 9 to 17 digits is the same double
        EXPECT_EQ(parameters("--trace '" + trace + "' --issue-burst 2 --loop-limit pipe --loop-issue-cost 6.6666666666666670"),
                  automatic) << trace;
    }
    const nlohmann::json given = parameters("--trace '" + cst + "' --issue-burst 1 --loop-limit issue --loop-issue-cost 3");
    EXPECT_EQ(given.value("issue_burst", ""), "1");
    EXPECT_EQ(given.value("loop_limit", ""), "issue");
    EXPECT_EQ(given.value("loop_issue_cost", ""), "3");
}

}  // namespace
}  // namespace cachesim::test
