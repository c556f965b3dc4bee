// One sweep at a time per output: a second sweep into the same file while the first runs is
// refused at once (exit 2) with a message naming the output and the first one's pid; the first
// finishes normally, and once it is done (or killed) the output is free again.
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/cli_process.hpp"
#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;

// Eleven configurations of about 100 ms each on one thread (16.6 million accesses each): the
// first sweep still runs for about a second after it logs its first row.
const std::string kSweep = "sweep -q -j 1 --size 800x800 --stencil 5x5 --l1-line 64 --l1-size 1K..1M*2";

TEST(CliSweepLock, ASecondSweepIntoTheSameOutputIsRefused) {
    const fs::path dir = test::temp_dir() / "lock";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const fs::path csv = dir / "shared.csv";
    test::BackgroundRun first(kSweep + " -o '" + csv.string() + "'", (dir / "first.txt").string());
    // The first holds the lock once it logs its first row.
    ASSERT_TRUE(first.wait_until([&] { return fs::exists(csv.string() + ".partial") && fs::file_size(csv.string() + ".partial") > 0; }))
        << test::read_file(dir / "first.txt");
    const auto second = test::run_cachesim(kSweep + " -o '" + csv.string() + "'");
    EXPECT_EQ(second.exit_code, 2);
    EXPECT_NE(second.err.find(csv.string() + ": another sweep (pid " + std::to_string(first.pid()) + ")"),
              std::string::npos) << second.err;
    EXPECT_EQ(first.wait(), 0) << test::read_file(dir / "first.txt");
    EXPECT_FALSE(fs::exists(csv.string() + ".lock"));
    const auto after = test::run_cachesim(kSweep + " -o '" + csv.string() + "'");
    EXPECT_EQ(after.exit_code, 0) << after.err;
}

TEST(CliSweepLock, AKilledHolderFreesTheOutput) {
    const fs::path dir = test::temp_dir() / "lock-killed";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const fs::path csv = dir / "out.csv";
    {
        test::BackgroundRun first(kSweep + " -o '" + csv.string() + "'", (dir / "first.txt").string());
        ASSERT_TRUE(first.wait_until([&] { return fs::exists(csv.string() + ".partial"); }));
        first.signal(SIGKILL);
        first.wait();
    }
    EXPECT_TRUE(fs::exists(csv.string() + ".lock"));  // left by kill -9, but no longer locked
    const auto r = test::run_cachesim(kSweep + " -o '" + csv.string() + "'");
    EXPECT_EQ(r.exit_code, 0) << r.err;
}

}  // namespace
}  // namespace cachesim
