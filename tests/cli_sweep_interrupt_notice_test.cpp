// A sweep interrupted (SIGINT) says how far it got and how to go on: with -o FILE, to rerun the
// same command, which then skips the configurations the notice counted; to standard output, that
// nothing was kept.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>

#include "tests/cli_process.hpp"
#include "tests/cli_util.hpp"
#include "tests/scratch_dir.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;

// Eight configurations of about 100 ms each on one thread: still running after its first row.
const std::string kSweep = "sweep -j 1 --size 800x800 --stencil 5x5 --l1-line 64 --l1-size 1K..128K*2";

std::size_t lines_in(const fs::path& file) {
    const std::string text = test::read_file(file);
    return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

TEST(CliSweepInterruptNotice, SigintSaysHowFarItGotAndThatARerunResumes) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "notice");
    const fs::path csv = dir / "out.csv", partial = dir / "out.csv.partial", log = dir / "log.txt";
    test::BackgroundRun sweep(kSweep + " -q -o '" + csv.string() + "'", log.string());
    ASSERT_TRUE(sweep.wait_until([&] { return fs::exists(partial) && lines_in(partial) >= 1; })) << test::read_file(log);
    sweep.signal(SIGINT);
    EXPECT_EQ(sweep.wait(), 128 + SIGINT);
    const std::string said = test::read_file(log);
    std::smatch m;
    ASSERT_TRUE(std::regex_search(said, m, std::regex(R"(sweep: interrupted after (\d+) of 8 configurations; rerun the same command to resume: finished rows are kept \(in (.+)\)\n)")))
        << said;
    EXPECT_EQ(m[2].str(), partial.string());
    // The count is of rows kept: the partial log's records (one more where the signal came
    // between a record's write and its count, as it can for the first record the wait saw).
    const std::size_t counted = std::stoul(m[1]), kept = lines_in(partial);
    EXPECT_GE(kept, 1u);
    EXPECT_TRUE(counted == kept || counted + 1 == kept) << counted << " counted, " << kept << " kept";
    // Rerun as told: the kept rows are skipped.
    const auto rerun = test::run_cachesim(kSweep + " -o '" + csv.string() + "'");
    ASSERT_EQ(rerun.exit_code, 0) << rerun.err;
    EXPECT_NE(rerun.err.find("(" + std::to_string(kept) + " already done)"), std::string::npos) << rerun.err;
    EXPECT_EQ(lines_in(csv), 9u);
}

TEST(CliSweepInterruptNotice, ToStandardOutputItSaysNothingWasKept) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "notice-stdout");
    const fs::path log = dir / "log.txt";
    // Without -q: the progress line shows once the configurations run.
    test::BackgroundRun sweep(kSweep, log.string());
    ASSERT_TRUE(sweep.wait_until([&] { return test::read_file(log).find("sweep [") != std::string::npos; }));
    sweep.signal(SIGINT);
    const int status = sweep.wait();
    if (status == 0) GTEST_SKIP() << "the sweep finished before the signal";
    EXPECT_EQ(status, 128 + SIGINT);
    EXPECT_TRUE(std::regex_search(test::read_file(log),
                                  std::regex(R"(sweep: interrupted after \d+ of 8 configurations; nothing was kept)")))
        << test::read_file(log);
}

}  // namespace
}  // namespace cachesim
