// compare's summary counts the rows that lie where the GPU model is known to miss the chip
// (sim/gpu/known_misses.hpp: the matmul in one-warp blocks and in strips wider than 128 columns), with how
// many of them are within 3 points at L1; with no such row the line is not there.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "tests/cli_util.hpp"
#include "tests/csv_table.hpp"

namespace cachesim::test {
namespace {

const std::string kHeader =
    "kernel,width,height,stencil_w,stencil_h,depth,schedule,block,elem_bytes,gpu,time_ms,"
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,"
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,"
    "lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,dram__bytes_read.sum\n";

// A 256x256 matmul of depth 8: 2,048 warps of 8 steps, each step a request for A (one sector) and
// one for B (four): 32,768 requests and 81,920 sectors; the hit counts are made up (50% at L1).
std::string row(const std::string& schedule, int block) {
    return "matmul,256,256,0,0,8," + schedule + "," + std::to_string(block) +
           ",4,NVIDIA H200,1,32768,81920,40960,50,40960,30000,524288\n";
}

const std::string kLine = "in a region where the model is known to miss the chip (simulate's caution lines; the list: docs/cli.md): ";

TEST(CompareKnownMisses, TheSummaryCountsTheRowsInARegion) {
    const auto dir = temp_dir();
    const std::string file = (dir / "known.csv").string(), joined_path = (dir / "known_joined.csv").string();
    // block 32: one warp a block; column:192 at block 128: a strip wider than 128 of a 256-wide
    // matrix; column:128 at block 128: in neither
    std::ofstream(file) << kHeader << row("linear", 32) << row("column:192", 128) << row("column:128", 128);
    const auto r = run_cachesim("compare --measured '" + file + "' --plot none --no-progress --out '" + joined_path + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // which of the two are within 3 points, from the joined CSV's simulated rates against 50%
    const CsvTable joined = CsvTable::from_file(joined_path);
    ASSERT_EQ(joined.rows(), 3u);
    int within = 0;
    for (std::size_t i = 0; i < 2; ++i)
        within += std::abs(joined.number(i, "simulated:l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct") - 50) <= 3;
    EXPECT_NE(r.out.find(kLine + "2 runs, L1 within 3 pp " + std::to_string(within) + "/2\n"), std::string::npos) << r.out;
}

TEST(CompareKnownMisses, NoRowInARegionNoLine) {
    const auto dir = temp_dir();
    const std::string file = (dir / "plain_known.csv").string();
    std::ofstream(file) << kHeader << row("column:128", 128) << row("linear", 64);
    const auto r = run_cachesim("compare --measured '" + file + "' --plot none --no-progress");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.find("known to miss"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace cachesim::test
