// compare --config: a value the GPU model refuses in a description's line is named by the file
// and line that hold it, not as a --gpu option the user never gave.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;

// A small stencil launch on an RTX 4090 (made-up but consistent counters: 3000 of 4000 sectors hit, 75%).
const char* kMeasured =
    "kernel,width,height,stencil_w,stencil_h,depth,schedule,block,elem_bytes,gpu,"
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,"
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,"
    "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,"
    "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,dram__bytes_read.sum\n"
    "stencil,64,64,3,3,0,linear,128,4,NVIDIA GeForce RTX 4090,1000,4000,3000,75,100,50,6400\n";

// Lines 1-4 as gpubench --describe writes them for the RTX 4090 (compute capability 8.9).
const std::string kDescription =
    "# device: NVIDIA GeForce RTX 4090\n"  // line 1
    "preset = a100\n"                      // line 2
    "sms = 128\n"                          // line 3
    "l2-size = 75497472\n";                // line 4

test::CommandResult compare_with(const std::string& name, const std::string& description) {
    const fs::path dir = test::temp_dir() / "config-value-line";
    fs::create_directories(dir);
    std::ofstream(dir / "mine.csv") << kMeasured;
    std::ofstream(dir / name) << description;
    return test::run_cachesim("compare --no-progress --config '" + (dir / name).string() + "' --measured '" +
                              (dir / "mine.csv").string() + "'");
}

TEST(CompareConfigValueLine, AValueTheModelRefusesNamesItsLine) {
    // line 5: a size with a unit the model does not take
    const auto r = compare_with("unit.cfg", kDescription + "unified-l1 = 128KB\n");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("unit.cfg:5: --unified-l1: '128KB' is not a size"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("--gpu"), std::string::npos) << "no --gpu was given: " << r.err;
    EXPECT_TRUE(r.out.empty());
}

TEST(CompareConfigValueLine, TwoLinesThatContradictNameTheOneTheMessageIsAbout) {
    // line 6's carve-out of 132 KiB does not fit line 5's 128 KiB array
    const auto r = compare_with("carve.cfg", kDescription + "unified-l1 = 128K\ncarveouts = 0,8,16,32,64,100,132\n");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("carve.cfg:6: --carveouts: 132 KiB is more than"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty());
}

}  // namespace
}  // namespace cachesim
