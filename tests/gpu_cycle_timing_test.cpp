// Cycle timing (GpuConfig::timing cycles): warps issue a burst, one request a cycle on their
// scheduler (warp slot mod 4), then wait for the burst's data. Issue cycles worked by hand with an
// L1 hit latency of 10 and an L1 miss latency of 100 cycles; the issue log's "round" is the tick
// 4c + q (cycle c, scheduler q). Then: the same results on 1 and 3 threads, and the same request
// and sector counts as rounds (coalescing does not depend on the order).
#include <gtest/gtest.h>

#include <vector>

#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "tests/gpu_issue_order.hpp"
#include "tests/gpu_test_util.hpp"

namespace cachesim {
namespace {

GpuConfig cycles(std::uint32_t burst) {
    GpuConfig c = find_gpu_preset("h200")->config;
    c.timing = IssueTiming::cycles;
    c.lat_l1_hit = 10;
    c.lat_l1_miss = 100;
    c.issue_burst = burst;
    return c;
}

struct Expected {
    std::uint64_t tick;
    std::uint64_t block;
    std::uint32_t warp, k;
    bool miss;
};

void expect_log(const std::vector<GpuIssue>& log, const std::vector<Expected>& want) {
    ASSERT_EQ(log.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        SCOPED_TRACE("request " + std::to_string(i));
        EXPECT_EQ(log[i].round, want[i].tick);
        EXPECT_EQ(log[i].block, want[i].block);
        EXPECT_EQ(log[i].warp, want[i].warp);
        EXPECT_EQ(log[i].k, want[i].k);
        EXPECT_EQ(log[i].l1_miss, want[i].miss);
    }
}

// One warp (matmul 32x1, depth 2: A[0][0], B row 0, A[0][1], B row 1, the store) in bursts of two
// on scheduler 0. k0 misses at cycle 0 (data at 100), k1 misses at cycle 1 (101): the warp waits
// until 101. k2 hits A's sector, there since 100: data at 111; k3 misses at 102 (202). The store
// issues at 202, tick 808; the launch took 203 cycles.
TEST(GpuCycleTiming, AWarpIssuesItsBurstThenWaitsForTheData) {
    GpuConfig c = cycles(2);
    const std::vector<GpuIssue> log = test::issue_log_on_one_sm(test::matmul(32, 1, 2), c);
    expect_log(log, {{0, 0, 0, 0, true}, {4, 0, 0, 1, true}, {404, 0, 0, 2, false}, {408, 0, 0, 3, true},
                     {808, 0, 0, 4, false}});
    c = with_sms(c, 1);
    c.cta_order = CtaOrder::round_robin;
    EXPECT_EQ(simulate_gpu_model(test::matmul(32, 1, 2), c).rounds, 203u);
}

// Two warps of one block share A[0][0]. Warp 0 (scheduler 0) misses it at cycle 0; warp 1
// (scheduler 1) asks in the same cycle: a hit (the sector is on its way) whose data comes with
// warp 0's at 100, not 10 cycles later. Both then miss their own B lines at cycle 100 (data at
// 200) and store at 200.
TEST(GpuCycleTiming, AFollowerHitsASectorOnItsWayAndWaitsForIt) {
    const GpuConfig c = cycles(1);
    GpuConfig one = c;
    one.block = 64;
    expect_log(test::issue_log_on_one_sm(test::matmul(64, 1, 1), one),
               {{0, 0, 0, 0, true}, {1, 0, 1, 0, false}, {400, 0, 0, 1, true}, {401, 0, 1, 1, true},
                {800, 0, 0, 2, false}, {801, 0, 1, 2, false}});
}

// Five warps of one block: warps 0-3 on schedulers 0-3 issue in cycle 0; warp 4, on scheduler 0
// again, issues in cycle 1 (tick 4), though it was ready in cycle 0.
TEST(GpuCycleTiming, EachSchedulerIssuesOneRequestACycle) {
    GpuConfig c = cycles(1);
    c.block = 160;
    const std::vector<GpuIssue> log = test::issue_log_on_one_sm(test::matmul(160, 1, 1), c);
    ASSERT_GE(log.size(), 5u);
    for (std::uint32_t w = 0; w < 5; ++w) {
        EXPECT_EQ(log[w].round, w) << "warp " << w;
        EXPECT_EQ(log[w].warp, w);
        EXPECT_EQ(log[w].k, 0u);
        EXPECT_EQ(log[w].l1_miss, w == 0) << "warps 1-4 hit warp 0's sector on its way";
    }
    EXPECT_EQ(log[5].round, 400u) << "then every warp waits for A's sector, there at 100";
}

// One block per SM, two blocks of one warp. Block 0 stores at cycle 200 (as in the test above)
// and frees the SM; block 1 starts the cycle after: its A[0][0] hits (data at 201 + 10), its own
// B line misses at 211 (data at 311), and it stores at 311.
TEST(GpuCycleTiming, ANewBlockStartsWhenTheSlotFrees) {
    GpuConfig c = cycles(1);
    c.block = 32;
    c.max_blocks_per_sm = 1;
    expect_log(test::issue_log_on_one_sm(test::matmul(64, 1, 1), c),
               {{0, 0, 0, 0, true}, {400, 0, 0, 1, true}, {800, 0, 0, 2, false},
                {804, 1, 0, 0, false}, {844, 1, 0, 1, true}, {1244, 1, 0, 2, false}});
}

GpuResult run(const WorkloadSpec& spec, GpuConfig c, std::uint32_t threads) {
    RunControl control;
    control.threads = threads;
    return simulate_gpu_model(spec, c, control);
}

// The SMs run alone in chunks, on any number of threads: bit-identical results; and the order
// does not change what the requests are.
TEST(GpuCycleTiming, ThreadsAndRequestCounts) {
    GpuConfig c = find_gpu_preset("h200")->config;
    c.block = 128;
    for (const WorkloadSpec& spec : {test::stencil(256, 192, 5, "column:32"), test::matmul(128, 128, 128)}) {
        c.timing = IssueTiming::cycles;
        const GpuResult one = run(spec, c, 1), three = run(spec, c, 3);
        EXPECT_EQ(one.rounds, three.rounds);
        EXPECT_EQ(one.ncu.l1_sectors_ld_hit, three.ncu.l1_sectors_ld_hit);
        EXPECT_EQ(one.ncu.l2_sectors_tex_read, three.ncu.l2_sectors_tex_read);
        EXPECT_EQ(one.ncu.l2_sectors_tex_read_hit, three.ncu.l2_sectors_tex_read_hit);
        EXPECT_EQ(one.ncu.l2_sectors_coalesced, three.ncu.l2_sectors_coalesced);
        EXPECT_EQ(one.ncu.dram_bytes_read, three.ncu.dram_bytes_read);
        c.timing = IssueTiming::rounds;
        const GpuResult rounds = run(spec, c, 2);
        EXPECT_EQ(one.ncu.l1_requests_ld, rounds.ncu.l1_requests_ld);
        EXPECT_EQ(one.ncu.l1_sectors_ld, rounds.ncu.l1_sectors_ld);
        EXPECT_EQ(one.store_sectors, rounds.store_sectors);
        // L1 misses all reach the L2, looked up or coalesced
        EXPECT_EQ(one.ncu.l1_sectors_ld - one.ncu.l1_sectors_ld_hit,
                  one.ncu.l2_sectors_tex_read + one.ncu.l2_sectors_coalesced);
    }
}

}  // namespace
}  // namespace cachesim
