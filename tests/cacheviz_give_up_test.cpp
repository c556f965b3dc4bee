// cacheviz --screenshot --max-seconds gives up on simulations promptly: with a 256 MiB L1 of
// 16 B lines (16 million lines, which the simulator sets up in one go, with no cancel check, in
// a second or more) the run is still going after 1 s, and the process ends soon after saying so,
// with exit 1 and no picture, rather than waiting for the given-up run to wind down.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

#include "tests/viz_gui_util.hpp"

namespace vt = cachesim::viz::testing;
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

struct TimedRun {
    int code = -1;
    std::string output;
    double seconds_to_message = -1;  // from the start until `message` appeared (-1: it did not)
    double seconds = 0;              // from the start until the process ended
};

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Runs cacheviz under xvfb-run, noting when a line holding `message` comes out and when it ends.
TimedRun run_timed(const std::string& args, const std::string& message) {
    TimedRun run;
    const std::string cmd = "xvfb-run -a -s '-screen 0 1920x1080x24' '" + vt::cacheviz_bin() + "' " + args + " 2>&1";
    const auto t0 = Clock::now();
    FILE* pipe = popen(cmd.c_str(), "r");
    if (!pipe) return run;
    char line[4096];
    while (std::fgets(line, sizeof line, pipe)) {
        run.output += line;
        if (run.seconds_to_message < 0 && std::string(line).find(message) != std::string::npos)
            run.seconds_to_message = seconds_since(t0);
    }
    const int status = pclose(pipe);
    run.seconds = seconds_since(t0);
    run.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return run;
}

}  // namespace

TEST(VizGuiGiveUp, MaxSecondsEndsSoonAfterSayingSo) {
    REQUIRE_GUI();
    const fs::path shot = vt::test_dir("giveup") / "never.png";
    const std::string message = "simulations still running after 1 s (--max-seconds); no screenshot";
    TimedRun run;
    for (int attempt = 0; attempt < 3; ++attempt) {  // xvfb-run's display-number race (viz_gui_util.hpp)
        run = run_timed("--l1-size 256M --l1-line 16 --window 1280x800 --max-seconds 1 --frames 3 --screenshot '" +
                            shot.string() + "'",
                        message);
        if (run.output.find("Xvfb failed to start") == std::string::npos) break;
    }
    EXPECT_EQ(run.code, 1) << run.output;
    ASSERT_GE(run.seconds_to_message, 0) << run.output;
    EXPECT_FALSE(fs::exists(shot));
    // Ending takes xvfb-run's own cleanup, a fraction of a second; the given-up run would take
    // seconds more.
    EXPECT_LT(run.seconds - run.seconds_to_message, 3.0) << run.output;
    EXPECT_LT(run.seconds, 8.0) << run.output;
}
