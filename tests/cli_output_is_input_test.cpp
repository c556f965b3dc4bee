// An output path that names a file the run reads is refused before the run, and the input stays
// as it was; so are two outputs of one run that name the same file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/cli_util.hpp"
#include "tests/scratch_dir.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;
using test::run_cachesim;

const std::string kTrace = "0 1000\n1 2000 8\n0 1040\n";
// A measured row compare accepts (the columns gpubench writes, one stencil launch).
const std::string kMeasured =
    "kernel,width,height,stencil_w,stencil_h,depth,schedule,block,elem_bytes,gpu,time_ms,"
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,"
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,"
    "lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,"
    "lts__t_sector_op_read_hit_rate.pct,dram__bytes_read.sum\n"
    "stencil,128,128,3,3,0,linear,128,4,NVIDIA H200,0.01,4608,20736,14624,70.52,4065,2361,46.97,65536\n";

// Runs `args` (with {in} replaced by the input's path) and expects exit 2 naming `option`, the
// input's bytes unchanged.
void expect_refused(const fs::path& input, const std::string& content, std::string args, const std::string& option) {
    std::ofstream(input) << content;
    for (std::size_t at; (at = args.find("{in}")) != std::string::npos;) args.replace(at, 4, "'" + input.string() + "'");
    const auto r = run_cachesim(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
    EXPECT_NE(r.err.find(option), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("destroy"), std::string::npos) << r.err;
    EXPECT_EQ(test::read_file(input), content) << args;
    EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(CliOutputIsInput, EveryCommandRefusesToWriteOverItsTrace) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "output_is_input");
    const fs::path trace = dir / "t.din";
    expect_refused(trace, kTrace, "simulate -q --trace {in} -o {in}", "--output");
    expect_refused(trace, kTrace, "simulate -q --trace {in} --format json --output {in}", "--output");
    expect_refused(trace, kTrace, "trace -q --trace {in} -o {in}", "--out");
    expect_refused(trace, kTrace, "diagram --trace {in} --out {in}", "--out");
    expect_refused(trace, kTrace, "sweep -q --trace {in} --l1-size 1K,2K --output {in}", "--output");
    expect_refused(trace, kTrace, "sweep -q --trace {in} --l1-size 1K,2K --plot {in}", "--plot");
}

TEST(CliOutputIsInput, AnotherSpellingOfThePathIsTheSameFile) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "output_is_input_spelling");
    const fs::path trace = dir / "t.din";
    fs::create_symlink(trace, dir / "link.din");
    expect_refused(trace, kTrace,
                   "simulate -q --trace {in} -o '" + (dir / "." / "link.din").string() + "'", "--output");
}

TEST(CliOutputIsInput, ConfigFilesAndMeasuredFilesAreInputsToo) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "output_is_input_other");
    expect_refused(dir / "c.cfg", "schedule = column:4\n", "simulate -q --config {in} -o {in}", "--config");
    expect_refused(dir / "m.csv", kMeasured, "compare --no-progress --measured {in} --out {in}", "--measured");
    expect_refused(dir / "m.csv", kMeasured, "compare --no-progress --measured {in} --plot {in}", "--measured");
}

TEST(CliOutputIsInput, TwoOutputsOfOneRunMayNotShareAFile) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "outputs_differ");
    const std::string same = "'" + (dir / "r.csv").string() + "'", again = "'" + (dir / "." / "r.csv").string() + "'";
    auto r = run_cachesim("sweep -q --l1-size 1K,2K -o " + same + " --plot " + again);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("same file"), std::string::npos) << r.err;
    std::ofstream(dir / "m.csv") << kMeasured;
    r = run_cachesim("compare --no-progress --measured '" + (dir / "m.csv").string() + "' --out " + same + " --plot " + again);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("same file"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / "r.csv"));
    // Devices take both writes in turn.
    r = run_cachesim("sweep -q --l1-size 1K,2K -o /dev/null --plot /dev/null");
    EXPECT_EQ(r.exit_code, 0) << r.err;
}

}  // namespace
}  // namespace cachesim
