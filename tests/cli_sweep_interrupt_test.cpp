// A sweep killed (kill -9) at any point, again and again, including while it resumes and right
// after a torn record, still ends with exactly the rows of an uninterrupted run.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "tests/cli_process.hpp"
#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;

// Eight configurations of about 100 ms each on one thread (16.6 million accesses each): slow
// enough to kill between any two of them. (Their time is the workload's: caches of any
// associativity cost the same a lookup.)
const std::string kSweep = "sweep -q -j 1 --size 800x800 --stencil 5x5 --l1-line 64 --l1-size 1K..128K*2";

std::size_t lines_in(const fs::path& file) {
    const std::string text = test::read_file(file);
    return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

TEST(CliSweepInterrupt, KilledRepeatedlyItStillEndsWithEveryRowOnce) {
    const fs::path dir = test::temp_dir() / "interrupt";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const fs::path reference = dir / "reference.csv", csv = dir / "killed.csv";
    const auto clean = test::run_cachesim(kSweep + " -o '" + reference.string() + "'");
    ASSERT_EQ(clean.exit_code, 0) << clean.err;
    ASSERT_EQ(lines_in(reference), 9u);

    const fs::path partial = csv.string() + ".partial";
    std::size_t kills = 0;
    // Kill once 1, 3, 5, ... rows are logged; after every other kill leave a torn record behind, as
    // a kill in the middle of a write would.
    for (std::size_t rows = 1; rows < 8; rows += 2) {
        test::BackgroundRun run(kSweep + " -o '" + csv.string() + "'", (dir / "log.txt").string());
        const bool reached = run.wait_until([&] { return fs::exists(partial) && lines_in(partial) >= rows; });
        if (!reached) break;  // it finished first
        run.signal(SIGKILL);
        EXPECT_EQ(run.wait(), 128 + SIGKILL);
        ++kills;
        EXPECT_FALSE(fs::exists(csv)) << "a killed sweep left a CSV";
        if (kills % 2 == 1) std::ofstream(partial, std::ios::app) << "{\"key\": \"--size=256x256 --sten";
    }
    EXPECT_GE(kills, 3u);
    const auto last = test::run_cachesim(kSweep + " -o '" + csv.string() + "'");
    ASSERT_EQ(last.exit_code, 0) << last.err;
    EXPECT_EQ(test::read_file(csv), test::read_file(reference));
    EXPECT_FALSE(fs::exists(partial));
    EXPECT_FALSE(fs::exists(csv.string() + ".lock"));
}

// The state the sweep used to get stuck in: a torn record with a full record appended straight
// after it, on the same line. The rerun skips that line, says so, and recomputes what it lost.
TEST(CliSweepInterrupt, ATornRecordGluedToTheNextIsSkippedAndReported) {
    const fs::path dir = test::temp_dir() / "glued";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string sweep = "sweep -q --size 40x24 --stencil 3x3 --l1-size 256,512,1K";
    const fs::path reference = dir / "reference.csv", csv = dir / "glued.csv";
    ASSERT_EQ(test::run_cachesim(sweep + " -o '" + reference.string() + "'").exit_code, 0);
    // What an append straight after a torn record left: both on one line.
    const std::string log = R"({"key":"--size=40x24 --stencil=3x3 --l1-size=256","columns":[["model","thread"]]})";
    std::ofstream(csv.string() + ".partial") << "{\"key\":\"--size=40x24 --st" << log << "\n";
    const auto r = test::run_cachesim(sweep + " -o '" + csv.string() + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find(csv.string() + ".partial: skipped 1 torn record (line 1)"), std::string::npos) << r.err;
    EXPECT_EQ(test::read_file(csv), test::read_file(reference));
}

// A torn last record (no newline after it) is cut off by the rerun, which says so once: not also
// as a skipped line.
TEST(CliSweepInterrupt, ATornLastRecordIsReportedOnce) {
    const fs::path dir = test::temp_dir() / "torn-last";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string sweep = "sweep -q --size 40x24 --stencil 3x3 --l1-size 256,512,1K";
    const fs::path reference = dir / "reference.csv", csv = dir / "torn.csv";
    ASSERT_EQ(test::run_cachesim(sweep + " -o '" + reference.string() + "'").exit_code, 0);
    // 25 bytes: the record cut after its 25th character, `{"key":"--size=40x24 --st`.
    std::ofstream(csv.string() + ".partial") << "{\"key\":\"--size=40x24 --st";
    const auto r = test::run_cachesim(sweep + " -o '" + csv.string() + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find(csv.string() + ".partial: cut off a torn last record (25 bytes)"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("skipped"), std::string::npos) << "reported twice: " << r.err;
    EXPECT_EQ(test::read_file(csv), test::read_file(reference));
}

}  // namespace
}  // namespace cachesim
