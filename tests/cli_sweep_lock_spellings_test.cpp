// A sweep's output is one file whatever name reaches it: a symlink to it, or a path through ./
// and ../, meets the lock of the running sweep (exit 2 naming the given output and the first
// sweep's pid, nothing of its own left), and an interrupted sweep through a symlink leaves its
// partial log beside the target, where a rerun under the target's own name resumes it.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/cli_process.hpp"
#include "tests/cli_util.hpp"
#include "tests/csv_table.hpp"
#include "tests/scratch_dir.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;

// Configurations of about 100 ms each on one thread: with eleven, the first sweep still runs for
// about a second after it logs its first row; five are enough to interrupt one and resume it.
const std::string kLongSweep = "sweep -q -j 1 --size 800x800 --stencil 5x5 --l1-line 64 --l1-size 1K..1M*2";
const std::string kShortSweep = "sweep -q -j 1 --size 800x800 --stencil 5x5 --l1-line 64 --l1-size 1K..16K*2";
constexpr std::size_t kShortSweepConfigurations = 5;  // 1K, 2K, 4K, 8K, 16K

bool has_logged_a_row(const fs::path& partial) {
    std::error_code ec;
    return fs::exists(partial, ec) && fs::file_size(partial, ec) > 0;
}

TEST(CliSweepLockSpellings, EveryNameOfTheRunningSweepsOutputIsRefused) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "spellings");
    fs::create_directories(dir / "other");
    const fs::path csv = dir / "out.csv";
    fs::create_symlink("out.csv", dir / "link.csv");            // beside the target
    fs::create_symlink("../out.csv", dir / "other" / "up.csv");  // relative to another directory
    test::BackgroundRun first(kLongSweep + " -o '" + csv.string() + "'", (dir / "first.txt").string());
    ASSERT_TRUE(first.wait_until([&] { return has_logged_a_row(dir / "out.csv.partial"); }))
        << test::read_file(dir / "first.txt");

    const std::string holder = "another sweep (pid " + std::to_string(first.pid()) + ")";
    for (const fs::path& name : {dir / "link.csv", dir / "other" / "up.csv",
                                 dir / "other" / ".." / "." / "out.csv"}) {
        const auto second = test::run_cachesim(kLongSweep + " -o '" + name.string() + "'");
        EXPECT_EQ(second.exit_code, 2) << name;
        EXPECT_NE(second.err.find(name.string() + ": " + holder), std::string::npos) << second.err;
    }
    // The first was still running throughout (had it ended, a second sweep could have run).
    EXPECT_FALSE(fs::exists(csv));
    first.signal(SIGINT);
    EXPECT_EQ(first.wait(), 128 + SIGINT) << test::read_file(dir / "first.txt");
    // The refused sweeps left nothing of their own; the first leaves its partial log alone.
    for (const char* leftover : {"out.csv.lock", "link.csv.lock", "link.csv.partial", "other/up.csv.lock",
                                 "other/up.csv.partial"})
        EXPECT_FALSE(fs::exists(dir / leftover)) << leftover;
    EXPECT_TRUE(fs::exists(dir / "out.csv.partial"));
    EXPECT_TRUE(fs::is_symlink(dir / "link.csv"));
}

TEST(CliSweepLockSpellings, ASweepThroughASymlinkResumesUnderTheTargetsName) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "resume-through-link");
    fs::create_symlink("out.csv", dir / "link.csv");
    {
        test::BackgroundRun first(kShortSweep + " -o '" + (dir / "link.csv").string() + "'",
                                  (dir / "first.txt").string());
        ASSERT_TRUE(first.wait_until([&] { return has_logged_a_row(dir / "out.csv.partial"); }))
            << test::read_file(dir / "first.txt");
        first.signal(SIGKILL);
        first.wait();
    }
    EXPECT_FALSE(fs::exists(dir / "link.csv.partial"));
    // Without -q the summary says how many configurations the partial log had finished.
    std::string rerun = kShortSweep;
    rerun.replace(rerun.find(" -q"), 3, "");
    const auto r = test::run_cachesim(rerun + " -o '" + (dir / "out.csv").string() + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find(" already done)"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("(0 already done)"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / "out.csv.partial"));
    EXPECT_EQ(test::CsvTable::from_file((dir / "link.csv").string()).rows(), kShortSweepConfigurations);
}

}  // namespace
}  // namespace cachesim
