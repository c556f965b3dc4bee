// A sweep ended by SIGINT removes its lock file whenever the signal comes: mid-run (the partial
// log stays, for resuming), and in the moment the lock file has just been created, before the
// cleanup handler knew of it (a signal there waits until the path is registered).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/cli_process.hpp"
#include "tests/cli_util.hpp"
#include "tests/scratch_dir.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;

TEST(CliSweepSignalLock, SigintMidRunRemovesTheLockAndKeepsThePartialLog) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "mid-run");
    const fs::path csv = dir / "out.csv";
    // Eleven configurations of about 100 ms each: still running after its first row.
    test::BackgroundRun sweep("sweep -q -j 1 --size 800x800 --stencil 5x5 --l1-line 64 --l1-size 1K..1M*2 -o '" +
                                  csv.string() + "'",
                              (dir / "log.txt").string());
    ASSERT_TRUE(sweep.wait_until([&] {
        std::error_code ec;
        return fs::exists(dir / "out.csv.partial", ec) && fs::file_size(dir / "out.csv.partial", ec) > 0;
    })) << test::read_file(dir / "log.txt");
    sweep.signal(SIGINT);
    EXPECT_EQ(sweep.wait(), 128 + SIGINT) << test::read_file(dir / "log.txt");
    EXPECT_FALSE(fs::exists(dir / "out.csv.lock"));
    EXPECT_TRUE(fs::exists(dir / "out.csv.partial"));
    EXPECT_FALSE(fs::exists(csv));
}

TEST(CliSweepSignalLock, SigintAsSoonAsTheLockFileAppearsLeavesNoLock) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "at-lock");
    const fs::path lock = dir / "out.csv.lock";
    // The signal is sent the moment the lock file is seen, which lands between its creation and
    // its registration in about one run in four where that window is open (measured): 40 runs all
    // miss it with a chance below 1 in 10,000.
    constexpr int kRuns = 40;
    int interrupted = 0;
    for (int run = 0; run < kRuns; ++run) {
        for (const char* name : {"out.csv", "out.csv.lock", "out.csv.partial"}) fs::remove(dir / name);
        // A few hundred milliseconds of work after the lock, so that the signal comes before the end.
        test::BackgroundRun sweep("sweep -q -j 1 --size 256x256 --stencil 5x5 --l1-lines 32,64,128 -o '" +
                                      (dir / "out.csv").string() + "'",
                                  (dir / "log.txt").string());
        // Checks without sleeping (the window is a few system calls long), returning now and then so
        // that a sweep that ended is noticed.
        const bool seen = sweep.wait_until([&] {
            for (int spin = 0; spin < 20000; ++spin)
                if (::access(lock.c_str(), F_OK) == 0) return true;
            return false;
        });
        if (seen) sweep.signal(SIGINT);
        const int status = sweep.wait();
        ASSERT_TRUE(status == 128 + SIGINT || status == 0) << status << ": " << test::read_file(dir / "log.txt");
        interrupted += status == 128 + SIGINT;
        EXPECT_FALSE(fs::exists(lock)) << "run " << run << " left the lock file (exit " << status << ")";
        for (const auto& entry : fs::directory_iterator(dir))
            EXPECT_EQ(entry.path().filename().string().find(".tmp."), std::string::npos) << entry.path();
    }
    EXPECT_GT(interrupted, kRuns / 2) << "the signal came after most sweeps had finished: the check is void";
}

}  // namespace
}  // namespace cachesim
