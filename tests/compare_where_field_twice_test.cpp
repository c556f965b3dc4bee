// compare --where: when filters leave no row, the message lists each field's values in the rows
// once, even where the field is filtered twice (--where block=128 --where block=256).
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
    "stencil,64,64,3,3,0,linear,128,4,NVIDIA H200,1000,4000,3000,75,100,50,6400\n"
    "stencil,64,64,3,3,0,linear,256,4,NVIDIA H200,1000,4000,3000,75,100,50,6400\n";

TEST(CompareWhereFieldTwice, TheFieldsValuesAreListedOnce) {
    const fs::path dir = test::temp_dir() / "where-field-twice";
    fs::create_directories(dir);
    std::ofstream(dir / "mine.csv") << kMeasured;
    const auto r = test::run_cachesim("compare --no-progress --measured '" + (dir / "mine.csv").string() +
                                      "' --where block=128 --where block=256");
    EXPECT_EQ(r.exit_code, 2);
    // the rows' blocks, 128 and 256, in numeric order, once
    EXPECT_NE(r.err.find("no measured rows left after --rows/--where (block in the rows: 128, 256)\n"),
              std::string::npos)
        << r.err;
}

}  // namespace
}  // namespace cachesim
