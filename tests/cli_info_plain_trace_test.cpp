// info on a cst converted from a din (or u64) trace: such a trace records addresses and sizes, not
// elements, so its element size is said to be unrecorded rather than printed as "1 bytes"; and
// counts of one are singular.
#include <gtest/gtest.h>

#include <fstream>

#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

TEST(CliInfoPlainTrace, ElementSizeIsNotRecorded) {
    const std::string din = (test::temp_dir() / "plain.din").string();
    const std::string cst = (test::temp_dir() / "plain.cst").string();
    std::ofstream(din) << "0 10\n1 20\n";  // one read, one write
    ASSERT_EQ(test::run_cachesim("trace -q --trace '" + din + "' --out '" + cst + "'").exit_code, 0);
    const auto r = test::run_cachesim("info --verify '" + cst + "'");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("element size:      not recorded (a plain trace, din or u64)\n"), std::string::npos) << r.out;
    // By hand: two records, one of each label, one block.
    EXPECT_NE(r.out.find("1 block, checksums and records OK; 1 read, 1 write, 2 steps\n"), std::string::npos) << r.out;
}

TEST(CliInfoPlainTrace, WorkloadTraceKeepsItsElementSize) {
    const std::string cst = (test::temp_dir() / "workload.cst").string();
    ASSERT_EQ(test::run_cachesim("trace -q --size 8x8 --stencil 3x3 --out '" + cst + "'").exit_code, 0);
    const auto r = test::run_cachesim("info '" + cst + "'");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    // The workload's elements are 4-byte floats (the default element size).
    EXPECT_NE(r.out.find("element size:      4 bytes\n"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace cachesim
