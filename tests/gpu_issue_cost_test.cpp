// Cycle timing's issue cost (GpuConfig::issue_cycles): each request takes its scheduler for that
// many cycles, in fractions of a cycle. Issue cycles worked by hand as in gpu_cycle_timing_test
// (L1 hit latency 10, miss 100; the issue log's "round" is the tick 4c + q); then the measured
// costs of gpubench's loops against the committed table they were read from.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "sim/gpu/loop_issue_cost.hpp"
#include "sim/thread_model.hpp"
#include "tests/gpu_issue_order.hpp"
#include "tests/gpu_test_util.hpp"

namespace cachesim {
namespace {

GpuConfig cycles(std::uint32_t burst, double issue_cycles) {
    GpuConfig c = find_gpu_preset("h200")->config;
    c.timing = IssueTiming::cycles;
    c.lat_l1_hit = 10;
    c.lat_l1_miss = 100;
    c.issue_burst = burst;
    c.issue_cycles = issue_cycles;
    return c;
}

// One warp (matmul 32x1, depth 2: A[0][0], B row 0, A[0][1], B row 1, the store) in bursts of two,
// each request taking its scheduler 3 cycles: k0 misses at cycle 0 (data at 100), k1 at cycle 3
// (data at 103); the warp waits until 103, where k2 hits A's sector (there since 100: data at
// 113); the scheduler is free again at 106, where k3 misses (data at 206); the store issues at
// 206 (tick 824) and the launch takes 207 cycles.
TEST(GpuIssueCost, ARequestTakesItsSchedulerForItsCost) {
    GpuConfig c = cycles(2, 3);
    const std::vector<GpuIssue> log = test::issue_log_on_one_sm(test::matmul(32, 1, 2), c);
    ASSERT_EQ(log.size(), 5u);
    const std::uint64_t ticks[] = {0, 12, 412, 424, 824};
    const bool misses[] = {true, true, false, true, false};
    for (std::size_t i = 0; i < 5; ++i) {
        EXPECT_EQ(log[i].round, ticks[i]) << "request " << i;
        EXPECT_EQ(log[i].k, i);
        EXPECT_EQ(log[i].l1_miss, misses[i]) << "request " << i;
    }
    c = with_sms(c, 1);
    c.cta_order = CtaOrder::round_robin;
    EXPECT_EQ(simulate_gpu_model(test::matmul(32, 1, 2), c).rounds, 207u);
}

// Five warps of one block, cost 2.5: warps 0-3 issue on schedulers 0-3 in cycle 0; warp 4, on
// scheduler 0 again, waits until the scheduler is free during cycle 2 (tick 8), not cycle 1.
TEST(GpuIssueCost, OtherWarpsOfTheSchedulerWait) {
    GpuConfig c = cycles(1, 2.5);
    c.block = 160;
    const std::vector<GpuIssue> log = test::issue_log_on_one_sm(test::matmul(160, 1, 1), c);
    ASSERT_GE(log.size(), 5u);
    for (std::uint32_t w = 0; w < 4; ++w) EXPECT_EQ(log[w].round, w) << "warp " << w;
    EXPECT_EQ(log[4].round, 8u);
    EXPECT_EQ(log[4].warp, 4u);
}

// One warp's burst of four (matmul depth 2) at cost 2.5: the scheduler is free from 2.5, 5.0,
// 7.5, so the requests issue in cycles 0, 2, 5, 7 (ticks 0, 8, 20, 28): the half cycles carry
// instead of being rounded up to 3 each.
TEST(GpuIssueCost, FractionsOfACycleCarry) {
    const std::vector<GpuIssue> log = test::issue_log_on_one_sm(test::matmul(32, 1, 2), cycles(4, 2.5));
    ASSERT_EQ(log.size(), 5u);
    const std::uint64_t ticks[] = {0, 8, 20, 28};
    for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(log[i].round, ticks[i]) << "request " << i;
}

// "auto" reads the measured cost of the compiled loop; a loop nobody measured, or a recorded
// kernel, costs one cycle a request.
TEST(GpuIssueCost, AutoReadsTheMeasuredLoop) {
    GpuConfig c = cycles(1, kIssueCyclesAuto);
    c.compilation = KernelCompilation::index32;
    const WorkloadSpec matmul = test::matmul(64, 64, 64);
    EXPECT_DOUBLE_EQ(cycle_issue_cost(c, &matmul), 5.22);
    c.compilation = KernelCompilation::index64;
    EXPECT_DOUBLE_EQ(cycle_issue_cost(c, &matmul), 3.62);
    const WorkloadSpec box4 = test::stencil(64, 64, 4, "linear");
    EXPECT_DOUBLE_EQ(cycle_issue_cost(c, &box4), 1.0);
    EXPECT_DOUBLE_EQ(cycle_issue_cost(c, nullptr), 1.0);
    c.issue_cycles = 2.75;
    EXPECT_DOUBLE_EQ(cycle_issue_cost(c, &matmul), 2.75);
}

// Every row of the measured table (tests/data/h200/issue_cost/issue_cost.csv, written by
// scripts/issue_cost_table.py from the ncu counters) is the cost the model uses for that loop.
TEST(GpuIssueCost, TheTableIsTheMeasuredFile) {
    std::ifstream in(std::string(CACHESIM_TEST_DATA_DIR) + "/h200/issue_cost/issue_cost.csv");
    ASSERT_TRUE(in) << "issue_cost.csv";
    std::string line;
    std::getline(in, line);  // header
    int rows = 0;
    while (std::getline(in, line)) {
        std::vector<std::string> f;
        std::stringstream fields(line);
        for (std::string cell; std::getline(fields, cell, ',');) f.push_back(cell);
        ASSERT_EQ(f.size(), 13u) << line;
        WorkloadSpec spec = f[0] == "matmul" ? test::matmul(64, 64, 64)
                                             : test::stencil(64, 64, static_cast<std::uint32_t>(std::stoul(f[1])), "linear");
        spec.stencil_h = static_cast<std::uint32_t>(std::stoul(f[2]));
        const KernelCompilation compilation = f[4] == "index64"   ? KernelCompilation::index64
                                              : f[4] == "index32" ? KernelCompilation::index32
                                                                  : KernelCompilation::unroll1;
        EXPECT_DOUBLE_EQ(measured_issue_cost(spec, compilation), std::stod(f[12])) << line;
        ++rows;
    }
    EXPECT_EQ(rows, 24);
}

// A configuration built in code is checked as the options are: a cost below one cycle a request,
// or above 1024, is refused; auto and the bounds themselves are taken.
TEST(GpuIssueCost, ValidateRefusesCostsOutOfRange) {
    GpuConfig c = cycles(1, 0.5);
    EXPECT_THROW(validate(c), SimulationError);
    c.issue_cycles = 1025;
    EXPECT_THROW(validate(c), SimulationError);
    for (double ok : {1.0, 1024.0, kIssueCyclesAuto}) {
        c.issue_cycles = ok;
        EXPECT_NO_THROW(validate(c)) << ok;
    }
}

// The cost is per SM and scheduler state, so the SMs still run alone: 1 and 3 threads give the
// same counters with the measured costs of a stencil and a matmul.
TEST(GpuIssueCost, ThreadsGiveTheSameCounters) {
    GpuConfig c = find_gpu_preset("h200")->config;
    c.timing = IssueTiming::cycles;
    c.issue_cycles = kIssueCyclesAuto;
    c.block = 128;
    for (const WorkloadSpec& spec : {test::stencil(256, 192, 5, "column:32"), test::matmul(128, 128, 128)}) {
        RunControl one, three;
        one.threads = 1;
        three.threads = 3;
        const GpuResult a = simulate_gpu_model(spec, c, one), b = simulate_gpu_model(spec, c, three);
        EXPECT_EQ(a.rounds, b.rounds);
        EXPECT_EQ(a.ncu.l1_sectors_ld_hit, b.ncu.l1_sectors_ld_hit);
        EXPECT_EQ(a.ncu.l2_sectors_tex_read_hit, b.ncu.l2_sectors_tex_read_hit);
        EXPECT_EQ(a.ncu.l2_sectors_coalesced, b.ncu.l2_sectors_coalesced);
    }
}

}  // namespace
}  // namespace cachesim
