// cachesim compare on rows of recorded kernels (gpubench --examples): the row's trace, found
// relative to the CSV, is replayed by the GPU model. The measured counters of a tiny launch are
// derived by hand, so the joined output must match them exactly; built-in rows in the same file
// are simulated and written exactly as without the recorded rows.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "examples/example_spec.hpp"
#include "examples/host_backend.hpp"
#include "examples/record_main.hpp"
#include "tests/cli_util.hpp"
#include "tests/csv_table.hpp"

namespace cachesim {
namespace {

const std::string kMetrics =
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,"
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,"
    "lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,"
    "lts__t_sector_op_read_hit_rate.pct,dram__bytes_read.sum";
const std::string kFixed = "kernel,width,height,stencil_w,stencil_h,depth,schedule,block,elem_bytes,gpu,time_ms";
const std::string kExampleHeader = kFixed + ",example,trace,shared_bytes,registers," + kMetrics + "\n";

// The tiled transpose of 64 x 64 floats: 4 blocks of 8 warps, each warp loads 4 rows of 32
// floats (128 B aligned): 128 requests, 512 sectors. Every input sector is read once, so no L1
// hit; all 512 go to L2, the first touch of each, so none hits there either; DRAM reads the
// 16 KiB input once.
const std::string kTransposeRow =
    "transpose_tiled,64,64,0,0,0,linear,256,4,NVIDIA H200,0.01,transpose_tiled:64x64,examples/transpose_tiled_64x64.cst,"
    "4224,16,128,512,0,0,512,0,0,16384\n";
// A built-in row (its counters are made up: only the simulated side is looked at).
const std::string kStencilRow = "stencil,256,256,3,3,0,linear,256,4,NVIDIA H200,0.01,,,,,8192,32768,20000,61.0,12000,4000,33.3,262144\n";

std::filesystem::path fresh_dir(const std::string& name) {
    const auto dir = test::temp_dir() / name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir / "examples");
    return dir;
}

void write(const std::filesystem::path& p, const std::string& text) {
    std::ofstream(p) << text;
}

void record(const std::filesystem::path& dir, const std::string& spec_text) {
    const examples::ExampleSpec spec = examples::parse_example_spec(spec_text);
    examples::HostBackend backend;
    examples::record_example(spec, (dir / "examples" / examples::example_trace_name(spec)).string(), backend);
}

// The report from its table on (the line before it names the model and the rows' GPUs).
std::string table_of(const std::string& out) { return out.substr(std::min(out.find("workload"), out.size())); }

TEST(CompareRecorded, RecordedRowMatchesItsHandDerivedCounters) {
    const auto dir = fresh_dir("recorded");
    record(dir, "transpose_tiled:64x64");
    write(dir / "m.csv", kExampleHeader + kTransposeRow);
    const auto r = test::run_cachesim("compare --no-progress --measured '" + (dir / "m.csv").string() + "' --out '" +
                                      (dir / "j.csv").string() + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("transpose_tiled 64x64"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("L1 global-load sectors equal to the hardware's: 1/1"), std::string::npos) << r.out;
    // The table's columns line up: the header's and the row's first separator at one column.
    const std::string table = table_of(r.out);
    const std::size_t header_end = table.find('\n');
    ASSERT_NE(header_end, std::string::npos);
    EXPECT_EQ(table.find(" | "), table.find(" | ", header_end) - header_end - 1) << r.out;
    const test::CsvTable j(test::read_file(dir / "j.csv"));
    ASSERT_EQ(j.rows(), 1u);
    EXPECT_EQ(j.at(0, "kernel"), "transpose_tiled");
    EXPECT_EQ(j.at(0, "schedule"), "linear");
    EXPECT_EQ(j.at(0, "block"), "256");
    for (const auto& [metric, value] : std::vector<std::pair<std::string, double>>{
             {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 128},
             {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 512},
             {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", 0},
             {"lts__t_sectors_srcunit_tex_op_read.sum", 512},
             {"lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum", 0},
             {"dram__bytes_read.sum", 16384}}) {
        EXPECT_EQ(j.number(0, "measured:" + metric), value) << metric;
        EXPECT_EQ(j.number(0, "simulated:" + metric), value) << metric;
    }
    EXPECT_EQ(j.number(0, "l1_hit_rate_error_pp"), 0.0);
    EXPECT_EQ(j.number(0, "l2_hit_rate_error_pp"), 0.0);
}

// gpubench writes its rows with a `variant` column, `example` for a recorded kernel: no compiled
// loop of its own, so the row is replayed as without the column (an unknown compilation would be
// refused on a built-in row).
TEST(CompareRecorded, GpubenchsExampleVariantIsReplayed) {
    const auto dir = fresh_dir("recorded_variant");
    record(dir, "transpose_tiled:64x64");
    const std::string header = kFixed + ",variant,example,trace,shared_bytes,registers," + kMetrics + "\n";
    std::string row = kTransposeRow;
    row.insert(row.find(",transpose_tiled:64x64"), ",example");
    write(dir / "m.csv", header + row);
    const auto r = test::run_cachesim("compare --no-progress --measured '" + (dir / "m.csv").string() + "' --out '" +
                                      (dir / "j.csv").string() + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const test::CsvTable j(test::read_file(dir / "j.csv"));
    ASSERT_EQ(j.rows(), 1u);
    EXPECT_EQ(j.at(0, "variant"), "example");
    // The same hand-derived counters as without the column (above).
    EXPECT_EQ(j.number(0, "simulated:l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 512);
    EXPECT_EQ(j.number(0, "simulated:lts__t_sectors_srcunit_tex_op_read.sum"), 512);
    EXPECT_EQ(j.number(0, "simulated:dram__bytes_read.sum"), 16384);

    // A built-in row of an unknown compilation is still refused, naming the line and the value.
    write(dir / "b.csv", kFixed + ",variant," + kMetrics + "\n" +
                             "stencil,256,256,3,3,0,linear,256,4,NVIDIA H200,0.01,example,8192,32768,20000,61.0,12000,4000,33.3,"
                             "262144\n");
    const auto bad = test::run_cachesim("compare --no-progress --measured '" + (dir / "b.csv").string() + "'");
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_NE(bad.err.find("b.csv:2, column 'variant': unknown compilation 'example'"), std::string::npos) << bad.err;
}

TEST(CompareRecorded, BuiltinRowsAreSimulatedAsWithoutRecordedOnes) {
    const auto dir = fresh_dir("mixed");
    record(dir, "transpose_tiled:64x64");
    write(dir / "builtin.csv", kFixed + "," + kMetrics + "\n" +
                                   "stencil,256,256,3,3,0,linear,256,4,NVIDIA H200,0.01,8192,32768,20000,61.0,12000,4000,33.3,262144\n");
    write(dir / "mixed.csv", kExampleHeader + kStencilRow + kTransposeRow);
    // (one set name for both files: a file's set is otherwise its name's first word)
    const auto alone = test::run_cachesim("compare --no-progress --measured 'fake=" + (dir / "builtin.csv").string() +
                                          "' --out '" + (dir / "a.csv").string() + "'");
    const auto mixed = test::run_cachesim("compare --no-progress --measured 'fake=" + (dir / "mixed.csv").string() +
                                          "' --out '" + (dir / "b.csv").string() + "'");
    ASSERT_EQ(alone.exit_code, 0) << alone.err;
    ASSERT_EQ(mixed.exit_code, 0) << mixed.err;
    const std::string a = test::read_file(dir / "a.csv"), b = test::read_file(dir / "b.csv");
    const std::size_t a_row = a.find('\n') + 1, b_row = b.find('\n') + 1;
    EXPECT_EQ(a.substr(0, a_row), b.substr(0, b_row));  // the same header
    EXPECT_EQ(a.substr(a_row), b.substr(b_row, b.find('\n', b_row) + 1 - b_row));  // the same stencil row
    const std::string alone_table = table_of(alone.out), mixed_table = table_of(mixed.out);
    EXPECT_EQ(alone_table.substr(0, alone_table.find('\n', alone_table.find('\n') + 1)),
              mixed_table.substr(0, mixed_table.find('\n', mixed_table.find('\n') + 1)));  // the table's first row
    const auto only = test::run_cachesim("compare --no-progress --where kernel=transpose_tiled --measured '" +
                                         (dir / "mixed.csv").string() + "'");
    ASSERT_EQ(only.exit_code, 0) << only.err;
    EXPECT_NE(only.out.find("1 run:"), std::string::npos) << only.out;
    EXPECT_EQ(only.out.find("stencil 256x256"), std::string::npos) << only.out;
}

TEST(CompareRecorded, MissingTraceIsNamed) {
    const auto dir = fresh_dir("missing");
    write(dir / "m.csv", kExampleHeader + kTransposeRow);
    const auto r = test::run_cachesim("compare --no-progress --measured '" + (dir / "m.csv").string() + "'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find((dir / "examples" / "transpose_tiled_64x64.cst").string()), std::string::npos) << r.err;
}

TEST(CompareRecorded, BlockSizeMustMatchTheTrace) {
    const auto dir = fresh_dir("block");
    record(dir, "transpose_tiled:64x64");
    std::string row = kTransposeRow;
    row.replace(row.find(",256,"), 5, ",128,");
    write(dir / "m.csv", kExampleHeader + row);
    const auto r = test::run_cachesim("compare --no-progress --measured '" + (dir / "m.csv").string() + "'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("blocks of 256 threads"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace cachesim
