// The measured-CSV readers of `cachesim compare`: gpubench's rows and Nsight Compute's raw CSV,
// and every bad row named by line and column.
#include <gtest/gtest.h>

#include "tests/measured_csv_test_util.hpp"
#include "traces/input_error.hpp"
#include "traces/measured_csv.hpp"

namespace cachesim {
namespace {

using test::header_with;
const std::string& kHeader = test::kMeasuredHeader;

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

// A real `ncu --csv --page raw` names the GPU in device__attribute_display_name; "Device" is the
// device's index, no name.
const std::string kNcuHeader =
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\","
    "\"Grid Size\",\"Device\",\"CC\",\"device__attribute_display_name\",\"dram__bytes_read.sum\","
    "\"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum\",\"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum\","
    "\"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum\","
    "\"l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct\",\"lts__t_sectors_srcunit_tex_op_read.sum\","
    "\"lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum\",\"lts__t_sector_op_read_hit_rate.pct\"\n"
    "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"byte\",\"request\",\"sector\",\"sector\",\"%\","
    "\"sector\",\"sector\",\"%\"\n";

// One launch of kNcuHeader, with the given L1 requests, sectors, hits and rate cells.
std::string ncu_row(const std::string& requests, const std::string& sectors, const std::string& hits,
                    const std::string& rate) {
    return "\"0\",\"1234\",\"app\",\"host\",\"void stencil(float const*, float*)\",\"1\",\"7\",\"(256, 1, 1)\","
           "\"(16, 1, 1)\",\"0\",\"8.0\",\"NVIDIA A100-SXM4-40GB\",\"32,768\",\"" + requests + "\",\"" + sectors +
           "\",\"" + hits + "\",\"" + rate + "\",\"1,136\",\"176\",\"15.49\"\n";
}

std::vector<MeasuredRun> parse_ncu(const std::string& text) {
    WorkloadSpec base;
    base.width = base.height = 64;
    return parse_ncu_raw_csv(text, "n.csv", base, {parse_schedule("linear")});
}

std::string ncu_error(const std::string& text) {
    try {
        parse_ncu(text);
    } catch (const InputError& e) {
        return e.what();
    }
    return "(no error)";
}

TEST(MeasuredCsv, NcuRawCsvNamesItsGpuInTheDisplayNameColumn) {
    const auto runs = parse_ncu(kNcuHeader + ncu_row("1,152", "4,992", "4,240", "84.94"));
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].gpu, "NVIDIA A100-SXM4-40GB");  // not the index "0" of "Device"
    EXPECT_EQ(runs[0].line, 3u);
    EXPECT_DOUBLE_EQ(runs[0].metrics.l1_requests, 1152);
    EXPECT_DOUBLE_EQ(runs[0].metrics.l1_sectors, 4992);
    EXPECT_DOUBLE_EQ(runs[0].metrics.l1_sector_hits, 4240);
    EXPECT_DOUBLE_EQ(runs[0].metrics.l1_hit_rate_pct, 84.94);
    EXPECT_DOUBLE_EQ(runs[0].metrics.dram_bytes_read, 32768);
    EXPECT_DOUBLE_EQ(runs[0].metrics.l2_hit_rate_pct(), 15.49);
    // Without either name column the rows name no GPU, the index notwithstanding.
    std::string unnamed = kNcuHeader + ncu_row("1,152", "4,992", "4,240", "84.94");
    unnamed.replace(unnamed.find("device__attribute_display_name"), 30, "device__attribute_chip");
    EXPECT_EQ(parse_ncu(unnamed)[0].gpu, "");
}

TEST(MeasuredCsv, ThousandsSeparatorsOnlyInWholeGroups) {
    const std::string header = header_with("lts__t_sector_op_read_hit_rate.pct");
    const auto runs = parse_measured_csv(
        header + "matmul,64,32,0,0,16,linear,128,4,g,1,10,\"12,345,678\",\"6,172,839\",50,\"1,000\",\"999\","
                 "\"1,234,567\",\"1,234.5\"\n",
        "m.csv");
    EXPECT_DOUBLE_EQ(runs[0].metrics.l1_sectors, 12345678);
    EXPECT_DOUBLE_EQ(runs[0].metrics.l1_sector_hits, 6172839);
    EXPECT_DOUBLE_EQ(runs[0].metrics.l2_sectors, 1000);
    EXPECT_DOUBLE_EQ(runs[0].metrics.dram_bytes_read, 1234567);
    EXPECT_DOUBLE_EQ(*runs[0].metrics.l2_read_hit_rate_pct, 1234.5);
    EXPECT_DOUBLE_EQ(runs[0].metrics.l2_hit_rate_pct(), 100.0);
    // A decimal comma, in a rate or in a count, is not a thousands separator: never 8494 or 49925.
    std::string error = ncu_error(kNcuHeader + ncu_row("1,152", "4,992", "4,240", "84,94"));
    EXPECT_NE(error.find("n.csv:3, column 'l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct': '84,94' is not a "
                         "number (a decimal comma? write 84.94"),
              std::string::npos)
        << error;
    error = ncu_error(kNcuHeader + ncu_row("1,152", "4992,5", "4,240", "84.94"));
    EXPECT_NE(error.find("n.csv:3, column 'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum': '4992,5' is not a number "
                         "(a decimal comma?"),
              std::string::npos)
        << error;
    // Misplaced groups, empty groups, a comma in the fraction: no number, and no decimal-comma guess
    // where none fits.
    const std::string row = ncu_row("1,152", "4,992", "4,240", "84.94");
    auto with_dram = [&](const std::string& cell) {
        return kNcuHeader + std::string(row).replace(row.find("\"32,768\""), 8, "\"" + cell + "\"");
    };
    for (const std::string bad : {"12,34,567", ",123", "123,", "1,,234", "1,234.567,8", "1.5,0", "1,23,4"}) {
        error = ncu_error(with_dram(bad));
        EXPECT_NE(error.find("n.csv:3, column 'dram__bytes_read.sum': '" + bad + "' is not a number (a comma may only "
                             "separate thousands, as in 1,234 or 12,345,678)"),
                  std::string::npos)
            << bad << ": " << error;
    }
    error = ncu_error(with_dram("1234,567"));  // a first group of four digits
    EXPECT_NE(error.find("'1234,567' is not a number (a decimal comma? write 1234.567"), std::string::npos) << error;
    EXPECT_DOUBLE_EQ(parse_ncu(with_dram("999"))[0].metrics.dram_bytes_read, 999);
    // Blanks around a number are no part of it; within, they are.
    EXPECT_DOUBLE_EQ(parse_ncu(kNcuHeader + ncu_row(" 1,152 ", "4,992", "4,240", "84.94"))[0].metrics.l1_requests, 1152);
    error = ncu_error(kNcuHeader + ncu_row("1 152", "4,992", "4,240", "84.94"));
    EXPECT_NE(error.find("'1 152' is not a number"), std::string::npos) << error;
}

TEST(MeasuredCsv, CountsMustBeWhole) {
    std::string error = ncu_error(kNcuHeader + ncu_row("1152.5", "4,992", "4,240", "84.94"));
    EXPECT_NE(error.find("n.csv:3, column 'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum': '1152.5' is not a whole "
                         "number"),
              std::string::npos)
        << error;
    error = test::measured_csv_error(kHeader + "stencil,64,32,3,5,0,linear,128,4,g,0.25,10,40,30,75,20,15,2048.5\n");
    EXPECT_NE(error.find("m.csv:2, column 'dram__bytes_read.sum': '2048.5' is not a whole number"), std::string::npos)
        << error;
    error = test::measured_csv_error(kHeader + "stencil,64,32,3,5,0,linear,128,4,g,0.25,10,40,30,75,20.25,15,2048\n");
    EXPECT_NE(error.find("column 'lts__t_sectors_srcunit_tex_op_read.sum': '20.25' is not a whole number"),
              std::string::npos)
        << error;
    // A whole count written with decimals is whole; rates and times may be fractional.
    const auto runs = parse_ncu(kNcuHeader + ncu_row("1152.0", "4,992.00", "4,240", "84.935"));
    EXPECT_DOUBLE_EQ(runs[0].metrics.l1_requests, 1152);
    EXPECT_DOUBLE_EQ(runs[0].metrics.l1_sectors, 4992);
    EXPECT_DOUBLE_EQ(runs[0].metrics.l1_hit_rate_pct, 84.935);
    EXPECT_DOUBLE_EQ(*parse_measured_csv(kHeader + "stencil,64,32,3,5,0,linear,128,4,g,0.125,10,40,30,75,20,15,2048\n",
                                         "m.csv")[0].time_ms,
                     0.125);
}

// 4240 hits of 4992 sectors are 84.94%: a rate column saying otherwise contradicts its own row.
TEST(MeasuredCsv, AHitRateContradictingItsCountsIsRefused) {
    std::string error = ncu_error(kNcuHeader + ncu_row("1,152", "4,992", "4,240", "20.00"));
    EXPECT_NE(error.find("n.csv:3: inconsistent counters: l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct "
                         "20.00% but l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum 4240 of "
                         "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum 4992 give 84.94% (more than 0.50 points "
                         "apart)"),
              std::string::npos)
        << error;
    EXPECT_THROW(parse_ncu(kNcuHeader + ncu_row("1,152", "4,992", "4,240", "20.00")), InconsistentCountersError);
    // Within rounding (84.9359...: ncu prints 84.94; 0.5 points either way) the row stands.
    EXPECT_NO_THROW(parse_ncu(kNcuHeader + ncu_row("1,152", "4,992", "4,240", "85.43")));
    EXPECT_NO_THROW(parse_ncu(kNcuHeader + ncu_row("1,152", "4,992", "4,240", "84.44")));
    EXPECT_THROW(parse_ncu(kNcuHeader + ncu_row("1,152", "4,992", "4,240", "85.44")), InconsistentCountersError);
    EXPECT_THROW(parse_ncu(kNcuHeader + ncu_row("1,152", "4,992", "4,240", "84.43")), InconsistentCountersError);
    // No sectors: no rate to hold the column to.
    EXPECT_NO_THROW(parse_ncu(kNcuHeader + ncu_row("0", "0", "0", "0")));
    // With `invalid`, the row is left out and listed instead.
    WorkloadSpec base;
    base.width = base.height = 64;
    std::vector<InvalidMeasuredRow> invalid;
    const auto runs = parse_ncu_raw_csv(kNcuHeader + ncu_row("1,152", "4,992", "4,240", "20.00") +
                                            ncu_row("1,152", "4,992", "4,240", "84.94"),
                                        "n.csv", base, {parse_schedule("linear")}, &invalid);
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].line, 4u);
    ASSERT_EQ(invalid.size(), 1u);
    EXPECT_EQ(invalid[0].line, 3u);
    EXPECT_NE(invalid[0].reason.find("give 84.94%"), std::string::npos) << invalid[0].reason;
    // gpubench's rows alike: 30 of 40 sectors are 75%, not 60.
    error = test::measured_csv_error(kHeader + "stencil,64,32,3,5,0,linear,128,4,g,1,10,40,30,60,20,15,2048\n");
    EXPECT_NE(error.find("m.csv:2: inconsistent counters: l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct "
                         "60.00% but l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum 30 of "
                         "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum 40 give 75.00%"),
              std::string::npos)
        << error;
}

// A median rate over repeated launches (a row with its :min/:max) may come from another run than
// the counts beside it (merge_profile_runs.py): up to 10 points apart is taken as the launches'
// variation; more is a contradiction still.
TEST(MeasuredCsv, AMedianRateMayLieFurtherFromItsCounts) {
    const std::string header = header_with(
        "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct:min,"
        "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct:max");
    const std::string row = "stencil,64,32,3,5,0,linear,128,4,g,1,10,40,30,";  // 30 of 40: 75%
    EXPECT_NO_THROW(parse_measured_csv(header + row + "80,20,15,2048,79,81\n", "m.csv"));
    EXPECT_NO_THROW(parse_measured_csv(header + row + "85,20,15,2048,84,86\n", "m.csv"));
    const std::string error = test::measured_csv_error(header + row + "85.5,20,15,2048,84,86\n");
    EXPECT_NE(error.find("85.50% but l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum 30 of "
                         "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum 40 give 75.00% (more than 10.00 points apart)"),
              std::string::npos)
        << error;
}

// The single-pass L2 rate counts reads from every source: it is held to the all-source counts when
// the file has them (with the 10 points separate passes allow), never to the tex-only counts.
TEST(MeasuredCsv, TheL2RateIsHeldOnlyToTheAllSourceCounts) {
    // tex-only: 15 of 20 (75%), far from the rate; no all-source counts: not checked.
    const std::string rate_header = header_with("lts__t_sector_op_read_hit_rate.pct");
    EXPECT_NO_THROW(parse_measured_csv(rate_header + "stencil,64,32,3,5,0,linear,128,4,g,1,10,40,30,75,20,15,2048,40\n",
                                       "m.csv"));
    const std::string header =
        header_with("lts__t_sector_op_read_hit_rate.pct,lts__t_sectors_op_read.sum,lts__t_sectors_op_read_lookup_hit.sum");
    const std::string row = "stencil,64,32,3,5,0,linear,128,4,g,1,10,40,30,75,20,15,2048,";
    const auto runs = parse_measured_csv(header + row + "40,\"1,000\",490\n", "m.csv");  // 49%
    EXPECT_DOUBLE_EQ(runs[0].metrics.l2_hit_rate_pct(), 40.0);
    EXPECT_NO_THROW(parse_measured_csv(header + row + "40,1000,500\n", "m.csv"));  // 50%: 10 points
    std::string error = test::measured_csv_error(header + row + "40,1000,501\n");
    EXPECT_NE(error.find("m.csv:2: inconsistent counters: lts__t_sector_op_read_hit_rate.pct 40.00% but "
                         "lts__t_sectors_op_read_lookup_hit.sum 501 of lts__t_sectors_op_read.sum 1000 give 50.10% "
                         "(more than 10.00 points apart)"),
              std::string::npos)
        << error;
    // Empty all-source cells: not checked; fractional ones: refused as counts.
    EXPECT_NO_THROW(parse_measured_csv(header + row + "40,,\n", "m.csv"));
    error = test::measured_csv_error(header + row + "40,1000,490.5\n");
    EXPECT_NE(error.find("column 'lts__t_sectors_op_read_lookup_hit.sum': '490.5' is not a whole number"),
              std::string::npos)
        << error;
}

// The grid an Nsight Compute launch ran says whether it can have computed the workload given,
// one thread per work item: a (n, 1, 1) grid of (b, 1, 1) blocks runs ceil(items / b) blocks
// exactly; any other shape at least as many threads as items.
TEST(MeasuredCsv, NcuLaunchOfAnotherSizeIsNamed) {
    MeasuredRun run;
    run.workload.width = run.workload.height = 64;  // 4,096 items
    run.block = 256;
    EXPECT_EQ(ncu_launch_size_mismatch(run), "");  // no grid on the page
    run.grid_blocks = 16;                          // 16 x 256 = 4,096
    run.one_dimensional_launch = true;
    EXPECT_EQ(ncu_launch_size_mismatch(run), "");
    run.grid_blocks = 64;
    EXPECT_EQ(ncu_launch_size_mismatch(run), "the launch ran 64 blocks of 256 threads, where 64x64 work items take 16 such blocks");
    run.grid_blocks = 17;  // one block more than a 1D launch takes
    EXPECT_NE(ncu_launch_size_mismatch(run), "");
    // 70 x 70 = 4,900 items in 16 x 16 tiles, a 5 x 5 grid: 6,400 threads, padded to whole tiles.
    run.workload.width = run.workload.height = 70;
    run.grid_blocks = 25;
    run.one_dimensional_launch = false;
    EXPECT_EQ(ncu_launch_size_mismatch(run), "");
    run.grid_blocks = 16;  // 4,096 threads cannot cover 4,900 items
    EXPECT_EQ(ncu_launch_size_mismatch(run), "the launch ran 16 blocks of 256 threads, where 70x70 work items take 20 such blocks");
    // Read from the page: "(16, 1, 1)" blocks of "(256, 1, 1)".
    const auto runs = parse_ncu(kNcuHeader + ncu_row("1,152", "4,992", "4,240", "84.94"));
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].grid_blocks, 16u);
    EXPECT_TRUE(runs[0].one_dimensional_launch);
    EXPECT_EQ(ncu_launch_size_mismatch(runs[0]), "");
}

}  // namespace
}  // namespace cachesim
