// What limits the kernel's compiled loop (--loop-limit, --loop-issue-cost; sim/gpu/loop_issue_cost.hpp):
// gpubench's loops as the H200's table has them unless given, any other loop the issue port, and a
// loop given as a pipe's gets the measured age weight, whatever the kernel.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/gpu/gpu_config.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "sim/gpu/loop_issue_cost.hpp"
#include "sim/thread_model.hpp"
#include "tests/gpu_test_util.hpp"

namespace cachesim {
namespace {

GpuConfig h200() { return find_gpu_preset("h200")->config; }

// The table's limits are the busiest units of the committed file (scripts/issue_cost_table.py):
// the issue port, or a pipe.
TEST(GpuLoopLimit, GpubenchsLoopsAreAsTheTableHasThem) {
    std::ifstream in(std::string(CACHESIM_TEST_DATA_DIR) + "/h200/issue_cost/issue_cost.csv");
    ASSERT_TRUE(in);
    std::string line;
    std::getline(in, line);
    int rows = 0, pipes = 0;
    while (std::getline(in, line)) {
        std::vector<std::string> f;
        std::stringstream fields(line);
        for (std::string cell; std::getline(fields, cell, ',');) f.push_back(cell);
        ASSERT_EQ(f.size(), 13u);
        WorkloadSpec spec = f[0] == "matmul" ? test::matmul(64, 64, 64)
                                             : test::stencil(64, 64, static_cast<std::uint32_t>(std::stoul(f[1])), "linear");
        spec.stencil_h = static_cast<std::uint32_t>(std::stoul(f[2]));
        GpuConfig c = h200();
        c.compilation = f[4] == "index64" ? KernelCompilation::index64
                        : f[4] == "index32" ? KernelCompilation::index32
                                            : KernelCompilation::unroll1;
        const bool pipe = f[11] != "issue";
        EXPECT_EQ(loop_limit_for(c, &spec), pipe ? LoopLimit::pipe : LoopLimit::issue) << line;
        EXPECT_DOUBLE_EQ(loop_issue_cost_for(c, &spec), std::stod(f[12])) << line;
        EXPECT_DOUBLE_EQ(warp_age_weight_for(c, &spec), pipe ? kPipeBoundWarpAgeWeight : 1.0) << line;
        pipes += pipe;
        ++rows;
    }
    EXPECT_EQ(rows, 24);
    // fmaheavy or alu: the 32-bit matmul and 5x5, 7x7, 9x9 stencils, the 64-bit 11x11 and 13x13 stencils and the
    // unrolled-once 5x5 to 13x13 stencils
    EXPECT_EQ(pipes, 11);
}

// A loop no table has (a 3x7 box, a recorded kernel) is the issue port's, with no cost, unless given.
TEST(GpuLoopLimit, AnyOtherLoopIsTheIssuePortsUnlessGiven) {
    GpuConfig c = h200();
    WorkloadSpec other = test::stencil(64, 64, 3, "linear");
    other.stencil_h = 7;
    for (const WorkloadSpec* spec : {&other, static_cast<WorkloadSpec*>(nullptr)}) {
        EXPECT_EQ(loop_limit_for(c, spec), LoopLimit::issue);
        EXPECT_EQ(loop_issue_cost_for(c, spec), 0.0);
        EXPECT_EQ(warp_age_weight_for(c, spec), 1.0);
    }
    c.loop_limit = LoopLimit::pipe;
    for (const WorkloadSpec* spec : {&other, static_cast<WorkloadSpec*>(nullptr)})
        EXPECT_EQ(warp_age_weight_for(c, spec), kPipeBoundWarpAgeWeight);
    // and what is given overrides the table: the 32-bit matmul, a pipe's, said to be the issue port's
    WorkloadSpec matmul = test::matmul(64, 64, 64);
    c.compilation = KernelCompilation::index32;
    c.loop_limit = LoopLimit::issue;
    EXPECT_EQ(warp_age_weight_for(c, &matmul), 1.0);
}

// --miss-wait-turns auto with a given cost, worked by hand: 64 warps an SM on 4 schedulers, the
// unrolled-once matmul's burst of 2 loads, 2 cycles a request: a pass over a scheduler's 16 warps
// takes 16 x 2 x 2 = 64 cycles, so a miss (291 cycles) costs (291 - 64) / 64 turns more than a hit.
TEST(GpuLoopLimit, AGivenCostDecidesTheMissWait) {
    GpuConfig c = h200();
    c.compilation = KernelCompilation::unroll1;
    c.lat_l1_miss = 291;
    c.loop_issue_cost = 2;
    const WorkloadSpec matmul = test::matmul(64, 64, 64);
    EXPECT_DOUBLE_EQ(miss_wait_turns_for(c, &matmul, 64), (291.0 - 64.0) / 64.0);
    c.loop_issue_cost = kLoopIssueCostAuto;  // the table's 7.59: 16 x 2 x 7.59 = 242.88 cycles
    EXPECT_NEAR(miss_wait_turns_for(c, &matmul, 64), (291.0 - 242.88) / 242.88, 1e-12);
    c.loop_issue_cost = 2;
    EXPECT_EQ(miss_wait_turns_for(c, nullptr, 64), 0.0);  // a recorded kernel: its burst unknown
}

TEST(GpuLoopLimit, ACostOutOfRangeIsRefused) {
    GpuConfig c = h200();
    for (double bad : {0.5, 1025.0}) {
        c.loop_issue_cost = bad;
        EXPECT_THROW(validate(c), SimulationError) << bad;
    }
    for (double good : {kLoopIssueCostAuto, 1.0, 1024.0}) {
        c.loop_issue_cost = good;
        EXPECT_NO_THROW(validate(c)) << good;
    }
}

}  // namespace
}  // namespace cachesim
