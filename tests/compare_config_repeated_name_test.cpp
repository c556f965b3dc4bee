// compare --config: a description giving one name on two lines (two presets, two SM counts) is
// refused naming both lines, rather than simulated with whichever line comes last.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;

const char* kMeasured =
    "kernel,width,height,stencil_w,stencil_h,depth,schedule,block,elem_bytes,gpu,"
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,"
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,"
    "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,"
    "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,dram__bytes_read.sum\n"
    "stencil,64,64,3,3,0,linear,128,4,NVIDIA L4,1000,4000,3000,75,100,50,6400\n";

test::CommandResult compare_with(const std::string& name, const std::string& description) {
    const fs::path dir = test::temp_dir() / "config-repeated-name";
    fs::create_directories(dir);
    std::ofstream(dir / "mine.csv") << kMeasured;
    std::ofstream(dir / name) << description;
    return test::run_cachesim("compare --no-progress --config '" + (dir / name).string() + "' --measured '" +
                              (dir / "mine.csv").string() + "'");
}

TEST(CompareConfigRepeatedName, TwoPresetLinesAreRefused) {
    const auto r = compare_with("presets.cfg", "# device: NVIDIA L4\npreset = a100\nsms = 58\npreset = h100\n");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("presets.cfg:4: 'preset' is given twice, on line 2 and here"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty());
}

TEST(CompareConfigRepeatedName, TwoLinesOfAParameterAreRefused) {
    // (spaces around the name do not make it another)
    const auto r = compare_with("sms.cfg", "preset = a100\nsms = 58\n# edited by hand\n  sms   = 60\n");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("sms.cfg:4: 'sms' is given twice, on line 2 and here"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty());
}

}  // namespace
}  // namespace cachesim
