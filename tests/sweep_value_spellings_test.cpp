// A sweep list naming one value twice in two spellings ("2K" and a range's 2048, "016" and "16",
// "column:04" and "column:4") would run one configuration twice: refused, naming both spellings.
// Values the run reads differently, and text it does not read as a number, stay apart.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "apps/cachesim/sweep_expand.hpp"
#include "apps/common/options.hpp"
#include "tests/cli_util.hpp"
#include "traces/input_error.hpp"

namespace cachesim::cli {
namespace {

// The message parse_sweep_axes throws for `--option list` against simulate's options, or "".
std::string refusal(const std::string& option, const std::string& list) {
    try {
        parse_sweep_axes({"--" + option, list}, simulation_option_groups());
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

std::size_t value_count(const std::string& option, const std::string& list) {
    return parse_sweep_axes({"--" + option, list}, simulation_option_groups()).front().values.size();
}

TEST(SweepValueSpellings, OneValueInTwoSpellingsIsRefusedNamingBoth) {
    // 1K..4K*2 is 1024, 2048, 4096; 2K is 2 x 1024 = 2048 again.
    EXPECT_EQ(refusal("l1-size", "1K..4K*2,2K"), "--l1-size: '2048' and '2K' are the same value in '1K..4K*2,2K'");
    EXPECT_EQ(refusal("l2-size", "1M,1024K"), "--l2-size: '1M' and '1024K' are the same value in '1M,1024K'");
    EXPECT_EQ(refusal("l1-lines", "16,016"), "--l1-lines: '16' and '016' are the same value in '16,016'");
    EXPECT_EQ(refusal("depth", "8,08"), "--depth: '8' and '08' are the same value in '8,08'");
    EXPECT_EQ(refusal("schedule", "column:4,column:04"),
              "--schedule: 'column:4' and 'column:04' are the same value in 'column:4,column:04'");
    EXPECT_EQ(refusal("schedule", "tiled:8x4,tiled:08x004"),
              "--schedule: 'tiled:8x4' and 'tiled:08x004' are the same value in 'tiled:8x4,tiled:08x004'");
    EXPECT_EQ(refusal("size", "16x16,016x16"), "--size: '16x16' and '016x16' are the same value in '16x16,016x16'");
    // The GPU model's parameters: a count, a choice's alias, a real number, a list of KiB.
    EXPECT_EQ(refusal("block", "128,0128"), "--block: '128' and '0128' are the same value in '128,0128'");
    EXPECT_EQ(refusal("cta-order", "rr,round-robin"),
              "--cta-order: 'rr' and 'round-robin' are the same value in 'rr,round-robin'");
    EXPECT_EQ(refusal("warp-rate-spread", "0.5,.50"),
              "--warp-rate-spread: '0.5' and '.50' are the same value in '0.5,.50'");
    EXPECT_EQ(refusal("loop-issue-cost", "2,2.0"), "--loop-issue-cost: '2' and '2.0' are the same value in '2,2.0'");
    EXPECT_EQ(refusal("carveouts", "0\\,8,00\\,8"), "--carveouts: '0,8' and '00,8' are the same value in '0\\,8,00\\,8'");
}

TEST(SweepValueSpellings, TheSameSpellingTwiceKeepsItsMessage) {
    EXPECT_EQ(refusal("l1-lines", "16,16"), "--l1-lines: '16' comes twice in '16,16'");
    EXPECT_EQ(refusal("l1-size", "1K..4K*2,2048"), "--l1-size: '2048' comes twice in '1K..4K*2,2048'");
}

TEST(SweepValueSpellings, DifferentValuesStayApart) {
    EXPECT_EQ(value_count("l1-size", "1K,2K,1M,2048K,auto"), 5u);
    EXPECT_EQ(value_count("l1-ways", "1,16,full"), 3u);
    EXPECT_EQ(value_count("schedule", "column:4,zigzag:4,column:8"), 3u);
    // Seven digits apart: the run reads two rates.
    EXPECT_EQ(value_count("warp-rate-spread", "0.1234567,0.1234568"), 2u);
    // File names are text: 16 and 016 are two files.
    EXPECT_EQ(value_count("trace", "16,016"), 2u);
}

// A file by what it is: one trace named as a.cst, ./a.cst and through a link is one value;
// two files, or names of files that do not exist, stay apart.
TEST(SweepValueSpellings, OneFileByTwoNamesIsOneValue) {
    const auto dir = test::temp_dir() / "spelling-files";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::string a = (dir / "a.din").string(), b = (dir / "b.din").string(), link = (dir / "link.din").string();
    std::ofstream(a) << "0 1000\n";
    std::ofstream(b) << "0 2000\n";
    std::filesystem::create_symlink("a.din", link);
    const std::string dotted = (dir / "." / "a.din").string();
    EXPECT_EQ(refusal("trace", a + "," + dotted),
              "--trace: '" + a + "' and '" + dotted + "' are the same value in '" + a + "," + dotted + "'");
    EXPECT_NE(refusal("trace", a + "," + link), "");
    EXPECT_EQ(value_count("trace", a + "," + b), 2u);
    EXPECT_EQ(value_count("trace", (dir / "none1.din").string() + "," + (dir / "none2.din").string()), 2u);
}

TEST(SweepValueSpellings, AValueTheRunRefusesIsNotCalledTheSameAsAnother) {
    // 4.0 is no number of ways: reading the configuration refuses it, with its own message.
    EXPECT_EQ(value_count("l1-ways", "4,4.0"), 2u);
    EXPECT_EQ(value_count("block", "128,128.0"), 2u);
}

TEST(SweepValueSpellings, TheSweepRefusesBeforeRunningAnything) {
    const std::string csv = (test::temp_dir() / "spellings.csv").string();
    for (const std::string list : {"--l1-size 1K..4K*2,2K", "--l1-lines 16,016", "--schedule column:4,column:04"}) {
        const auto r = test::run_cachesim("sweep -q " + list + " -o '" + csv + "'");
        EXPECT_EQ(r.exit_code, 2) << list << "\n" << r.err;
        EXPECT_NE(r.err.find("are the same value"), std::string::npos) << list << "\n" << r.err;
        EXPECT_FALSE(std::filesystem::exists(csv)) << list;
    }
}

}  // namespace
}  // namespace cachesim::cli
