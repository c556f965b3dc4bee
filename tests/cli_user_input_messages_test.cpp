// A user's input mistakes get a message that names the mistake: a size with three dimensions, a
// PNG named as another format, a --where value no row could hold or none holds, a binary file read
// as a din trace, a CRLF din line, a row's missing trace. Each is exit 2 with nothing written.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;
using test::run_cachesim;

void expect_refused(const std::string& args, const std::string& message) {
    const auto r = run_cachesim(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.out;
    EXPECT_NE(r.err.find(message), std::string::npos) << args << "\n" << r.err;
}

const std::string kStencilCsv = std::string(CACHESIM_TEST_DATA_DIR) + "/h200/fidelity_stencil.csv";

TEST(CliUserInputMessages, ASizeOfThreeDimensionsIsNotWxH) {
    expect_refused("simulate -q --size 16x16x16", "--size: '16x16x16' is not of the form WxH");
    expect_refused("simulate -q --stencil 3x3x3", "--stencil: '3x3x3' is not of the form WxH");
}

TEST(CliUserInputMessages, APngNamedAsAnotherFormatIsRefused) {
    for (const std::string name : {"d.jpg", "d.JPEG", "d.svg"}) {
        const fs::path out = test::temp_dir() / name;
        fs::remove(out);
        expect_refused("diagram -q --out '" + out.string() + "'", "the image is a PNG");
        EXPECT_FALSE(fs::exists(out)) << name;
    }
    const fs::path plot = test::temp_dir() / "heat.gif";
    expect_refused("sweep -q --l1-lines 8,16 --plot '" + plot.string() + "'", "the image is a PNG, not gif");
    EXPECT_FALSE(fs::exists(plot));
    expect_refused("compare -q --measured '" + kStencilCsv + "' --plot '" + (test::temp_dir() / "c.pdf").string() + "'",
                   "the image is a PNG, not pdf");
}

TEST(CliUserInputMessages, AWhereValueNoRowCouldHoldOrNoneHoldsIsNamed) {
    expect_refused("compare -q --measured '" + kStencilCsv + "' --where block=abc", "--where block=abc: block is a whole number");
    expect_refused("compare -q --measured '" + kStencilCsv + "' --where stencil=9", "is not of the form WxH");
    // The file's blocks are 128, 256 and 1,024 (tests/data/h200/fidelity_stencil.csv), in that order.
    expect_refused("compare -q --measured '" + kStencilCsv + "' --where block=96",
                   "no measured rows left after --rows/--where (block in the rows: 128, 256, 1024)");
}

TEST(CliUserInputMessages, ABinaryFileReadAsDinSuggestsU64) {
    const fs::path bin = test::temp_dir() / "addresses.u64";
    {
        std::ofstream out(bin, std::ios::binary);
        const unsigned char bytes[] = {0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0xff, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00};
        out.write(reinterpret_cast<const char*>(bytes), sizeof bytes);
    }
    const auto r = run_cachesim("simulate -q --trace-format din --trace '" + bin.string() + "'");
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_NE(r.err.find("a u64 trace needs --trace-format u64"), std::string::npos) << r.err;
    // No byte outside printable ASCII reaches the terminal.
    for (char c : r.err) EXPECT_TRUE(c == '\n' || (static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7f)) << r.err;
}

TEST(CliUserInputMessages, ACrlfDinLineIsQuotedWithoutItsCr) {
    const fs::path din = test::temp_dir() / "crlf.din";
    std::ofstream(din, std::ios::binary) << "0 10\r\n0 zz\r\n";
    const auto r = run_cachesim("simulate -q --trace '" + din.string() + "'");
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_NE(r.err.find(":2: address is not a hexadecimal number: '0 zz'"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("binary"), std::string::npos) << r.err;
}

TEST(CliUserInputMessages, ARowsMissingTraceNamesTheRow) {
    const fs::path dir = test::temp_dir() / "row-trace-missing";
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::ofstream(dir / "m.csv")
        << "kernel,width,height,stencil_w,stencil_h,depth,schedule,block,elem_bytes,gpu,time_ms,trace,"
           "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,"
           "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,"
           "lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,"
           "lts__t_sector_op_read_hit_rate.pct,dram__bytes_read.sum\n"
           "transpose,64,64,0,0,0,linear,256,4,NVIDIA H200,0.01,missing.cst,128,512,0,0,512,0,0,16384\n";
    expect_refused("compare -q --measured '" + (dir / "m.csv").string() + "'", "m.csv:2: the row's trace: ");
}

}  // namespace
}  // namespace cachesim
