// gpubench --counters cupti adds '<metric>:min' and '<metric>:max' columns after the medians; the
// measured-CSV reader looks columns up by name, so it must keep reading the medians, on a
// hand-made row and on the committed H200 spread measurements (tests/data/h200/*_spread.csv).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "traces/input_error.hpp"
#include "traces/measured_csv.hpp"

namespace cachesim {
namespace {

const std::vector<std::string> kMetrics = {
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
    "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct",
    "lts__t_sectors_srcunit_tex_op_read.sum",
    "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
    "lts__t_sector_op_read_hit_rate.pct",
    "dram__bytes_read.sum",
};

std::string read_file(const std::string& path) {
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string data_file(const std::string& name) { return std::string(CACHESIM_TEST_DATA_DIR) + "/h200/" + name; }

const MeasuredRun* find(const std::vector<MeasuredRun>& runs, const std::string& schedule, std::uint32_t block) {
    for (const MeasuredRun& r : runs)
        if (schedule_name(r.workload.schedule) == schedule && r.block == block) return &r;
    return nullptr;
}

TEST(MeasuredCsvSpreadColumns, MediansAreReadNotTheMinOrMax) {
    std::string header = "kernel,width,height,stencil_w,stencil_h,depth,schedule,block,elem_bytes,gpu,time_ms";
    for (const std::string& m : kMetrics) header += "," + m;
    for (const std::string& m : kMetrics) header += "," + m + ":min," + m + ":max";
    // Medians 10,40,30,75,20,15,96.5,2048; every min is the median minus 1, every max plus 1.
    const std::string row =
        "matmul,64,32,0,0,16,linear,128,4,g,1,10,40,30,75,20,15,96.5,2048,"
        "9,11,39,41,29,31,74,76,19,21,14,16,95.5,97.5,2047,2049";
    const auto runs = parse_measured_csv(header + "\n" + row + "\n", "spread.csv");
    ASSERT_EQ(runs.size(), 1u);
    const MeasuredMetrics& m = runs[0].metrics;
    EXPECT_DOUBLE_EQ(m.l1_requests, 10);
    EXPECT_DOUBLE_EQ(m.l1_sectors, 40);
    EXPECT_DOUBLE_EQ(m.l1_sector_hits, 30);
    EXPECT_DOUBLE_EQ(m.l1_hit_rate_pct, 75);
    EXPECT_DOUBLE_EQ(m.l2_sectors, 20);
    EXPECT_DOUBLE_EQ(m.l2_sector_hits, 15);
    EXPECT_DOUBLE_EQ(m.l2_hit_rate_pct(), 96.5);
    EXPECT_DOUBLE_EQ(m.dram_bytes_read, 2048);
}

TEST(MeasuredCsvSpreadColumns, HitRateRangesAreReadAndMustContainTheMedian) {
    std::string header = "kernel,width,height,stencil_w,stencil_h,depth,schedule,block,elem_bytes,gpu,time_ms";
    for (const std::string& m : kMetrics) header += "," + m;
    header += ",l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct:min"
              ",l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct:max"
              ",lts__t_sector_op_read_hit_rate.pct:min,lts__t_sector_op_read_hit_rate.pct:max\n";
    const std::string medians = "matmul,64,32,0,0,16,linear,128,4,g,1,10,40,30,75,20,15,96.5,2048,";
    const auto runs = parse_measured_csv(header + medians + "73.5,76,94,104.5\n", "spread.csv");
    const MeasuredMetrics& m = runs[0].metrics;
    ASSERT_TRUE(m.l1_hit_rate_range && m.l2_hit_rate_range);
    EXPECT_DOUBLE_EQ(m.l1_hit_rate_range->min, 73.5);
    EXPECT_DOUBLE_EQ(m.l1_hit_rate_range->max, 76);
    EXPECT_DOUBLE_EQ(m.l2_hit_rate_range->min, 94);
    EXPECT_DOUBLE_EQ(m.l2_hit_rate_range->max, 100);  // capped like the rate itself
    EXPECT_DOUBLE_EQ(m.l2_read_hit_rate_top_pct, 104.5);  // the range's top before the capping
    EXPECT_DOUBLE_EQ(m.l1_hit_rate_range->distance(70), 3.5);
    EXPECT_DOUBLE_EQ(m.l1_hit_rate_range->distance(75.9), 0);
    EXPECT_DOUBLE_EQ(m.l1_hit_rate_range->distance(80), 4);

    // Empty range cells: no range. A range that leaves out the median: the cell is named.
    EXPECT_FALSE(parse_measured_csv(header + medians + ",,,\n", "spread.csv")[0].metrics.l1_hit_rate_range);
    try {
        parse_measured_csv(header + medians + "76,80,94,99\n", "spread.csv");
        FAIL() << "a range above its median was accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find(
                      "spread.csv:2, column 'l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct:min': the range "
                      "[76, 80] does not contain the median"),
                  std::string::npos)
            << e.what();
    }
}

TEST(MeasuredCsvSpreadColumns, CommittedH200SpreadFilesReadTheirMedians) {
    const auto stencil = parse_measured_csv(read_file(data_file("fidelity_stencil_spread.csv")), "stencil");
    const auto matmul = parse_measured_csv(read_file(data_file("fidelity_matmul_spread.csv")), "matmul");
    ASSERT_EQ(stencil.size(), 54u);  // 9x9 and 3x3 x 9 schedules x 3 block sizes
    ASSERT_EQ(matmul.size(), 27u);

    // The naive matmul's sector identity (N*N/32 warps x D steps x (1 + 4) sectors in 2 requests,
    // N = D = 1024) and the 9x9 stencil's requests (4096*4096/32 warps x 81 loads), as the H200
    // counts them; the hit rate and the stencil's sectors are the file's medians.
    const MeasuredRun* naive = find(matmul, "linear", 128);
    ASSERT_NE(naive, nullptr);
    EXPECT_DOUBLE_EQ(naive->metrics.l1_sectors, 1024.0 * 1024 / 32 * 1024 * 5);
    EXPECT_DOUBLE_EQ(naive->metrics.l1_requests, 1024.0 * 1024 / 32 * 1024 * 2);
    EXPECT_DOUBLE_EQ(naive->metrics.l1_hit_rate_pct, 54.994702);  // median; the row's min is 53.940281
    const MeasuredRun* blur = find(stencil, "linear", 128);
    ASSERT_NE(blur, nullptr);
    EXPECT_EQ(blur->workload.stencil_w, 9u);
    EXPECT_DOUBLE_EQ(blur->metrics.l1_requests, 4096.0 * 4096 / 32 * 81);
    EXPECT_DOUBLE_EQ(blur->metrics.l1_sectors, 207323136);

    // matmul column:128 block 256: median 100.706171 (min 73.09, max 122.19), capped at 100.
    const MeasuredRun* wide = find(matmul, "column:128", 256);
    ASSERT_NE(wide, nullptr);
    ASSERT_TRUE(wide->metrics.l2_read_hit_rate_pct.has_value());
    EXPECT_DOUBLE_EQ(*wide->metrics.l2_read_hit_rate_pct, 100.706171);
    EXPECT_DOUBLE_EQ(wide->metrics.l2_hit_rate_pct(), 100.0);
    ASSERT_TRUE(wide->metrics.l2_hit_rate_range.has_value());
    EXPECT_DOUBLE_EQ(wide->metrics.l2_hit_rate_range->max, 100.0);
    EXPECT_NEAR(wide->metrics.l2_read_hit_rate_top_pct, 122.19, 0.01);  // the file's max, not capped
    for (const auto* runs : {&stencil, &matmul})
        for (const MeasuredRun& r : *runs) EXPECT_TRUE(r.metrics.l1_hit_rate_range && r.metrics.l2_hit_rate_range);
}

}  // namespace
}  // namespace cachesim
