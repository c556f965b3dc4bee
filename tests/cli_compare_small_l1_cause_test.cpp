// cachesim compare's note on rows whose L1 is smaller than the 224 KiB the per-warp rates were
// fitted at names what made it small: the rows' shared memory, the L1 options given with --gpu,
// or both.
#include <gtest/gtest.h>

#include <fstream>

#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

const std::string kNote = "1 of the 1 rows leave the L1 smaller than the 224 KiB the per-warp rates were fitted at";

// One measured stencil row of blocks of 128 threads with `smem` bytes of shared memory a block.
std::string row_file(const std::string& name, int smem) {
    const std::string file = (test::temp_dir() / name).string();
    std::ofstream(file) << "kernel,width,height,stencil_w,stencil_h,depth,schedule,block,elem_bytes,gpu,time_ms,"
                           "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,"
                           "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,"
                           "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,"
                           "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,"
                           "lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,"
                           "dram__bytes_read.sum,smem_per_block\n"
                           "stencil,64,64,3,3,0,linear,128,4,NVIDIA H200,0.01,1152,4992,4240,84.94,1136,176,32768,"
                        << smem << "\n";
    return file;
}

test::CommandResult compare(const std::string& file, const std::string& options) {
    return test::run_cachesim("compare --no-progress --measured '" + file + "' " + options);
}

// 11,264 bytes a block of 128 threads: the H200's carve-out leaves a 60 KiB L1.
TEST(CliCompareSmallL1Cause, SharedMemory) {
    const auto r = compare(row_file("smem.csv", 11264), "");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("compare: note: " + kNote + " (their shared memory takes the rest)"), std::string::npos)
        << r.err;
    EXPECT_NE(r.out.find("note: " + kNote + " (their shared memory takes the rest)"), std::string::npos) << r.out;
}

// No shared memory, a 64 KiB L1 given: the option, not shared memory.
TEST(CliCompareSmallL1Cause, TheL1SizeGiven) {
    const auto r = compare(row_file("none.csv", 0), "--gpu l1-size=64K");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("compare: note: " + kNote + " (made so by the L1 size given with --gpu l1-size=64K);"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find("shared memory"), std::string::npos) << r.err;
    EXPECT_NE(r.out.find("note: " + kNote + " (made so by the L1 size given with --gpu l1-size=64K);"),
              std::string::npos)
        << r.out;
}

// A fixed L1 size: the shared memory does not take from it, so only the option is named.
TEST(CliCompareSmallL1Cause, AFixedL1SizeWithSharedMemory) {
    const auto r = compare(row_file("fixed.csv", 11264), "--gpu l1-size=64K");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("(made so by the L1 size given with --gpu l1-size=64K);"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("shared memory"), std::string::npos) << r.err;
}

// A 192 KiB unified array: with no shared memory the L1 is at most 192 KiB, below 224 already;
// the row's shared memory takes a larger carve-out and leaves less. Both are named.
TEST(CliCompareSmallL1Cause, Both) {
    const auto r = compare(row_file("both.csv", 11264), "--gpu unified-l1=192K --gpu carveouts=0,8,16,32,64,100,132");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("(made so by the L1 size given with --gpu unified-l1=192K, --gpu carveouts=0,8,16,32,64,100,132 "
                         "and their shared memory);"),
              std::string::npos)
        << r.err;
}

}  // namespace
}  // namespace cachesim
