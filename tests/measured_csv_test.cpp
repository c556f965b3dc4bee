// The measured-CSV readers of `cachesim compare`: gpubench's rows and Nsight Compute's raw CSV,
// and every bad row named by line and column.
#include <gtest/gtest.h>

#include "tests/measured_csv_test_util.hpp"
#include "traces/input_error.hpp"
#include "traces/measured_csv.hpp"

namespace cachesim {
namespace {

const std::string kHeader =
    "kernel,width,height,stencil_w,stencil_h,depth,schedule,block,elem_bytes,gpu,time_ms,"
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,"
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,"
    "lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,dram__bytes_read.sum\n";

// kHeader with one more column at its end.
std::string header_with(const std::string& column) {
    std::string header = kHeader;
    header.insert(header.size() - 1, "," + column);
    return header;
}

TEST(MeasuredCsv, ParsesGpubenchRows) {
    const auto runs = parse_measured_csv(
        kHeader + "stencil,64,32,3,5,0,column:8,128,4,\"NVIDIA H200\",0.5,10,40,30,75,20,15,2048\n", "m.csv");
    ASSERT_EQ(runs.size(), 1u);
    const MeasuredRun& r = runs[0];
    EXPECT_EQ(r.line, 2u);
    EXPECT_EQ(r.workload.kind, WorkloadKind::stencil);
    EXPECT_EQ(r.workload.width, 64u);
    EXPECT_EQ(r.workload.stencil_h, 5u);
    EXPECT_EQ(schedule_name(r.workload.schedule), "column:8");
    EXPECT_EQ(r.block, 128u);
    EXPECT_EQ(r.gpu, "NVIDIA H200");
    EXPECT_DOUBLE_EQ(*r.time_ms, 0.5);
    EXPECT_DOUBLE_EQ(r.metrics.l1_sectors, 40);
    EXPECT_DOUBLE_EQ(r.metrics.l2_hit_rate_pct(), 75.0);
}

// gpubench --warm-l2 rows say so in a last l2_start column; a cold start is the default.
TEST(MeasuredCsv, L2StartColumnSaysWhichRowsStartedWarm) {
    const std::string header = header_with("l2_start");
    const std::string row = "matmul,64,64,0,0,64,linear,128,4,\"NVIDIA H200\",0.5,10,40,30,75,20,15,2048,";
    const auto runs = parse_measured_csv(header + row + "warm\n" + row + "cold\n" + row + "\n", "m.csv");
    ASSERT_EQ(runs.size(), 3u);
    EXPECT_EQ(runs[0].l2_start, "warm");
    EXPECT_EQ(runs[1].l2_start, "");
    EXPECT_EQ(runs[2].l2_start, "");
    EXPECT_EQ(parse_measured_csv(kHeader + "stencil,64,32,3,5,0,linear,128,4,x,0.5,10,40,30,75,20,15,2048\n", "m.csv")[0].l2_start, "");
    const std::string error = test::measured_csv_error(header + row + "hot\n");
    EXPECT_NE(error.find("m.csv:2, column 'l2_start'"), std::string::npos) << error;
    EXPECT_NE(error.find("'hot' (expected cold or warm)"), std::string::npos) << error;
}

// gpubench --smem-per-block rows give their shared memory per block in a last smem_per_block
// column, read as the kernel's shared memory (as a recorded row's shared_bytes).
TEST(MeasuredCsv, SmemPerBlockColumnIsTheKernelsSharedMemory) {
    const std::string header = header_with("smem_per_block");
    const std::string row = "matmul,64,64,0,0,64,linear,128,4,\"NVIDIA H200\",0.5,10,40,30,75,20,15,2048,";
    const auto runs = parse_measured_csv(header + row + "11264\n" + row + "0\n" + row + "\n", "m.csv");
    ASSERT_EQ(runs.size(), 3u);
    EXPECT_EQ(runs[0].shared_bytes, std::optional<std::uint32_t>(11264));
    EXPECT_EQ(runs[1].shared_bytes, std::optional<std::uint32_t>(0));
    EXPECT_FALSE(runs[2].shared_bytes);
    EXPECT_FALSE(runs[0].recorded());
    const std::string error = test::measured_csv_error(header + row + "lots\n");
    EXPECT_NE(error.find("m.csv:2, column 'smem_per_block'"), std::string::npos) << error;
}

TEST(MeasuredCsv, SinglePassL2RateWinsOverMixedLaunchRatio) {
    const std::string header = header_with("lts__t_sector_op_read_hit_rate.pct");
    const auto runs = parse_measured_csv(header + "matmul,64,32,0,0,16,linear,128,4,g,1,10,40,30,75,20,21,2048,96.5\n", "m.csv");
    EXPECT_DOUBLE_EQ(runs[0].metrics.l2_hit_rate_pct(), 96.5);  // not 21/20, capped to 100
    const auto without = parse_measured_csv(kHeader + "matmul,64,32,0,0,16,linear,128,4,g,1,10,40,30,75,20,21,2048\n", "m.csv");
    EXPECT_DOUBLE_EQ(without[0].metrics.l2_hit_rate_pct(), 100.0);
}

TEST(MeasuredCsv, BadRowsNameLineAndColumn) {
    const std::string ok_metrics = ",10,40,30,75,20,15,2048\n";
    EXPECT_NE(test::measured_csv_error("kernel,width\nstencil,4\n").find("missing column 'height'"), std::string::npos);
    EXPECT_NE(test::measured_csv_error(kHeader + "fft,64,32,3,5,0,linear,128,4,g,1" + ok_metrics).find("m.csv:2, column 'kernel'"),
              std::string::npos);
    EXPECT_NE(test::measured_csv_error(kHeader + "stencil,64,32,3,5,0,spiral,128,4,g,1" + ok_metrics).find("column 'schedule'"),
              std::string::npos);
    EXPECT_NE(test::measured_csv_error(kHeader + "stencil,64,32,3,5,0,linear,12x,4,g,1" + ok_metrics).find("m.csv:2, column 'block': '12x' is not a number"),
              std::string::npos);
    EXPECT_NE(test::measured_csv_error(kHeader + "stencil,64,32,3,5,0,linear,128,4,g,1,10,forty,30,75,20,15,2048\n")
                  .find("column 'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum'"),
              std::string::npos);
    EXPECT_NE(test::measured_csv_error(kHeader + "stencil,64,32,3,5,0,linear,128,4,g,1,10,40\n").find("m.csv:2: 13 fields"),
              std::string::npos);
    EXPECT_NE(test::measured_csv_error(kHeader).find("no measured rows"), std::string::npos);
}

TEST(MeasuredCsv, NcuRawCsvTakesTheConfigurationFromTheCaller) {
    const std::string text =
        "==PROF== Connected to process\n"
        "\"ID\",\"Kernel Name\",\"Block Size\",\"Device Name\",\"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum\","
        "\"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum\",\"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum\","
        "\"l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct\",\"lts__t_sectors_srcunit_tex_op_read.sum\","
        "\"lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum\",\"dram__bytes_read.sum\"\n"
        "\"\",\"\",\"\",\"\",\"request\",\"sector\",\"sector\",\"%\",\"sector\",\"sector\",\"byte\"\n"
        "\"0\",\"stencil_kernel\",\"(128, 1, 1)\",\"NVIDIA H200\",\"1,024\",\"4,096\",\"2,048\",\"50\",\"100\",\"90\",\"3,200\"\n"
        "\"1\",\"stencil_kernel\",\"(256, 1, 1)\",\"NVIDIA H200\",\"1,024\",\"4,096\",\"3,072\",\"75\",\"100\",\"80\",\"3,200\"\n";
    WorkloadSpec base;
    base.width = base.height = 64;
    const auto runs = parse_ncu_raw_csv(text, "n.csv", base, {parse_schedule("linear"), parse_schedule("column:8")});
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[0].block, 128u);
    EXPECT_EQ(runs[1].block, 256u);
    EXPECT_EQ(schedule_name(runs[1].workload.schedule), "column:8");
    EXPECT_DOUBLE_EQ(runs[0].metrics.l1_sectors, 4096);
    EXPECT_TRUE(looks_like_ncu_csv(text));
    EXPECT_THROW(parse_ncu_raw_csv(text, "n.csv", base, {parse_schedule("linear"), parse_schedule("linear"),
                                                       parse_schedule("linear")}),
                 InputError);
    std::string scaled = text;
    scaled.replace(scaled.find("\"byte\""), 6, "\"Mbyte\"");
    try {
        parse_ncu_raw_csv(scaled, "n.csv", base, {parse_schedule("linear")});
        FAIL() << "scaled units accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("--print-units base"), std::string::npos);
    }
}

}  // namespace
}  // namespace cachesim
