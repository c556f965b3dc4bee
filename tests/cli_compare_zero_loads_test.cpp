// cachesim compare on a measured row whose counters are all 0 (a profile that counted no global
// loads): a hit rate over no lookups is no rate, so the row is left out of the rate statistics
// and the report says so, and that the model loads where the chip counted nothing.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>

#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

const char* kHeader =
    "kernel,width,height,stencil_w,stencil_h,depth,schedule,block,elem_bytes,gpu,time_ms,variant,"
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,"
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,"
    "lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,"
    "lts__t_sector_op_read_hit_rate.pct,dram__bytes_read.sum\n";
const char* kLaunch = "stencil,64,64,3,3,0,linear,256,4,NVIDIA H200,0.01,index64,";
// 1152 requests, 4992 sectors of which 4240 hit (84.94%), 1136 L2 reads of which 176 hit.
const char* kCounted = "1152,4992,4240,84.94,1136,176,15.49,32768\n";
const char* kNothing = "0,0,0,0,0,0,0,0\n";

std::string write_rows(const std::string& name, const std::vector<const char*>& counters) {
    const std::string file = (test::temp_dir() / name).string();
    std::ofstream out(file);
    out << kHeader;
    for (const char* c : counters) out << kLaunch << c;
    return file;
}

TEST(CliCompareZeroLoads, ARowThatCountedNoLoadsHasNoRate) {
    const auto r = test::run_cachesim("compare --no-progress --measured '" + write_rows("zero.csv", {kNothing}) + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // No rate at either level: every rate statistic is over no run.
    EXPECT_NE(r.out.find("1 run: L1 hit rate |error| mean n/a pp, worst n/a pp, within 3 pp: 0/0"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("L2 hit rate |error| mean n/a pp, worst n/a pp, within 5 pp: 0/0"), std::string::npos) << r.out;
    const std::string note = "1 row counts no L1 global-load sectors: no hit rate to compare; 1 row counts no L2 read "
                             "sectors from the L1s: no L2 hit rate to compare";
    EXPECT_NE(r.out.find("note: " + note), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("compare: note: " + note), std::string::npos) << r.err;
    // A 64x64 3x3 stencil loads: the launch simulated is not the one profiled.
    EXPECT_NE(r.out.find("1 of them simulates loads the chip did not count: the launch simulated is not the one measured"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.err.find("simulated L1 global-load sectors where the chip counted none: the launch simulated is not "
                         "the one measured"),
              std::string::npos)
        << r.err;
}

TEST(CliCompareZeroLoads, OnlyTheRowsWithARateAreInTheRateStatistics) {
    const auto r = test::run_cachesim("compare --no-progress --measured '" +
                                      write_rows("mixed.csv", {kCounted, kNothing}) + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // Two runs, one with rates: the within counts are out of 1; the sector counts out of 2.
    EXPECT_TRUE(std::regex_search(r.out, std::regex("2 runs: L1 hit rate .* within 3 pp: [01]/1\n"))) << r.out;
    EXPECT_TRUE(std::regex_search(r.out, std::regex("L2 hit rate .* within 5 pp: [01]/1\n"))) << r.out;
    EXPECT_TRUE(std::regex_search(r.out, std::regex("sectors equal to the hardware's: [01]/2\n"))) << r.out;
    EXPECT_NE(r.out.find("note: 1 row counts no L1 global-load sectors"), std::string::npos) << r.out;
}

TEST(CliCompareZeroLoads, EveryRowWithRatesHasNoNote) {
    const auto r = test::run_cachesim("compare --no-progress --measured '" + write_rows("counted.csv", {kCounted}) + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.find("no hit rate to compare"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace cachesim
