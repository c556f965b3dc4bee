// An interrupted `cachesim trace` never leaves a half-written trace: SIGINT and SIGTERM remove the
// temporary file and end the process by that signal; after kill -9 the target keeps its old
// content and the next write to it removes the dead process's temporary (not a live one's).
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "tests/cli_process.hpp"
#include "tests/cli_util.hpp"
#include "tests/scratch_dir.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;

// Seconds of work: plenty of time to interrupt it mid-write.
const std::string kLongTrace = "trace -q --backend generator --size 2048x2048 --stencil 9x9 -o ";

// Starts the long trace into dir/out.cst (holding "old") and waits until its temporary has data.
std::unique_ptr<test::BackgroundRun> start_trace(const fs::path& dir, fs::path& temp) {
    std::ofstream(dir / "out.cst") << "old";
    auto run = std::make_unique<test::BackgroundRun>(kLongTrace + "'" + (dir / "out.cst").string() + "'",
                                                     (dir.parent_path() / (dir.filename().string() + ".log")).string());
    temp = dir / ("out.cst.tmp." + std::to_string(run->pid()));
    const bool writing = run->wait_until([&] { return fs::exists(temp) && fs::file_size(temp) > 4096; });
    EXPECT_TRUE(writing) << "the trace ended before it could be interrupted";
    return run;
}

TEST(CliTraceSignalCleanup, SigintAndSigtermRemoveTheTemporary) {
    for (int signal_number : {SIGINT, SIGTERM}) {
        const fs::path dir = test::fresh_dir(test::temp_dir() / ("signal" + std::to_string(signal_number)));
        fs::path temp;
        auto run = start_trace(dir, temp);
        run->signal(signal_number);
        EXPECT_EQ(run->wait(), 128 + signal_number);  // still ended by the signal
        EXPECT_FALSE(fs::exists(temp));
        EXPECT_EQ(test::read_file(dir / "out.cst"), "old");
        EXPECT_EQ(test::files_in(dir), 1u);
    }
}

TEST(CliTraceSignalCleanup, TheNextWriteRemovesTemporariesOfDeadProcessesOnly) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "kill9");
    fs::path temp;
    auto run = start_trace(dir, temp);
    run->signal(SIGKILL);
    EXPECT_EQ(run->wait(), 128 + SIGKILL);
    EXPECT_EQ(test::read_file(dir / "out.cst"), "old");  // never half-written
    EXPECT_TRUE(fs::exists(temp));                          // nothing can clean up after kill -9
    // A temporary of a live process (this test) is another writer's work in progress.
    const fs::path live = dir / ("out.cst.tmp." + std::to_string(::getpid()));
    std::ofstream(live) << "in progress";
    const auto r = test::run_cachesim("trace -q --size 8x8 -o '" + (dir / "out.cst").string() + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_FALSE(fs::exists(temp));
    EXPECT_TRUE(fs::exists(live));
    EXPECT_NE(test::read_file(dir / "out.cst"), "old");
}

}  // namespace
}  // namespace cachesim
