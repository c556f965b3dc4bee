// How a progress bar shows (sweep_progress.hpp's ProgressStyle): a single run's bar draws only on
// a terminal, only once the run has taken its delay, and without counts; a sweep's bar also logs
// every 10% where stderr is a pipe. stderr is pointed at a pseudo-terminal or a pipe and what the
// bar wrote is read back.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <pty.h>
#include <unistd.h>

#include <string>

#include "apps/cachesim/sweep_progress.hpp"

namespace cachesim::cli {
namespace {

// Runs `draw` with stderr on a fresh pseudo-terminal (terminal) or pipe, and returns what it wrote.
template <class Draw>
std::string stderr_of(bool terminal, Draw draw) {
    int reader = -1, writer = -1;
    if (terminal) {
        if (::openpty(&reader, &writer, nullptr, nullptr, nullptr) != 0) return "openpty failed";
    } else {
        int fds[2];
        if (::pipe(fds) != 0) return "pipe failed";
        reader = fds[0];
        writer = fds[1];
    }
    std::fflush(stderr);
    const int saved = ::dup(STDERR_FILENO);
    ::dup2(writer, STDERR_FILENO);
    draw();
    std::fflush(stderr);
    ::dup2(saved, STDERR_FILENO);
    ::close(saved);
    ::close(writer);
    ::fcntl(reader, F_SETFL, O_NONBLOCK);  // a terminal's reader does not see the end of its writer
    std::string text;
    char buffer[4096];
    for (ssize_t n; (n = ::read(reader, buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<std::size_t>(n));
    ::close(reader);
    return text;
}

void run_to_the_end(ProgressBar& bar) {
    for (int i = 1; i < 10; ++i) bar.update(static_cast<std::uint64_t>(100 * i), i / 10.0);
    bar.finish();
}

constexpr ProgressStyle kSingleRun{false, true, 0.0};

TEST(ProgressBarStyle, ASingleRunShowsItsShareOnATerminalWithoutCounts) {
    const std::string text = stderr_of(true, [] {
        ProgressBar bar("simulating", 1000, true, kSingleRun);
        run_to_the_end(bar);
    });
    EXPECT_NE(text.find("simulating ["), std::string::npos) << text;
    EXPECT_NE(text.find("100%, elapsed"), std::string::npos) << text;
    EXPECT_EQ(text.find("/1000"), std::string::npos) << "no counts in a single run's bar: " << text;
}

TEST(ProgressBarStyle, ASingleRunWritesNothingToAPipe) {
    const std::string text = stderr_of(false, [] {
        ProgressBar bar("simulating", 1000, true, kSingleRun);
        run_to_the_end(bar);
    });
    EXPECT_EQ(text, "");
}

TEST(ProgressBarStyle, ARunShorterThanTheDelayWritesNothingNotEvenItsEnd) {
    const std::string text = stderr_of(true, [] {
        ProgressBar bar("simulating", 1000, true, {false, true, 3600.0});
        run_to_the_end(bar);
    });
    EXPECT_EQ(text, "");
}

TEST(ProgressBarStyle, QuietWritesNothing) {
    const std::string text = stderr_of(true, [] {
        ProgressBar bar("simulating", 1000, false, kSingleRun);
        run_to_the_end(bar);
    });
    EXPECT_EQ(text, "");
}

// A sweep's bar in a log: one line at each tenth (the first update at 10%, up to 90%), then the
// final line, each with its counts: 10 lines.
TEST(ProgressBarStyle, ASweepLogsEveryTenthWithItsCounts) {
    const std::string text = stderr_of(false, [] {
        ProgressBar bar("sweep", 1000, true);
        run_to_the_end(bar);
    });
    std::size_t lines = 0;
    for (char c : text) lines += c == '\n';
    EXPECT_EQ(lines, 10u) << text;
    EXPECT_NE(text.find("sweep [##..."), std::string::npos) << text;
    EXPECT_NE(text.find("  10%, 100/1000, ETA"), std::string::npos) << text;
    EXPECT_NE(text.find("100%, 1000/1000, elapsed"), std::string::npos) << text;
    EXPECT_EQ(text.find('\r'), std::string::npos) << "no carriage returns in a log";
}

}  // namespace
}  // namespace cachesim::cli
