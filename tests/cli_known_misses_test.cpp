// simulate and sweep say when a GPU-model launch lies where the model is known to miss the chip
// (sim/gpu/known_misses.hpp): a "caution:" line in the table, a "cautions" list in the JSON, one
// line per region for a sweep; nothing where the launch is in none.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/cli_util.hpp"

namespace cachesim::test {
namespace {

const std::string kSmallMatmul = "--preset h200 --workload matmul --size 256x256 --depth 8 --threads 1 ";

TEST(CliKnownMisses, TheTableCautionsAboutOneWarpMatmulBlocks) {
    const CommandResult r = run_cachesim("simulate " + kSmallMatmul + "--block 32 --schedule linear");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("\ncaution: one-warp matmul blocks, naive, tiles or strips >= 128: "), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("caution: matmul strips"), std::string::npos) << r.out;
}

TEST(CliKnownMisses, TheJsonListsTheCautionsAndLeavesTheKeyOutWhereThereAreNone) {
    const CommandResult wide = run_cachesim("simulate " + kSmallMatmul + "--block 64 --schedule column:192 --format json");
    ASSERT_EQ(wide.exit_code, 0) << wide.err;
    const nlohmann::json j = nlohmann::json::parse(wide.out);
    ASSERT_TRUE(j.contains("cautions")) << wide.out;
    ASSERT_EQ(j["cautions"].size(), 1u);
    EXPECT_EQ(j["cautions"][0].get<std::string>().rfind("matmul strips wider than 128 columns: ", 0), 0u);

    const CommandResult narrow = run_cachesim("simulate " + kSmallMatmul + "--block 64 --schedule column:128 --format json");
    ASSERT_EQ(narrow.exit_code, 0) << narrow.err;
    EXPECT_FALSE(nlohmann::json::parse(narrow.out).contains("cautions")) << narrow.out;
}

// The 32-bit naive order's region is bounded by the run's points of its L1 from other blocks, so
// simulate counts the L1's hit sources for such a launch by itself. 512x512 at depth 256 in blocks
// of four warps: 2,048 blocks, 16 an SM (16 warps a scheduler, rates drawn); a short loop whose
// blocks keep together, so most of its hits come from other blocks (far above 10 points).
TEST(CliKnownMisses, TheNaive32BitMatmulIsCautionedFromTheRunsOwnHitSources) {
    const std::string launch = "simulate --preset h200 --workload matmul --size 512x512 --depth 256 --block 128 "
                               "--schedule linear --threads 1 ";
    const CommandResult r = run_cachesim(launch + "--compilation index32");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("read hits by who brought the sector: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\ncaution: 32-bit naive matmul resting on other blocks: "), std::string::npos) << r.out;
    const CommandResult wide = run_cachesim(launch + "--compilation index64");
    ASSERT_EQ(wide.exit_code, 0) << wide.err;
    EXPECT_EQ(wide.out.find("caution:"), std::string::npos) << wide.out;
    EXPECT_EQ(wide.out.find("read hits by who brought the sector: "), std::string::npos) << wide.out;
}

// A sweep counts the L1's hit sources for such configurations too, and counts a configuration in
// the region only from 10 points on: 512x512 at depth 64 takes most of its L1 rate from other
// blocks; 8192x64, a row of C 64 blocks wide, with the slot cycle for the first wave gives an
// SM's 16 blocks (launch order i, i+132, ...: 16 different columns of blocks) no lines of B in
// common, and takes 6 points from them.
TEST(CliKnownMisses, ASweepCountsTheNaive32BitMatmulByEachRunsOwnHitSources) {
    const CommandResult r = run_cachesim(
        "sweep --preset h200 --cta-order floorplan --workload matmul --size 512x512,8192x64 --depth 64 --block 128 "
        "--schedule linear --compilation index32 --threads 1 --quiet");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find(",l1_hits_other_block,"), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("sweep: caution: 1 configuration (the first: configuration 1 ("), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--size=512x512"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("known to miss the chip: 32-bit naive matmul resting on other blocks: "), std::string::npos)
        << r.err;
}

TEST(CliKnownMisses, TheThreadModelHasNoCautions) {
    const CommandResult r = run_cachesim("simulate --workload matmul --size 64x64 --depth 4 --schedule column:32");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.find("caution:"), std::string::npos) << r.out;
}

TEST(CliKnownMisses, ASweepCountsItsConfigurationsPerRegionOnce) {
    const CommandResult r =
        run_cachesim("sweep " + kSmallMatmul + "--block 32,64 --schedule linear,column:192 --quiet");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // block 32: both schedules (configurations 1 and 2); column:192 at block 64: configuration 4
    EXPECT_NE(r.err.find("sweep: caution: 2 configurations (the first: configuration 1 ("), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("where the model is known to miss the chip: one-warp matmul blocks, naive, tiles or strips >= 128: "),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("sweep: caution: 1 configuration (the first: configuration 4 ("), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("known to miss the chip: matmul strips wider than 128 columns: "), std::string::npos) << r.err;
}

}  // namespace
}  // namespace cachesim::test
