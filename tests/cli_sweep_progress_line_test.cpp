// A sweep's progress in a log (stderr not a terminal: a line every tenth): each line's percentage
// stays below 100% until its count of finished configurations is complete, the count says it
// counts finished ones, and the summary gives the time once, in seconds.
#include <gtest/gtest.h>

#include <regex>
#include <sstream>

#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

TEST(CliSweepProgressLine, NoLineShowsAllDoneBeforeTheLastConfigurationFinishes) {
    // One configuration of 800 x 800 work items (16.6 million accesses on a 5x5 stencil): its
    // own progress reports fill the bar while 0 of 1 is finished.
    const auto r = test::run_cachesim("sweep -j 1 --size 800x800 --stencil 5x5");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::regex bar_line(R"(^sweep \[[#.]+\] +(\d+)%, (\d+)/(\d+) finished(, ETA .+ s)?$)");
    std::istringstream lines(r.err);
    std::size_t bars = 0;
    std::string summary;
    for (std::string line; std::getline(lines, line);) {
        std::smatch m;
        if (!std::regex_match(line, m, bar_line)) {
            summary += line + "\n";
            continue;
        }
        ++bars;
        const int percent = std::stoi(m[1]);
        const bool all_finished = m[2] == m[3];
        EXPECT_EQ(percent == 100, all_finished) << line;
    }
    EXPECT_GE(bars, 2u) << r.err;  // the first line and the last at least
    EXPECT_NE(r.err.find("100%, 1/1 finished\n"), std::string::npos) << r.err;
    // The summary: "sweep: 1 configuration (0 already done) in 0.14 s on 1 thread", one time.
    EXPECT_TRUE(std::regex_search(summary, std::regex(R"(^sweep: 1 configuration \(0 already done\) in \d+\.\d+ s on 1 thread\n$)")))
        << summary;
}

}  // namespace
}  // namespace cachesim
