// A measured row's own loop counters (warp instructions and pipe cycles), read by `cachesim
// compare` from gpubench's CSV (--metrics fidelity,loop) and from Nsight Compute's raw page.
#include <gtest/gtest.h>

#include "tests/measured_csv_test_util.hpp"
#include "traces/input_error.hpp"
#include "traces/measured_csv.hpp"

namespace cachesim {
namespace {

// gpubench's columns with the loop's, the fma pipe's run-to-run columns among them.
const std::string kHeader =
    "kernel,width,height,stencil_w,stencil_h,depth,schedule,block,"
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,"
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,"
    "lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,dram__bytes_read.sum,"
    "smsp__inst_executed.sum,sm__pipe_alu_cycles_active.sum,sm__pipe_fma_cycles_active.sum,"
    "sm__pipe_fmaheavy_cycles_active.sum,sm__pipe_fma_cycles_active.sum:min,sm__pipe_fma_cycles_active.sum:max\n";
const std::string kConfig = "matmul,64,64,0,0,64,linear,128,1000,4000,2000,50,2000,1900,8192,";

// 1,000 requests: the issue port 4 cycles a request, alu 3, fma 6,000 / 2 = 3, fmaheavy 5.
TEST(MeasuredCsvLoopCounters, ARowsCountersSayWhatLimitsItsLoop) {
    const auto runs = parse_measured_csv(kHeader + kConfig + "4000,3000,6000,5000,5900,6100\n" + kConfig + ",,,,,\n",
                                         "m.csv");
    ASSERT_EQ(runs.size(), 2u);
    ASSERT_TRUE(runs[0].loop.has_value());
    EXPECT_EQ(runs[0].loop->busiest, "fmaheavy");
    EXPECT_DOUBLE_EQ(runs[0].loop->cycles_per_request, 5.0);
    EXPECT_TRUE(runs[0].loop->pipe_bound());
    EXPECT_FALSE(runs[1].loop.has_value()) << "a row that leaves the counters empty has none";
    // without the columns, no row has them
    const std::string plain = kHeader.substr(0, kHeader.find(",smsp__")) + "\n";
    EXPECT_FALSE(parse_measured_csv(plain + kConfig.substr(0, kConfig.size() - 1) + "\n", "m.csv")[0].loop.has_value());
}

TEST(MeasuredCsvLoopCounters, IncompleteCountersAreNamed) {
    EXPECT_NE(test::measured_csv_error(kHeader + kConfig + "4000,,6000,5000,5900,6100\n")
                  .find("m.csv:2, column 'sm__pipe_alu_cycles_active.sum': empty where smsp__inst_executed.sum is given"),
              std::string::npos);
    EXPECT_NE(test::measured_csv_error(kHeader + kConfig + "4000,3000,lots,5000,5900,6100\n")
                  .find("m.csv:2, column 'sm__pipe_fma_cycles_active.sum': 'lots' is not a number"),
              std::string::npos);
    EXPECT_NE(test::measured_csv_error(kHeader + kConfig + "900,3000,6000,5000,5900,6100\n")
                  .find("m.csv:2, column 'smsp__inst_executed.sum': smsp__inst_executed.sum 900 is less than"),
              std::string::npos);
    // instructions without any pipe cannot say whether a pipe limits the loop
    const std::string no_pipes = kHeader.substr(0, kHeader.find(",sm__pipe_")) + "\n";
    EXPECT_NE(test::measured_csv_error(no_pipes + kConfig + "4000\n").find("column 'smsp__inst_executed.sum' without any"),
              std::string::npos);
}

TEST(MeasuredCsvLoopCounters, NcuRawPagesCarryThemToo) {
    const std::string text =
        "\"ID\",\"Kernel Name\",\"Block Size\",\"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum\","
        "\"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum\",\"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum\","
        "\"l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct\",\"lts__t_sectors_srcunit_tex_op_read.sum\","
        "\"lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum\",\"dram__bytes_read.sum\",\"smsp__inst_executed.sum\","
        "\"sm__pipe_alu_cycles_active.sum\"\n"
        "\"\",\"\",\"\",\"request\",\"sector\",\"sector\",\"%\",\"sector\",\"sector\",\"byte\",\"inst\",\"cycle\"\n"
        "\"0\",\"k\",\"(128, 1, 1)\",\"1,000\",\"4,000\",\"2,000\",\"50\",\"100\",\"90\",\"3,200\",\"4,000\",\"7,500\"\n";
    WorkloadSpec base;
    base.width = base.height = 64;
    const auto runs = parse_ncu_raw_csv(text, "n.csv", base, {parse_schedule("linear")});
    ASSERT_EQ(runs.size(), 1u);
    ASSERT_TRUE(runs[0].loop.has_value());
    EXPECT_EQ(runs[0].loop->busiest, "alu");
    EXPECT_DOUBLE_EQ(runs[0].loop->cycles_per_request, 7.5);
    std::string scaled = text;
    scaled.replace(scaled.find("\"inst\""), 6, "\"Kinst\"");
    try {
        parse_ncu_raw_csv(scaled, "n.csv", base, {parse_schedule("linear")});
        FAIL() << "scaled units accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("column 'smsp__inst_executed.sum': unit 'Kinst' is scaled"),
                  std::string::npos)
            << e.what();
    }
}

}  // namespace
}  // namespace cachesim
