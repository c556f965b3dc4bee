// cachesim compare with rows that carry their loop's own counters (gpubench --metrics
// fidelity,loop): a row whose loop a pipe limits is simulated as --gpu loop-limit=pipe would
// simulate it, a row without counters as before, and options given on the command line win over
// the rows'. The expected rates are the same rows compared with the options given explicitly,
// not figures pasted from an earlier run.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "tests/cli_util.hpp"
#include "tests/csv_table.hpp"

namespace cachesim {
namespace {

const std::string kMetrics =
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,"
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,"
    "lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,dram__bytes_read.sum";
const std::string kLoop = "smsp__inst_executed.sum,sm__pipe_alu_cycles_active.sum,sm__pipe_fmaheavy_cycles_active.sum";
// The 768x768 naive matmul at depth 384 in blocks of 128: 2.2 waves, whose L1 the age weight moves.
// 768 x 768 / 32 warps x 384 x 2 load requests; the hit counts are placeholders, the simulations
// are what is compared.
const std::string kConfig = "matmul,768,768,0,0,384,linear,128,14155776,35389440,17000000,48.0,12000000,11000000,4718592";

// Writes the file and returns its path.
std::string write_csv(const std::string& name, const std::string& text) {
    const std::string path = (test::temp_dir() / name).string();
    std::ofstream(path) << text;
    return path;
}

// The simulated L1 rates of compare's joined CSV, row by row.
std::vector<double> simulated_l1(const std::string& options, const std::string& measured) {
    const std::string out = (test::temp_dir() / "joined.csv").string();
    const test::CommandResult r =
        test::run_cachesim("compare --preset h200 --no-progress " + options + " --measured '" + measured + "' --out '" + out + "'");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const test::CsvTable t(test::read_file(out));
    std::vector<double> rates;
    for (std::size_t i = 0; i < t.rows(); ++i) rates.push_back(t.number(i, "simulated:l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct"));
    return rates;
}

TEST(CompareLoopCounters, ARowsOwnCountersDecideItsLoop) {
    // row 1: the issue port 4 cycles a request, fmaheavy 5.2 (a pipe); row 2: the issue port's (alu
    // 3, fmaheavy 2); row 3: none
    const std::string with_counters = write_csv(
        "loop.csv", "kernel,width,height,stencil_w,stencil_h,depth,schedule,block," + kMetrics + "," + kLoop + "\n" +
                        kConfig + ",56623104,42467328,73610035\n" + kConfig + ",56623104,42467328,28311552\n" +
                        kConfig + ",,,\n");
    const std::vector<double> own = simulated_l1("", with_counters);
    const std::vector<double> as_pipe = simulated_l1("--gpu loop-limit=pipe", with_counters);
    const std::vector<double> as_issue = simulated_l1("--gpu loop-limit=issue", with_counters);
    const std::vector<double> ignored = simulated_l1("--ignore-loop-counters", with_counters);
    ASSERT_EQ(own.size(), 3u);
    ASSERT_EQ(ignored.size(), 3u);
    ASSERT_EQ(as_pipe.size(), 3u);
    ASSERT_EQ(as_issue.size(), 3u);
    EXPECT_DOUBLE_EQ(own[0], as_pipe[0]) << "the pipe-bound row as --gpu loop-limit=pipe simulates it";
    EXPECT_DOUBLE_EQ(own[1], as_issue[1]) << "the issue-bound row as --gpu loop-limit=issue simulates it";
    EXPECT_DOUBLE_EQ(own[2], as_issue[2]) << "a row without counters: gpubench's index64 loop, the issue port's";
    EXPECT_GT(as_issue[0] - as_pipe[0], 2.0) << "the age weight parts the naive order's sharers";
    // options given win: every row as the issue port's
    EXPECT_DOUBLE_EQ(as_issue[0], as_issue[2]);
    // ignored counters leave gpubench's index64 loop as the table has it, the issue port's
    for (std::size_t i = 0; i < 3; ++i) EXPECT_DOUBLE_EQ(ignored[i], as_issue[i]) << "row " << i + 1;
}

TEST(CompareLoopCounters, TheReportSaysWhichRowsCarryThem) {
    const std::string path = write_csv(
        "loop_note.csv", "kernel,width,height,stencil_w,stencil_h,depth,schedule,block," + kMetrics + "," + kLoop +
                             "\nmatmul,64,64,0,0,64,linear,128,16384,40960,20000,48.8,13280,12000,32768,65536,9000,100000\n"
                             "matmul,64,64,0,0,64,linear,128,16384,40960,20000,48.8,13280,12000,32768,,,\n");
    test::CommandResult r = test::run_cachesim("compare --preset h200 --no-progress --measured '" + path + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("1 of the 2 rows carry their loop's counters (1 bound by a pipe, 0 by the issue port): each "
                         "such row is simulated with its loop's limit and issue cost"),
              std::string::npos)
        << r.out;
    r = test::run_cachesim("compare --preset h200 --no-progress --gpu loop-limit=issue --measured '" + path + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("each such row is simulated with its loop's issue cost, --gpu loop-limit being given"),
              std::string::npos)
        << r.out;
    // a row whose counters contradict its requests is refused before any simulation, by line and column
    const std::string bad = write_csv(
        "loop_bad.csv", "kernel,width,height,stencil_w,stencil_h,depth,schedule,block," + kMetrics + "," + kLoop +
                            "\nmatmul,64,64,0,0,64,linear,128,16384,40960,20000,48.8,13280,12000,32768,8000,9000,100000\n");
    r = test::run_cachesim("compare --preset h200 --no-progress --measured '" + bad + "'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("loop_bad.csv:2, column 'smsp__inst_executed.sum': smsp__inst_executed.sum 8000 is less than"),
              std::string::npos)
        << r.err;
}

}  // namespace
}  // namespace cachesim
