// cachesim compare on what users bring: a trace a row names is never replaced by an output, an
// Nsight Compute CSV simulated as a launch other than the one profiled is said so, and the table
// keeps its columns apart whatever their widths.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "examples/example_spec.hpp"
#include "examples/host_backend.hpp"
#include "examples/record_main.hpp"
#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;

// One launch of a 64 x 64 stencil with a 3 x 3 box at block 256, as ncu --csv --page raw
// --print-units base writes it (the counters are the model's for that launch: 4,992 sectors).
const std::string kNcuCsv =
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\","
    "\"Grid Size\",\"Device\",\"CC\",\"dram__bytes_read.sum\",\"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum\","
    "\"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum\",\"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum\","
    "\"l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct\",\"lts__t_sectors_srcunit_tex_op_read.sum\","
    "\"lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum\",\"lts__t_sector_op_read_hit_rate.pct\"\n"
    "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"byte\",\"request\",\"sector\",\"sector\",\"%\",\"sector\","
    "\"sector\",\"%\"\n"
    "\"0\",\"1234\",\"app\",\"host\",\"void stencil(float const*, float*)\",\"1\",\"7\",\"(256, 1, 1)\",\"(16, 1, 1)\","
    "\"0\",\"9.0\",\"32768\",\"1152\",\"4992\",\"4240\",\"84.94\",\"1136\",\"176\",\"15.49\"\n";

// kNcuCsv as a page without the "Grid Size" column: nothing says what size the launch computed.
std::string without_grid(std::string csv) {
    for (const std::string cell : {"\"Grid Size\",", "\"\",", "\"(16, 1, 1)\","}) {
        const std::size_t at = cell == "\"\"," ? csv.find(cell, csv.find('\n')) : csv.find(cell);
        csv.erase(at, cell.size());
    }
    return csv;
}

fs::path fresh_dir(const std::string& name) {
    const fs::path dir = test::temp_dir() / name;
    fs::remove_all(dir);
    fs::create_directories(dir / "examples");
    return dir;
}

TEST(CompareUserInputs, AnOutputOverARowsTraceIsRefused) {
    const fs::path dir = fresh_dir("compare-row-trace");
    const examples::ExampleSpec spec = examples::parse_example_spec("transpose_tiled:64x64");
    examples::HostBackend backend;
    const fs::path trace = dir / "examples" / examples::example_trace_name(spec);
    examples::record_example(spec, trace.string(), backend);
    const std::string before = test::read_file(trace);
    ASSERT_FALSE(before.empty());
    std::ofstream(dir / "m.csv")
        << "kernel,width,height,stencil_w,stencil_h,depth,schedule,block,elem_bytes,gpu,time_ms,example,trace,"
           "shared_bytes,registers,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,"
           "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,"
           "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,"
           "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sector_op_read_hit_rate.pct,dram__bytes_read.sum\n"
           "transpose_tiled,64,64,0,0,0,linear,256,4,NVIDIA H200,0.01,transpose_tiled:64x64,examples/"
        << trace.filename().string() << ",4224,16,128,512,0,0,512,0,0,16384\n";
    for (const std::string option : {"--out", "--plot"}) {
        const auto r = test::run_cachesim("compare -q --measured '" + (dir / "m.csv").string() + "' " + option + " '" +
                                          trace.string() + "'");
        EXPECT_EQ(r.exit_code, 2) << option << ": " << r.err;
        EXPECT_NE(r.err.find(option), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("the row at"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("line 2"), std::string::npos) << r.err;
        EXPECT_EQ(test::read_file(trace), before) << option;
    }
}

// 128 x 128 is four times the work items of the 64 x 64 launch profiled: about four times its
// sectors, which no launch the model describes right is off by. (A page with the launch's grid
// is refused instead: below.)
TEST(CompareUserInputs, ALaunchOtherThanTheOneProfiledIsSaidSo) {
    const fs::path dir = fresh_dir("compare-ncu-other");
    std::ofstream(dir / "ncu.csv") << without_grid(kNcuCsv);
    const auto other = test::run_cachesim("compare -q --measured '" + (dir / "ncu.csv").string() +
                                          "' --workload stencil --size 128x128 --stencil 3x3");
    ASSERT_EQ(other.exit_code, 0) << other.err;
    EXPECT_NE(other.err.find("1 row (the first"), std::string::npos) << other.err;
    EXPECT_NE(other.err.find("times the L1 sectors measured"), std::string::npos) << other.err;
    // The launch profiled: its sectors are the model's, and nothing is said.
    const auto same = test::run_cachesim("compare -q --measured '" + (dir / "ncu.csv").string() +
                                         "' --workload stencil --size 64x64 --stencil 3x3");
    ASSERT_EQ(same.exit_code, 0) << same.err;
    EXPECT_EQ(same.err.find("times the L1 sectors measured"), std::string::npos) << same.err;
    EXPECT_EQ(same.err.find("default launch"), std::string::npos) << same.err;
    EXPECT_NE(same.out.find("4992   1.000"), std::string::npos) << same.out;
}

// Without --workload and the rest, the launches are gpubench's default: the note says which.
TEST(CompareUserInputs, AnNcuCsvWithoutItsLaunchIsSimulatedAsTheDefaultSaidSo) {
    const fs::path dir = fresh_dir("compare-ncu-default");
    std::ofstream(dir / "grid.csv") << kNcuCsv;
    // Its grid says it is not the default launch: 4096 x 4096 at 256 threads a block is 65,536 blocks.
    const auto refused = test::run_cachesim("compare -q --measured '" + (dir / "grid.csv").string() + "'");
    EXPECT_EQ(refused.exit_code, 2) << refused.out;
    EXPECT_NE(refused.err.find("simulated as gpubench's default launch"), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find("4096x4096 work items take 65,536 such blocks"), std::string::npos) << refused.err;
    std::ofstream(dir / "ncu.csv") << without_grid(kNcuCsv);
    const auto r = test::run_cachesim("compare -q --measured '" + (dir / "ncu.csv").string() + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("simulated as gpubench's default launch, --workload stencil --size 4096x4096 --stencil 9x9"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("times the L1 sectors measured"), std::string::npos) << r.err;
    // The table keeps a ratio of five digits before its point apart from the count before it.
    EXPECT_NE(r.out.find(" 4992 "), std::string::npos) << r.out;
}

// Every launch of an ncu page is simulated as the one workload the options give: a page of two
// kernels is refused, one kernel's launches kept with --rows run.
TEST(CompareUserInputs, LaunchesOfTwoKernelsAreRefused) {
    const fs::path dir = fresh_dir("compare-ncu-kernels");
    std::ofstream(dir / "ncu.csv")
        << kNcuCsv
        << "\"1\",\"1234\",\"app\",\"host\",\"void fill(float*)\",\"1\",\"7\",\"(1024, 1, 1)\",\"(4, 1, 1)\",\"0\","
           "\"9.0\",\"0\",\"0\",\"0\",\"0\",\"0\",\"0\",\"0\",\"0\"\n";
    const std::string args = "compare -q --measured '" + (dir / "ncu.csv").string() + "' --workload stencil --size 64x64 --stencil 3x3";
    const auto both = test::run_cachesim(args);
    EXPECT_EQ(both.exit_code, 2) << both.out;
    EXPECT_NE(both.err.find("2 kernels ('void stencil(float const*, float*)', 'void fill(float*)')"), std::string::npos) << both.err;
    const auto one = test::run_cachesim(args + " --rows 1-1");
    EXPECT_EQ(one.exit_code, 0) << one.err;
}

// A launch whose grid is of another size than --size is refused, not simulated as if it were
// that size; on a page of two sizes, --rows keeps one.
TEST(CompareUserInputs, ALaunchOfAnotherSizeIsRefused) {
    const fs::path dir = fresh_dir("compare-ncu-sizes");
    std::ofstream(dir / "one.csv") << kNcuCsv;
    const std::string one = "compare -q --measured '" + (dir / "one.csv").string() + "' --workload stencil --stencil 3x3";
    const auto other = test::run_cachesim(one + " --size 128x128");
    EXPECT_EQ(other.exit_code, 2) << other.out;
    // 64 x 64 at 256 threads a block is 16 blocks; 128 x 128 would be 64.
    EXPECT_NE(other.err.find("one.csv line 3: the launch ran 16 blocks of 256 threads, where 128x128 work items take 64 "
                             "such blocks (--size 128x128)"),
              std::string::npos)
        << other.err;
    EXPECT_EQ(test::run_cachesim(one + " --size 64x64").exit_code, 0);
    // The same kernel at 128 x 128 on the page's next line.
    std::ofstream(dir / "two.csv")
        << kNcuCsv
        << "\"1\",\"1234\",\"app\",\"host\",\"void stencil(float const*, float*)\",\"1\",\"7\",\"(256, 1, 1)\","
           "\"(64, 1, 1)\",\"0\",\"9.0\",\"131072\",\"4608\",\"19968\",\"16960\",\"84.94\",\"4544\",\"704\",\"15.49\"\n";
    const std::string two = "compare -q --measured '" + (dir / "two.csv").string() + "' --workload stencil --stencil 3x3 --size 64x64";
    const auto both = test::run_cachesim(two);
    EXPECT_EQ(both.exit_code, 2) << both.out;
    EXPECT_NE(both.err.find("two.csv line 4: the launch ran 64 blocks"), std::string::npos) << both.err;
    EXPECT_EQ(test::run_cachesim(two + " --rows 1-1").exit_code, 0);
}

TEST(CompareUserInputs, NothingMeasuredGivesNoRatio) {
    const fs::path dir = fresh_dir("compare-ncu-zero");
    std::string csv = kNcuCsv;
    csv.replace(csv.find("\"32768\""), 7, "\"0\"");  // no DRAM bytes measured
    std::ofstream(dir / "ncu.csv") << csv;
    const auto r = test::run_cachesim("compare -q --measured '" + (dir / "ncu.csv").string() +
                                      "' --workload stencil --size 64x64 --stencil 3x3");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::size_t row = r.out.find("stencil 64x64 3x3");
    ASSERT_NE(row, std::string::npos) << r.out;
    const std::string line = r.out.substr(row, r.out.find('\n', row) - row);
    EXPECT_EQ(line.substr(line.size() - 3), "n/a") << line;
}

}  // namespace
}  // namespace cachesim
