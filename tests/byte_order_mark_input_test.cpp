// Text inputs that begin with a UTF-8 byte order mark (a spreadsheet's "CSV UTF-8", a Windows
// editor's config file) read exactly as the same text without it: measured CSVs, config files,
// GPU descriptions and din traces. Before, the mark became part of the first column or option
// name ("missing column 'kernel'", "unrecognised option 'size'").
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "tests/cli_util.hpp"
#include "traces/csv_table.hpp"
#include "traces/measured_csv.hpp"
#include "traces/text_bom.hpp"

namespace cachesim {
namespace {

const std::string kMark = "\xEF\xBB\xBF";

std::string write_file(const std::string& name, const std::string& bytes) {
    const std::string path = (test::temp_dir() / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

TEST(ByteOrderMark, OnlyALeadingMarkIsDropped) {
    EXPECT_EQ(without_byte_order_mark(kMark + "kernel,width"), "kernel,width");
    EXPECT_EQ(without_byte_order_mark("kernel,width"), "kernel,width");
    EXPECT_EQ(without_byte_order_mark("a" + kMark), "a" + kMark);
    EXPECT_EQ(without_byte_order_mark("\xEF\xBB"), "\xEF\xBB") << "a cut mark is not one";
    EXPECT_EQ(without_byte_order_mark(""), "");
}

TEST(ByteOrderMark, ACsvHeaderKeepsItsFirstColumnName) {
    const CsvTable t = parse_csv(kMark + "kernel,width\r\nstencil,64\r\n", "m.csv");
    ASSERT_EQ(t.header.size(), 2u);
    EXPECT_EQ(t.header[0], "kernel");
    EXPECT_EQ(t.column("kernel"), 0);
    ASSERT_EQ(t.rows.size(), 1u);
    EXPECT_EQ(t.lines[0], 2u);
}

TEST(ByteOrderMark, AMeasuredCsvReadsAsWithoutIt) {
    const std::string text =
        "kernel,width,height,stencil_w,stencil_h,depth,schedule,block,elem_bytes,gpu,time_ms,"
        "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,"
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,"
        "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,"
        "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,dram__bytes_read.sum\n"
        "stencil,64,32,3,5,0,column:8,128,4,NVIDIA H200,0.5,10,40,30,75,20,15,2048\n";
    const auto plain = parse_measured_csv(text, "m.csv");
    const auto marked = parse_measured_csv(kMark + text, "m.csv");
    ASSERT_EQ(plain.size(), 1u);
    ASSERT_EQ(marked.size(), 1u);
    EXPECT_EQ(marked[0].workload.width, 64u);
    EXPECT_EQ(marked[0].gpu, plain[0].gpu);
    EXPECT_DOUBLE_EQ(marked[0].metrics.l1_sectors, 40);
}

// The report less its timing line ("simulated in 0.001 s, ..."), which varies from run to run.
std::string without_timing(std::string text) {
    const std::size_t at = text.find("simulated in ");
    if (at != std::string::npos) text.erase(at, text.find('\n', at) - at);
    return text;
}

// The CLI's own text inputs: the same report with and without the mark. `args` holds {} where
// the file's path goes.
void expect_same_report(const std::string& args, const std::string& name, const std::string& text) {
    const std::string plain = write_file("plain_" + name, text);
    const std::string marked = write_file("marked_" + name, kMark + text);
    const auto with = [&](const std::string& path) {
        std::string command = args;
        command.replace(command.find("{}"), 2, "'" + path + "'");
        return test::run_cachesim(command);
    };
    const auto a = with(plain);
    const auto b = with(marked);
    ASSERT_EQ(a.exit_code, 0) << a.err;
    EXPECT_EQ(b.exit_code, 0) << b.err;
    // The reports name their inputs; only those names may differ.
    std::string expected = without_timing(a.out);
    for (std::size_t at; (at = expected.find("plain_" + name)) != std::string::npos;)
        expected.replace(at, 6 + name.size(), "marked_" + name);
    EXPECT_EQ(without_timing(b.out), expected);
}

TEST(ByteOrderMark, AConfigFileReadsAsWithoutIt) {
    expect_same_report("simulate --config {}", "options.cfg", "size = 32x32\r\nstencil = 3x3\r\nl1-size = 1K\r\n");
}

TEST(ByteOrderMark, ADinTraceReadsAsWithoutIt) {
    expect_same_report("simulate --trace {}", "t.din", "0 1000\r\n0 1004\r\n1 2000\r\n0 1000\r\n");
}

// compare --config: a GPU description as gpubench --describe writes one, saved with the mark.
// Its '# device:' line is still read (compare names the device from it).
TEST(ByteOrderMark, AGpuDescriptionReadsAsWithoutIt) {
    const std::string measured = write_file(
        "bom_measured.csv",
        "kernel,width,height,stencil_w,stencil_h,depth,schedule,block,elem_bytes,gpu,time_ms,"
        "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,"
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,"
        "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,"
        "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,dram__bytes_read.sum\n"
        "stencil,64,32,3,5,0,column:8,128,4,NVIDIA Example,0.5,10,40,30,75,20,15,2048\n");
    const std::string args = "compare --no-progress --measured '" + measured + "' --config {}";
    expect_same_report(args, "gpu.cfg", "# device: NVIDIA Example\npreset = h100\nsms = 20\n");
    const auto r = test::run_cachesim(args.substr(0, args.find("{}")) + "'" +
                                      write_file("marked_gpu2.cfg", kMark + "# device: NVIDIA Other\npreset = h100\n") + "'");
    EXPECT_NE(r.err.find("NVIDIA Other"), std::string::npos) << "the device line is read: " << r.err;
}

}  // namespace
}  // namespace cachesim
