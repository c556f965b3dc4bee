// The L1's hits by who brought the sector, through the command line: `simulate --hit-sources`
// (table, JSON, the memory estimate, refusal without the GPU model), sweep --hit-sources's columns
// and compare's joined-CSV column. Expected values by hand, from the matmul's sharing:
//  - matmul 128x128, depth 128, block 128 on the h200 preset with the slot cycle for its first
//    wave (--cta-order floorplan; the preset's turns give SMs 124-131 a second block): 128
//    blocks, one a row of C, one on each SM. A warp reads one sector of A an iteration (its
//    block's row, shared by the block's four warps, 8 iterations to a sector) and 4 sectors of
//    B's row that no other warp of the SM reads: per block and 8 iterations the warp that filled
//    A's sector finds it 7 times and the other three 8 times each, and nothing of B is found.
//  - the strip probe at one wave (128x2112, block 128, column:128): 16 blocks an SM, each a row
//    of C, read the same 16 sectors of B's row every iteration; 15 of each sector's 16 lookups
//    find it from another block: 240 of the SM's 320 lookups an iteration, 75 points. Its
//    diagram, coloured by source, shows B's hits in the colour of other blocks.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>

#include <nlohmann/json.hpp>

#include "apps/cachesim/sweep_results.hpp"

#include "tests/cli_util.hpp"
#include "tests/csv_table.hpp"
#include "viz/canvas.hpp"
#include "viz/render.hpp"

namespace cachesim {
namespace {

const std::string kMatmul =
    "simulate --preset h200 --cta-order floorplan --workload matmul --size 128x128 --depth 128 --block 128";
constexpr double kBlocks = 128, kGroups = 128 / 8;

nlohmann::json parameters(const std::string& args) {
    const auto r = test::run_cachesim(args + " --format json");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return nlohmann::json::parse(r.out).at("parameters");
}

double number(const nlohmann::json& params, const char* key) { return std::stod(params.at(key).get<std::string>()); }

TEST(CliHitSources, JsonCountsByHand) {
    const auto r = test::run_cachesim(kMatmul + " --hit-sources --format json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    const auto& p = j.at("parameters");
    EXPECT_EQ(number(p, "l1_hits_own_warp"), kBlocks * kGroups * 7);
    EXPECT_EQ(number(p, "l1_hits_own_block"), kBlocks * kGroups * 24);
    EXPECT_EQ(number(p, "l1_hits_other_block"), 0.0);
    EXPECT_EQ(j.at("levels")[0].at("read_hits").get<double>(), kBlocks * kGroups * 31);
}

TEST(CliHitSources, TableLineUnderTheL1) {
    const auto r = test::run_cachesim(kMatmul + " --hit-sources");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("  read hits by who brought the sector: the same warp 14,336 (22.58%), another warp of its "
                         "block 49,152 (77.42%), another block on the SM 0 (0.00%)\n"),
              std::string::npos)
        << r.out;
}

TEST(CliHitSources, NoteWhereTheRateRestsOnOtherBlocks) {
    // The strip at one wave (header): 75 of the L1's points from other blocks. Of each 8
    // iterations' 2,560 lookups an SM makes, B's 1,920 hits and A's 16 blocks x 31: 94.375%.
    const auto strip = test::run_cachesim("simulate --preset h200 --workload matmul --size 128x2112 --depth 64 "
                                          "--block 128 --schedule column:128 --hit-sources");
    ASSERT_EQ(strip.exit_code, 0) << strip.err;
    EXPECT_NE(strip.out.find("  note: 75.00 of the L1's 94.38 points are hits from other blocks, which last only while "
                             "the SM's blocks keep in step"),
              std::string::npos)
        << strip.out;
    // No block finds another's sectors: no note.
    const auto alone = test::run_cachesim(kMatmul + " --hit-sources");
    ASSERT_EQ(alone.exit_code, 0) << alone.err;
    EXPECT_EQ(alone.out.find("note:"), std::string::npos) << alone.out;
}

TEST(CliHitSources, OnlyWhenAsked) {
    const auto p = parameters(kMatmul);
    EXPECT_FALSE(p.contains("l1_hits_own_warp"));
    const auto r = test::run_cachesim(kMatmul);
    EXPECT_EQ(r.out.find("read hits by who brought"), std::string::npos);
}

TEST(CliHitSources, MemoryEstimateCountsTheSources) {
    // 16 bytes for each of the 4 sectors of the 1792 lines of each of the 132 SMs' L1s (the
    // 224 KiB the H200 driver's 32 KiB carve-out leaves beside blocks of 128 threads).
    auto estimate = [](const std::string& extra) {
        const auto r = test::run_cachesim(kMatmul + " --dry-run" + extra);
        EXPECT_EQ(r.exit_code, 0) << r.err;
        return std::stod(r.out.substr(r.out.find(": ") + 2));
    };
    EXPECT_EQ(estimate(" --hit-sources") - estimate(""), 132.0 * 1792 * 4 * 16);
}

TEST(CliHitSources, RefusedWithoutTheGpuModel) {
    const auto r = test::run_cachesim("simulate --hit-sources");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--hit-sources"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--model gpu"), std::string::npos) << r.err;
}

TEST(CliHitSources, SweepColumns) {
    // Block 256: two rows of C a block, whose warps w and w + 4 read the same 4 sectors of B's row
    // each iteration: 16 more hits from the block an iteration, 64 blocks x 128 iterations.
    const auto r = test::run_cachesim("sweep --preset h200 --cta-order floorplan --workload matmul --size 128x128 "
                                      "--depth 128 --block 128,256 --hit-sources -q");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto rows = cli::parse_csv(r.out);
    ASSERT_EQ(rows.size(), 3u);
    const auto column = [&](const char* name) {
        const auto at = std::find(rows[0].begin(), rows[0].end(), name);
        EXPECT_NE(at, rows[0].end()) << name;
        return static_cast<std::size_t>(at - rows[0].begin());
    };
    const std::size_t own_warp = column("l1_hits_own_warp"), own_block = column("l1_hits_own_block"),
                      other_block = column("l1_hits_other_block"), block = column("block");
    for (std::size_t i = 1; i < rows.size(); ++i) {
        const bool wide = rows[i].at(block) == "256";
        EXPECT_EQ(std::stod(rows[i].at(own_warp)), kBlocks * kGroups * 7);
        EXPECT_EQ(std::stod(rows[i].at(own_block)), kBlocks * kGroups * 24 + (wide ? 64.0 * 128 * 16 : 0.0));
        EXPECT_EQ(std::stod(rows[i].at(other_block)), 0.0);
    }
    const auto thread_model = test::run_cachesim("sweep --workload matmul --size 64x64 --hit-sources -q");
    EXPECT_EQ(thread_model.exit_code, 2);
    EXPECT_NE(thread_model.err.find("--hit-sources"), std::string::npos) << thread_model.err;
}

TEST(CliHitSources, CompareWritesThePointsFromOtherBlocks) {
    const std::string file = std::string(CACHESIM_TEST_DATA_DIR) + "/h200/waves/waves_strip_matmul.csv";
    const auto out = test::temp_dir() / "hit_sources_joined.csv";
    const auto r = test::run_cachesim("compare --measured '" + file +
                                      "' --where height=2112 --where schedule=column:128 --where variant=index64 "
                                      "--plot none --no-progress --out '" + out.string() + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const test::CsvTable joined = test::CsvTable::from_file(out.string());
    ASSERT_EQ(joined.rows(), 1u);
    EXPECT_DOUBLE_EQ(joined.number(0, "simulated:l1_hit_rate_other_block.pct"), 75.0);
}

TEST(CliHitSources, DiagramColoursTheHitsBySource) {
    const auto png = test::temp_dir() / "hit_sources_strip.png";
    const std::string strip = "diagram --preset h200 --workload matmul --size 128x2112 --depth 64 --block 128 "
                              "--schedule column:128 --out '" + png.string() + "'";
    // Pixels in the colour of hits from other blocks.
    const auto other_block_pixels = [&] {
        std::ifstream in(png, std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const viz::Canvas c = viz::decode_png(bytes);
        std::uint64_t n = 0;
        for (int y = 0; y < c.height(); ++y)
            for (int x = 0; x < c.width(); ++x) n += c.pixel(x, y) == viz::hit_source_color(HitSource::other_block);
        return n;
    };
    auto r = test::run_cachesim(strip + " --colour-by source");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_GT(other_block_pixels(), 2000u);  // B's band; the legend's swatch is 15 x 15
    r = test::run_cachesim(strip);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(other_block_pixels(), 0u);
}

}  // namespace
}  // namespace cachesim
