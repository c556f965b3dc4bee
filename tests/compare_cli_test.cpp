// cachesim compare end to end on subsets of the real H200 measurements in tests/data/h200. What
// the command reports is checked against the measured file itself (read by a plain CSV reader,
// not the program's) and against the GPU model run directly through the library with the same
// preset: the command must join each measured row with that simulation and report their
// difference. The model's fidelity is checked against the targets it is held to (L1 within 3 pp,
// L2 within 5 pp of the H200), not against the model's own earlier output.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <vector>

#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "tests/cli_util.hpp"
#include "tests/csv_table.hpp"
#include "traces/workload_spec.hpp"

namespace cachesim {
namespace {

const std::string kL1Rate = "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct";
const std::string kL1Sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
const std::string kL1Hits = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum";
const std::string kL2Reads = "lts__t_sectors_srcunit_tex_op_read.sum";
const std::string kL2ReadHits = "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum";
// One pass over all L2 read lookups on the H200; compare takes the simulated L2 rate over the
// same lookups (near and far) when the file has it, as the fidelity files do.
const std::string kL2Rate = "lts__t_sector_op_read_hit_rate.pct";

// The workload of one row of a measured file.
WorkloadSpec workload_of(const test::CsvTable& t, std::size_t row) {
    WorkloadSpec w;
    w.kind = t.at(row, "kernel") == "matmul" ? WorkloadKind::matmul : WorkloadKind::stencil;
    w.width = static_cast<std::uint32_t>(t.number(row, "width"));
    w.height = static_cast<std::uint32_t>(t.number(row, "height"));
    if (w.kind == WorkloadKind::stencil) {
        w.stencil_w = static_cast<std::uint32_t>(t.number(row, "stencil_w"));
        w.stencil_h = static_cast<std::uint32_t>(t.number(row, "stencil_h"));
    } else {
        w.depth = static_cast<std::uint32_t>(t.number(row, "depth"));
    }
    w.schedule = parse_schedule(t.at(row, "schedule"));
    return w;
}

// The one row of `file` that matches; fails the test if there is not exactly one.
std::size_t only_row(const test::CsvTable& t, const std::vector<std::pair<std::string, std::string>>& match) {
    const std::vector<std::size_t> rows = t.where(match);
    EXPECT_EQ(rows.size(), 1u);
    return rows.empty() ? 0 : rows[0];
}

// The h200 preset's model of a measured row, run through the library.
GpuResult simulate_row(const test::CsvTable& t, std::size_t row, GpuConfig config = find_gpu_preset("h200")->config) {
    config.block = static_cast<std::uint32_t>(t.number(row, "block"));
    return simulate_gpu_model(workload_of(t, row), config);
}

std::string fixed(double v, int decimals, int width = 0) {
    char b[64];
    std::snprintf(b, sizeof b, "%*.*f", width, decimals, v);
    return b;
}

// The table's L2 columns as compare prints them: measured, simulated, simulated - measured.
std::string l2_columns(double measured, double simulated) {
    return "| " + fixed(measured, 2, 8) + fixed(simulated, 2, 8) + fixed(simulated - measured, 2, 8) + " |";
}

// Naive matmul 1024 x 1024 x 1024, linear, block 128 (fidelity_matmul.csv). The simulation is
// the command's (GpuOverridesTheModelOfThePreset checks it against the library's on a cheaper
// launch); what it reports of it must agree with itself, the file and the 3 pp target.
TEST(CompareCli, RealH200MeasurementsSubset) {
    const std::string file = test::h200_data("fidelity_matmul.csv");
    const test::CsvTable measured = test::CsvTable::from_file(file);
    const std::size_t row = only_row(measured, {{"kernel", "matmul"}, {"schedule", "linear"}, {"block", "128"}});
    const double hw_l1 = measured.number(row, kL1Rate);

    const auto dir = test::temp_dir();
    const auto r = test::run_cachesim("compare --measured '" + file + "' --where schedule=linear --where block=128 --out '" +
                                      (dir / "joined.csv").string() + "' --plot '" + (dir / "plot.png").string() +
                                      "' --no-progress");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("matmul 1024x1024 d1024"), std::string::npos) << r.out;
    const test::CsvTable joined = test::CsvTable::from_file((dir / "joined.csv").string());
    ASSERT_EQ(joined.rows(), 1u);
    EXPECT_EQ(joined.at(0, "preset"), "h200");
    EXPECT_EQ(joined.number(0, "line"), static_cast<double>(row + 2));  // the file's line (the header is 1)

    // Request and sector counts follow from coalescing alone: per warp and k one broadcast sector
    // of A and four of B, so N*N/32 warps x D x 5 sectors, on the H200 and in the model alike.
    const double identity = 1024.0 * 1024 / 32 * 1024 * 5;
    EXPECT_EQ(measured.number(row, kL1Sectors), identity);
    EXPECT_EQ(joined.number(0, "simulated:" + kL1Sectors), identity);
    EXPECT_NE(r.out.find("L1 global-load sectors equal to the hardware's: 1/1"), std::string::npos) << r.out;

    // The measured side as in the file; the simulated rate as its own counts give it.
    for (const std::string& metric : {kL1Sectors, kL1Hits, kL2Reads, kL2ReadHits})
        EXPECT_EQ(joined.number(0, "measured:" + metric), measured.number(row, metric)) << metric;
    EXPECT_NEAR(joined.number(0, "measured:" + kL1Rate), hw_l1, 5e-5);
    const double sim_l1 = joined.number(0, "simulated:" + kL1Rate);
    EXPECT_NEAR(sim_l1, 100 * joined.number(0, "simulated:" + kL1Hits) / identity, 5e-5);
    EXPECT_NEAR(joined.number(0, "l1_hit_rate_error_pp"), sim_l1 - hw_l1, 1e-4);

    // One run: the mean and the worst |error| are both |simulated - measured|. The target for this
    // row is 3 pp (the h200 preset's warps drift apart, at rates drawn afresh every 32 requests and
    // blocks starting up to 8 turns apart; in lock step the model is far too high).
    const double error = std::abs(sim_l1 - hw_l1);
    EXPECT_LT(error, 3.0) << "simulated " << sim_l1 << ", H200 " << hw_l1;
    const std::string summary = "L1 hit rate |error| mean ";
    const std::size_t at = r.out.find(summary);
    ASSERT_NE(at, std::string::npos) << r.out;
    std::size_t used = 0;
    const double mean = std::stod(r.out.substr(at + summary.size()), &used);
    const std::string rest = r.out.substr(at + summary.size() + used);
    ASSERT_EQ(rest.rfind(" pp, worst ", 0), 0u) << rest;
    const double worst = std::stod(rest.substr(11));
    EXPECT_NEAR(mean, error, 0.0051);  // printed to 2 decimals
    EXPECT_NEAR(worst, error, 0.0051);
    EXPECT_NE(r.out.find(" pp, within 3 pp: 1/1"), std::string::npos) << r.out;

    const std::string png = test::read_file(dir / "plot.png");
    ASSERT_GT(png.size(), 8u);
    EXPECT_EQ(png.substr(1, 3), "PNG");
}

TEST(CompareCli, SpreadFileReportsTheRunToRunRange) {
    const std::string file = test::h200_data("fidelity_matmul_spread.csv");
    const test::CsvTable measured = test::CsvTable::from_file(file);
    const std::size_t row = only_row(measured, {{"kernel", "matmul"}, {"schedule", "morton"}, {"block", "1024"}});
    const auto dir = test::temp_dir();
    const auto r = test::run_cachesim("compare --measured '" + file + "' --where schedule=morton --where block=1024 --out '" +
                                      (dir / "joined.csv").string() + "' --plot none --no-progress");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // morton, block 1024: the model's L1 rate lies within 3 pp of the H200's range over its launches.
    EXPECT_NE(r.out.find("run-to-run range (min..max over the profiled launches, 1 run): L1 within 3 pp of it: 1/1"),
              std::string::npos) << r.out;
    // The range columns carry the file's min and max.
    const test::CsvTable joined = test::CsvTable::from_file((dir / "joined.csv").string());
    ASSERT_EQ(joined.rows(), 1u);
    const double lo = measured.number(row, kL1Rate + ":min"), hi = measured.number(row, kL1Rate + ":max");
    ASSERT_LT(lo, hi);
    EXPECT_NEAR(joined.number(0, "measured:l1_hit_rate.pct:min"), lo, 5e-5);
    EXPECT_NEAR(joined.number(0, "measured:l1_hit_rate.pct:max"), hi, 5e-5);
    const double l2_hi = std::min(100.0, measured.number(row, kL2Rate + ":max"));
    EXPECT_NEAR(joined.number(0, "measured:l2_hit_rate.pct:max"), l2_hi, 5e-5);
    // And the 3 pp claim holds for the simulated rate the joined file reports.
    const double sim = joined.number(0, "simulated:" + kL1Rate);
    EXPECT_LE(std::max({lo - sim, sim - hi, 0.0}), 3.0) << sim << " against [" << lo << ", " << hi << "]";
}

// 3x3 stencil, block 1024: linear, column:8 and column:16. The pairs whose run-to-run ranges
// are apart are counted from the file; the model must order all of them as the H200 does.
TEST(CompareCli, CountsTheScheduleOrdersTheHardwareRepeats) {
    const std::string file = test::h200_data("fidelity_stencil_spread.csv");
    const test::CsvTable measured = test::CsvTable::from_file(file);
    // --rows 30-36 counts data rows from 1: rows 29..35 here, among the file's 3x3 launches.
    std::vector<std::size_t> rows;
    for (std::size_t row = 29; row <= 35; ++row)
        if (measured.at(row, "block") == "1024") rows.push_back(row);
    ASSERT_EQ(rows.size(), 3u);
    auto apart = [&](const std::string& metric) {
        std::size_t pairs = 0;
        for (std::size_t i = 0; i < rows.size(); ++i)
            for (std::size_t j = i + 1; j < rows.size(); ++j) {
                const double lo_i = measured.number(rows[i], metric + ":min"), hi_i = measured.number(rows[i], metric + ":max");
                const double lo_j = measured.number(rows[j], metric + ":min"), hi_j = measured.number(rows[j], metric + ":max");
                pairs += hi_i < lo_j || hi_j < lo_i;
            }
        return pairs;
    };
    const std::size_t l1_pairs = apart(kL1Rate), l2_pairs = apart(kL2Rate);
    EXPECT_GT(l1_pairs + l2_pairs, 0u);  // otherwise there is nothing to count
    const auto r = test::run_cachesim("compare --measured '" + file +
                                      "' --rows 30-36 --where block=1024 --out none --plot none --no-progress");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string l1 = std::to_string(l1_pairs), l2 = std::to_string(l2_pairs);
    EXPECT_NE(r.out.find("orders repeatably (run-to-run ranges apart), simulated in the same order: L1 " + l1 + "/" + l1 +
                         ", L2 " + l2 + "/" + l2),
              std::string::npos)
        << r.out;
}

// --gpu KEY=VALUE changes the preset's model as cachesim simulate's --KEY=VALUE would: 3x3
// column:32 at block 128, with the h200 preset and with one request per turn and blocks starting
// together (--gpu issue-burst=1 --gpu block-start-skip=0). Each table row must be the library's
// simulation with the same change, against the file's measured L2 rate.
TEST(CompareCli, GpuOverridesTheModelOfThePreset) {
    const std::string file = test::h200_data("fidelity_stencil_spread.csv");
    const test::CsvTable measured = test::CsvTable::from_file(file);
    const std::size_t row = only_row(measured, {{"kernel", "stencil"}, {"stencil_w", "3"}, {"schedule", "column:32"}, {"block", "128"}});
    const double hw_l2 = std::min(100.0, measured.number(row, kL2Rate));
    GpuConfig plain_config = find_gpu_preset("h200")->config;
    plain_config.issue_burst = 1;
    plain_config.block_start_skip = 0;
    const double preset_l2 = simulate_row(measured, row).ncu.l2_read_hit_rate_pct();
    const double plain_l2 = simulate_row(measured, row, plain_config).ncu.l2_read_hit_rate_pct();
    // The override must make a difference that the table shows, or this test proves nothing.
    ASSERT_NE(fixed(preset_l2, 2), fixed(plain_l2, 2));
    EXPECT_LT(std::abs(preset_l2 - hw_l2), 5.0) << "the h200 preset against the H200";

    const auto dir = test::temp_dir();
    const std::string base = "compare --measured '" + file + "' --where stencil=3x3 "
                             "--where schedule=column:32 --where block=128 --plot none --no-progress";
    const auto preset = test::run_cachesim(base + " --out none");
    ASSERT_EQ(preset.exit_code, 0) << preset.err;
    EXPECT_NE(preset.out.find(l2_columns(hw_l2, preset_l2)), std::string::npos) << preset.out;
    const auto same = test::run_cachesim(base + " --out none --gpu seed=1");  // the preset's own value
    EXPECT_EQ(find_gpu_preset("h200")->config.seed, 1u);
    // The same report but its first line, which names the model with its overrides.
    const auto table = [](const std::string& report) { return report.substr(report.find('\n')); };
    EXPECT_EQ(table(same.out), table(preset.out));
    EXPECT_EQ(same.out.substr(0, same.out.find('\n')), "GPU model: h200 seed=1; rows measured on NVIDIA H200 (1 row)");
    const auto plain = test::run_cachesim(base + " --out '" + (dir / "joined.csv").string() +
                                          "' --gpu issue-burst=1 --gpu block-start-skip=0");
    ASSERT_EQ(plain.exit_code, 0) << plain.err;
    EXPECT_NE(plain.out.find(l2_columns(hw_l2, plain_l2)), std::string::npos) << plain.out;
    EXPECT_NE(test::read_file(dir / "joined.csv").find(",h200 issue-burst=1 block-start-skip=0,"), std::string::npos);
    const struct {
        const char* gpu;
        const char* message;
    } bad[] = {{"nosuch=1", "--gpu nosuch: not a GPU model option"},
               {"block=128", "--gpu block: not an override here"},
               {"issue-burst", "--gpu: expected KEY=VALUE"},
               {"issue-burst=0", "--issue-burst: expected auto or a count from 1 to 65536, not '0'"},
               {"l2-partitions=3", "--gpu: --l2-partitions must be 1 or 2"}};
    for (const auto& b : bad) {
        const auto r = test::run_cachesim(base + " --out none --gpu " + b.gpu);
        EXPECT_EQ(r.exit_code, 2) << b.gpu;
        EXPECT_NE(r.err.find(b.message), std::string::npos) << r.err;
    }
}

// --where variant=V keeps the rows of one compilation; a row without a variant column is the
// training build's, index64. Three tiny stencil rows (made-up counters: only which rows are
// simulated is looked at), lines 2-4 of the file.
TEST(CompareCli, WhereVariantSelectsOneCompilation) {
    const auto dir = test::temp_dir();
    const std::string header =
        "kernel,width,height,stencil_w,stencil_h,depth,schedule,block,elem_bytes,gpu,time_ms,variant,"
        "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,"
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,"
        "lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,dram__bytes_read.sum\n";
    const std::string counters = ",100,400,300,75,100,50,4096\n";
    std::ofstream(dir / "variants.csv") << header << "stencil,64,32,3,3,0,linear,128,4,NVIDIA H200,1,index64" << counters
                                        << "stencil,64,32,3,3,0,linear,128,4,NVIDIA H200,1,index32" << counters
                                        << "stencil,64,32,3,3,0,linear,128,4,NVIDIA H200,1,unroll1" << counters;
    std::ofstream(dir / "plain.csv") << "kernel,width,height,stencil_w,stencil_h,depth,schedule,block,elem_bytes,gpu,"
                                        "time_ms,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,"
                                        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,"
                                        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,"
                                        "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,"
                                        "lts__t_sectors_srcunit_tex_op_read.sum,"
                                        "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,dram__bytes_read.sum\n"
                                     << "stencil,64,32,3,3,0,linear,128,4,NVIDIA H200,1" << counters;
    const auto joined_lines = [&](const std::string& file, const std::string& where) {
        const std::string out = (dir / "j.csv").string();
        const auto r = test::run_cachesim("compare --no-progress --plot none --measured '" + (dir / file).string() +
                                          "' --where variant=" + where + " --out '" + out + "'");
        EXPECT_EQ(r.exit_code, 0) << r.err;
        const test::CsvTable j = test::CsvTable::from_file(out);
        std::vector<double> lines;
        for (std::size_t i = 0; i < j.rows(); ++i) lines.push_back(j.number(i, "line"));
        return lines;
    };
    EXPECT_EQ(joined_lines("variants.csv", "index32"), std::vector<double>{3});
    EXPECT_EQ(joined_lines("variants.csv", "index64"), std::vector<double>{2});
    EXPECT_EQ(joined_lines("plain.csv", "index64"), std::vector<double>{2});
    const auto bad = test::run_cachesim("compare --no-progress --measured '" + (dir / "plain.csv").string() +
                                        "' --where compilation=index32 --out none --plot none");
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_NE(bad.err.find("--where: unknown field 'compilation'"), std::string::npos) << bad.err;
}

TEST(CompareCli, BadInputExitsWith2) {
    const auto dir = test::temp_dir();
    std::ofstream(dir / "bad.csv")
        << "kernel,width,height,stencil_w,stencil_h,depth,schedule,block,elem_bytes,gpu,time_ms,"
           "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,"
           "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,"
           "lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,dram__bytes_read.sum\n"
        << "stencil,64,32,3,5,0,linear,128,4,NVIDIA H200,1,10,x,30,75,20,15,2048\n";
    const auto r = test::run_cachesim("compare --measured '" + (dir / "bad.csv").string() + "' --out none --plot none");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("bad.csv:2, column 'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum': 'x' is not a number"),
              std::string::npos) << r.err;
    EXPECT_EQ(test::run_cachesim("compare").exit_code, 2);
    EXPECT_EQ(test::run_cachesim("compare --measured /nonexistent.csv").exit_code, 2);
    EXPECT_EQ(test::run_cachesim("compare --measured '" + (dir / "bad.csv").string() + "' --preset nosuchgpu").exit_code, 2);
}

// Rows gpubench measured with their arrays in the L2 (--warm-l2, its l2_start column) are
// simulated so (--l2-start warm), with a note where the figures are; the joined CSV says which
// start each row had. The 768x768 matmul at depth 768 reads 4.5 MiB and writes 2.25, all of which
// the 60 MiB L2 holds: warm, every L2 read hits and nothing is read from DRAM; cold, A and B come
// from DRAM once (2 x 768 x 768 x 4 bytes). The start is each row's: --gpu l2-start is refused.
TEST(CompareCli, WarmRowsAreSimulatedWarm) {
    const std::string dir = std::string(CACHESIM_TEST_DATA_DIR) + "/h200/warm_l2/";
    const std::string rows = " --where width=768 --where schedule=tiled:32x32 --where block=256 --where variant=index64 "
                             "--plot none --no-progress --skip-invalid-rows";
    const auto out = test::temp_dir();
    const auto r = test::run_cachesim("compare --measured warm='" + dir + "warm_probe_warm.csv' --measured cold='" + dir +
                                      "warm_probe_cold.csv'" + rows + " --out '" + (out / "joined.csv").string() + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string note = "1 of the 2 rows were measured with their arrays in the L2 (gpubench --warm-l2) and are "
                             "simulated so (--l2-start warm)";
    EXPECT_NE(r.out.find("note: " + note), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("compare: note: " + note), std::string::npos) << r.err;
    const test::CsvTable joined = test::CsvTable::from_file((out / "joined.csv").string());
    ASSERT_EQ(joined.rows(), 2u);
    for (std::size_t row = 0; row < 2; ++row) {
        const bool warm = joined.at(row, "set") == "warm";
        SCOPED_TRACE(joined.at(row, "set"));
        EXPECT_EQ(joined.at(row, "l2_start"), warm ? "warm" : "cold");
        EXPECT_EQ(joined.number(row, "simulated:dram__bytes_read.sum"), warm ? 0.0 : 2.0 * 768 * 768 * 4);
        if (warm) {
            EXPECT_EQ(joined.number(row, "simulated:" + kL2ReadHits), joined.number(row, "simulated:" + kL2Reads));
            EXPECT_DOUBLE_EQ(joined.number(row, "simulated:l2_hit_rate.pct"), 100.0);
        }
    }
    const auto cold_only = test::run_cachesim("compare --measured '" + dir + "warm_probe_cold.csv'" + rows + " --out none");
    ASSERT_EQ(cold_only.exit_code, 0) << cold_only.err;
    EXPECT_EQ(cold_only.out.find("warm-l2"), std::string::npos) << cold_only.out;
    const auto overridden = test::run_cachesim("compare --measured '" + dir + "warm_probe_cold.csv'" + rows +
                                               " --out none --gpu l2-start=warm");
    EXPECT_EQ(overridden.exit_code, 2);
    EXPECT_NE(overridden.err.find("--gpu l2-start: not an override here"), std::string::npos) << overridden.err;
}

// Rows gpubench measured with --smem-per-block (its smem_per_block column) are simulated with that
// much shared memory per block: at block 128 on the h200 preset, 16 blocks of 11 KiB and the 1 KiB
// the driver keeps per block take the 196 KiB carve-out and leave a 60 KiB L1, not 224. Checked
// against the library run with the same shared memory, and apart from the run without.
TEST(CompareCli, SmemPerBlockRowsAreSimulatedWithTheirSharedMemory) {
    const auto dir = test::temp_dir();
    const std::string file = (dir / "smem.csv").string();
    // Counters made up (consistent): what matters is the simulated side.
    std::ofstream(file) << "kernel,width,height,stencil_w,stencil_h,depth,schedule,block,elem_bytes,gpu,time_ms,"
                           "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,"
                        << kL1Sectors << "," << kL1Hits << "," << kL1Rate << "," << kL2Reads << "," << kL2ReadHits
                        << ",dram__bytes_read.sum,smem_per_block\n"
                           "matmul,256,256,0,0,1024,linear,128,4,NVIDIA H200,1,4194304,10485760,7800000,74.39,"
                           "2685760,2600000,524288,11264\n";
    const auto r = test::run_cachesim("compare --measured '" + file + "' --plot none --no-progress --out '" +
                                      (dir / "smem_joined.csv").string() + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const test::CsvTable joined = test::CsvTable::from_file((dir / "smem_joined.csv").string());
    ASSERT_EQ(joined.rows(), 1u);
    const test::CsvTable measured = test::CsvTable::from_file(file);
    GpuConfig config = find_gpu_preset("h200")->config;
    config.smem_per_block = 11264;
    config.block = 128;
    ASSERT_EQ(gpu_occupancy(config).l1_bytes, 60u * 1024);
    const GpuResult with_smem = simulate_row(measured, 0, config);
    const GpuResult without = simulate_row(measured, 0);
    EXPECT_EQ(joined.number(0, "simulated:" + kL1Hits), static_cast<double>(with_smem.ncu.l1_sectors_ld_hit));
    EXPECT_NE(with_smem.ncu.l1_sectors_ld_hit, without.ncu.l1_sectors_ld_hit);
}

// A row whose shared memory leaves the L1 smaller than the 224 KiB the rates were fitted at
// (11,264 bytes a block of 128 threads: 60 KiB) is noted, on the terminal and in the report: with
// per-warp rates given, naming the nearer form; with the presets' own form, saying how far it was
// off there. Not where the row has no shared memory, nor with one rate per block given.
TEST(CompareCli, RowsWithASmallL1AreNoted) {
    const auto dir = test::temp_dir();
    auto write = [&](const std::string& name, int smem) {
        const std::string file = (dir / name).string();
        std::ofstream(file) << "kernel,width,height,stencil_w,stencil_h,depth,schedule,block,elem_bytes,gpu,time_ms,"
                               "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,"
                            << kL1Sectors << "," << kL1Hits << "," << kL1Rate << "," << kL2Reads << "," << kL2ReadHits
                            << ",dram__bytes_read.sum,smem_per_block\n"
                               "matmul,256,256,0,0,1024,linear,128,4,NVIDIA H200,1,4194304,10485760,7800000,74.39,"
                               "2685760,2600000,524288,"
                            << smem << "\n";
        return file;
    };
    const std::string note = "1 of the 1 rows leave the L1 smaller than the 224 KiB the per-warp rates were fitted at";
    const auto small = test::run_cachesim("compare --measured '" + write("small.csv", 11264) +
                                          "' --plot none --no-progress --out none --gpu warp-rate-scope=warp");
    ASSERT_EQ(small.exit_code, 0) << small.err;
    EXPECT_NE(small.err.find("compare: note: " + note), std::string::npos) << small.err;
    EXPECT_NE(small.out.find("note: " + note), std::string::npos) << small.out;
    const auto full = test::run_cachesim("compare --measured '" + write("full.csv", 0) +
                                         "' --plot none --no-progress --out none --gpu warp-rate-scope=warp");
    ASSERT_EQ(full.exit_code, 0) << full.err;
    EXPECT_EQ(full.err.find("fitted at"), std::string::npos) << full.err;
    const auto presets = test::run_cachesim("compare --measured '" + write("presets.csv", 11264) +
                                            "' --plot none --no-progress --out none");
    ASSERT_EQ(presets.exit_code, 0) << presets.err;
    EXPECT_NE(presets.err.find("compare: note: " + note + " (their shared memory takes the rest); there the presets "
                               "draw one rate per block"),
              std::string::npos)
        << presets.err;
    EXPECT_EQ(presets.err.find("is nearer the H200"), std::string::npos) << presets.err;
    const auto block = test::run_cachesim("compare --measured '" + write("block.csv", 11264) +
                                          "' --plot none --no-progress --out none --gpu warp-rate-scope=block");
    ASSERT_EQ(block.exit_code, 0) << block.err;
    EXPECT_EQ(block.err.find("fitted at"), std::string::npos) << block.err;
}

// A row that runs in lock step draws no rates, so the note leaves it out: 27,648 bytes a block of
// 128 threads leave 8 blocks an SM, 8 warps a scheduler, which the 64-bit matmul loop's scheduler
// keeps at a lone warp's pace (--lockstep-warps auto); the 32-bit loop's keeps 6, so its row is
// noted, as is the 64-bit one with lock step switched off.
TEST(CompareCli, RowsInLockStepAreNotNotedForTheirSmallL1) {
    const auto dir = test::temp_dir();
    auto write = [&](const std::string& name, const std::string& variant) {
        const std::string file = (dir / name).string();
        std::ofstream(file) << "kernel,width,height,stencil_w,stencil_h,depth,schedule,block,elem_bytes,gpu,time_ms,"
                               "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,"
                            << kL1Sectors << "," << kL1Hits << "," << kL1Rate << "," << kL2Reads << "," << kL2ReadHits
                            << ",dram__bytes_read.sum,smem_per_block,variant\n"
                               "matmul,256,256,0,0,1024,linear,128,4,NVIDIA H200,1,4194304,10485760,7800000,74.39,"
                               "2685760,2600000,524288,27648,"
                            << variant << "\n";
        return file;
    };
    const std::string note = "1 of the 1 rows leave the L1 smaller than the 224 KiB the per-warp rates were fitted at";
    auto compare = [&](const std::string& file, const std::string& options) {
        return test::run_cachesim("compare --measured '" + file + "' --plot none --no-progress --out none" + options);
    };
    const auto index64 = compare(write("index64.csv", "index64"), "");
    ASSERT_EQ(index64.exit_code, 0) << index64.err;
    EXPECT_EQ(index64.err.find("fitted at"), std::string::npos) << index64.err;
    const auto index32 = compare(write("index32.csv", "index32"), "");
    ASSERT_EQ(index32.exit_code, 0) << index32.err;
    EXPECT_NE(index32.err.find("compare: note: " + note), std::string::npos) << index32.err;
    const auto drift = compare(write("drift.csv", "index64"), " --gpu lockstep-warps=0");
    ASSERT_EQ(drift.exit_code, 0) << drift.err;
    EXPECT_NE(drift.err.find("compare: note: " + note), std::string::npos) << drift.err;
}

// Rows whose single-pass L2 rate is above 100%, in the median or at the top of the range, are
// counted in a note, on the terminal and in the report, since compare reads them as 100%. Three
// rows by hand: median 104.5 (range to 110.2), median 97 with a launch at 101.3, and one whose
// every launch is below 100: two rows, one in its median, the highest 110.2. None: no note.
TEST(CompareCli, L2RatesAbove100AreNoted) {
    const auto dir = test::temp_dir();
    auto write = [&](const std::string& name, const std::vector<std::string>& l2) {
        const std::string file = (dir / name).string();
        std::ofstream out(file);
        out << "kernel,width,height,stencil_w,stencil_h,depth,schedule,block,elem_bytes,gpu,time_ms,"
               "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,"
            << kL1Sectors << "," << kL1Hits << "," << kL1Rate << "," << kL2Reads << "," << kL2ReadHits
            << ",dram__bytes_read.sum," << kL2Rate << "," << kL2Rate << ":min," << kL2Rate << ":max\n";
        const char* schedules[] = {"linear", "column:32", "tiled:32x32"};
        for (std::size_t i = 0; i < l2.size(); ++i)
            out << "matmul,256,256,0,0,1024," << schedules[i] << ",128,4,NVIDIA H200,1,4194304,10485760,7800000,74.39,"
                << "2685760,2600000,524288," << l2[i] << "\n";
        return file;
    };
    const std::string note = "2 of the 3 rows report an L2 read hit rate above 100% (1 in their median, the highest "
                             "110.2%), read here as 100%";
    const auto over = test::run_cachesim("compare --measured '" +
                                         write("over.csv", {"104.5,98,110.2", "97,90,101.3", "95,94,99"}) +
                                         "' --plot none --no-progress --out none");
    ASSERT_EQ(over.exit_code, 0) << over.err;
    EXPECT_NE(over.err.find("compare: note: " + note), std::string::npos) << over.err;
    EXPECT_NE(over.out.find("note: " + note), std::string::npos) << over.out;
    const auto under = test::run_cachesim("compare --measured '" +
                                          write("under.csv", {"99.5,98,100", "97,90,99.9", "95,94,99"}) +
                                          "' --plot none --no-progress --out none");
    ASSERT_EQ(under.exit_code, 0) << under.err;
    EXPECT_EQ(under.err.find("above 100%"), std::string::npos) << under.err;
    EXPECT_EQ(under.out.find("above 100%"), std::string::npos) << under.out;
}

// A row no SM could run (300,000 B of shared memory a block, more than the h200's largest carve-out
// of 228 KiB) is refused naming the file and line of the row, and no joined CSV is written.
TEST(CompareCli, ARowThatCannotBeSimulatedIsNamedByItsLine) {
    const auto dir = test::temp_dir();
    const std::string file = (dir / "too_much_smem.csv").string();
    const std::string header = "kernel,width,height,stencil_w,stencil_h,depth,schedule,block,elem_bytes,gpu,time_ms,"
                               "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum," + kL1Sectors + "," + kL1Hits + "," +
                               kL1Rate + "," + kL2Reads + "," + kL2ReadHits + ",dram__bytes_read.sum,smem_per_block\n";
    const std::string row = "matmul,256,256,0,0,1024,linear,128,4,NVIDIA H200,1,4194304,10485760,7800000,74.39,"
                            "2685760,2600000,524288,";
    std::ofstream(file) << header << row << "0\n" << row << "300000\n";
    const std::string out = (dir / "joined.csv").string();
    const auto r = test::run_cachesim("compare --measured '" + file + "' --plot none --no-progress --out '" + out + "'");
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find(file + ":3: this row cannot be simulated: a block's shared memory (301024 B"), std::string::npos)
        << r.err;
    EXPECT_FALSE(std::filesystem::exists(out));
}

}  // namespace
}  // namespace cachesim
