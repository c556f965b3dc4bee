// The documentation's table of the example kernels (scripts/make_docs.py, examples-table) made
// from a compare output of a fake measured file in a temporary folder: the hand-derived counts
// of a tiny tiled transpose are shown once where chip and model agree, both where they differ.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "examples/example_spec.hpp"
#include "examples/host_backend.hpp"
#include "examples/record_main.hpp"
#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

TEST(ExamplesDocTable, MadeFromACompareOutput) {
    const auto dir = test::temp_dir() / "doc-table";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir / "examples");
    const examples::ExampleSpec spec = examples::parse_example_spec("transpose_tiled:64x64");
    examples::HostBackend backend;
    examples::record_example(spec, (dir / "examples" / "transpose_tiled_64x64.cst").string(), backend);
    // The model's counts (hand-derived in compare_recorded_test): 128 requests, 512 sectors, no
    // L1 or L2 hit, 16384 DRAM bytes. The first row agrees; the second claims 130 requests,
    // 520 sectors, an L1 rate of 1.5% and 20000 DRAM bytes.
    std::ofstream(dir / "m.csv")
        << "kernel,width,height,stencil_w,stencil_h,depth,schedule,block,elem_bytes,gpu,time_ms,example,trace,"
           "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,"
           "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,"
           "lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,"
           "lts__t_sector_op_read_hit_rate.pct,dram__bytes_read.sum\n"
        << "transpose_tiled,64,64,0,0,0,linear,256,4,NVIDIA H200,0.0125,transpose_tiled:64x64,examples/transpose_tiled_64x64.cst,"
           "128,512,0,0,512,0,0,16384\n"
        << "transpose_tiled,64,64,0,0,0,linear,256,4,NVIDIA H200,0.02,transpose_tiled:64x64,examples/transpose_tiled_64x64.cst,"
           "130,520,8,1.5,512,0,0,20000\n";
    const auto compared = test::run_cachesim("compare --no-progress --measured '" + (dir / "m.csv").string() +
                                             "' --out '" + (dir / "j.csv").string() + "'");
    ASSERT_EQ(compared.exit_code, 0) << compared.err;
    const std::string script = std::string(CACHESIM_TEST_DATA_DIR) + "/../../scripts/make_docs.py";
    const auto table = test::run_shell("python3 '" + script + "' --bin CACHESIM --examples-table '" +
                                       (dir / "j.csv").string() + "'");
    ASSERT_EQ(table.exit_code, 0) << table.err;
    EXPECT_NE(table.out.find("| transpose_tiled 64x64 | linear | 256 | 0.013 | 128 (equal) | 512 (equal) | 0.00 | 0.00 | "
                             "0.00 | 0.00 | 0.0 | 0.0 |"),
              std::string::npos)
        << table.out;
    EXPECT_NE(table.out.find("| transpose_tiled 64x64 | linear | 256 | 0.020 | 130 / 128 | 520 / 512 | 1.50 | 0.00 | "
                             "0.00 | 0.00 | 0.0 | 0.0 |"),
              std::string::npos)
        << table.out;
}

}  // namespace
}  // namespace cachesim
