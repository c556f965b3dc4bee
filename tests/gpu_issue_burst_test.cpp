// Warps issue in bursts (GpuConfig::issue_burst): hand-worked issue orders on one SM, the rule
// alone (continues_burst), the "auto" burst of each workload, and the refusals. The block start
// skip has gpu_block_start_skip_test.cpp. The orders on random launches, with rates and
// greedy-then-oldest, are checked against a turn-by-turn reference in gpu_dispatch_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>
#include <vector>

#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "tests/gpu_issue_order.hpp"
#include "tests/gpu_test_util.hpp"
#include "traces/instruction_pipes.hpp"

namespace cachesim {
namespace {

using test::Issued;

// One SM, lock step, one request per round: the launch's requests in issue order.
std::vector<Issued> issue_order(const WorkloadSpec& spec, const GpuConfig& c) {
    const std::vector<GpuIssue> log = test::issue_log_on_one_sm(spec, c);
    for (std::size_t i = 0; i < log.size(); ++i) EXPECT_EQ(log[i].round, i) << "one request per round";
    return test::issued(log);
}

GpuConfig base() {
    GpuConfig c = find_gpu_preset("h200")->config;
    c.block_start_skip = 0;
    return c;
}

// A 64x1 3x3 stencil in one block of two warps: ten requests per warp (nine loads, the store).
TEST(GpuIssueBurst, AWarpIssuesItsGroupInARow) {
    const WorkloadSpec spec = test::stencil(64, 1, 3);
    GpuConfig c = base();
    c.block = 64;
    c.issue_burst = 1;  // plain loose round robin: the warps alternate
    std::vector<Issued> want;
    for (std::uint32_t k = 0; k < 10; ++k)
        for (std::uint32_t w = 0; w < 2; ++w) want.emplace_back(0, w, k);
    EXPECT_EQ(issue_order(spec, c), want);

    c.issue_burst = kIssueBurstAuto;  // 3x3: the nine loads, then the store on a turn of its own
    want.clear();
    for (std::uint32_t w = 0; w < 2; ++w)
        for (std::uint32_t k = 0; k < 9; ++k) want.emplace_back(0, w, k);
    want.emplace_back(0, 0, 9);
    want.emplace_back(0, 1, 9);
    EXPECT_EQ(issue_order(spec, c), want);

    c.issue_burst = 4;  // groups k 0-3, 4-7, 8-9
    want.clear();
    for (std::uint32_t first : {0u, 4u, 8u})
        for (std::uint32_t w = 0; w < 2; ++w)
            for (std::uint32_t k = first; k < std::min(first + 4, 10u); ++k) want.emplace_back(0, w, k);
    EXPECT_EQ(issue_order(spec, c), want);
}

// A group does not outlive its warp: three blocks of one warp (two requests each) on an SM that
// holds two, bursts of 3. Block 0 issues both requests and frees slot 0; block 2 takes it, but the
// round robin goes on to block 1 first, and block 2 starts its own group after that.
TEST(GpuIssueBurst, ANewWarpStartsItsOwnGroup) {
    const WorkloadSpec spec = test::stencil(96, 1, 1);
    GpuConfig c = base();
    c.block = 32;
    c.max_blocks_per_sm = 2;
    c.issue_burst = 3;  // longer than a warp's two requests
    const std::vector<Issued> want = {{0, 0, 0}, {0, 0, 1}, {1, 0, 0}, {1, 0, 1}, {2, 0, 0}, {2, 0, 1}};
    EXPECT_EQ(issue_order(spec, c), want);
}

// The rule alone: the warp that issued last keeps the turn while its next request k is inside a
// group (k not a multiple of the burst), and never once its slot is empty.
TEST(GpuIssueBurst, TheLastWarpKeepsTheTurnInsideAGroup) {
    WarpSlot w;
    w.lanes = 32;
    for (std::uint32_t k : {1u, 2u, 3u, 5u}) {
        w.k = k;
        EXPECT_TRUE(continues_burst(w, 4, burst_magic(4))) << k;
    }
    for (std::uint32_t k : {0u, 4u, 8u}) {
        w.k = k;
        EXPECT_FALSE(continues_burst(w, 4, burst_magic(4))) << k;
    }
    w.k = 3;
    EXPECT_FALSE(continues_burst(w, 1, burst_magic(1)));  // no bursts
    w.lanes = 0;
    EXPECT_FALSE(continues_burst(w, 4, burst_magic(4)));  // the warp has finished
}

TEST(GpuIssueBurst, AutoIsOneIterationOfTheCompiledLoop) {
    GpuConfig c = base();
    c.issue_burst = kIssueBurstAuto;
    const WorkloadSpec stencil3 = test::stencil(64, 64, 3), stencil9 = test::stencil(64, 64, 9);
    const WorkloadSpec matmul = test::matmul(64, 64, 64);
    EXPECT_EQ(issue_burst_for(c, &stencil3), 9u);
    EXPECT_EQ(issue_burst_for(c, &stencil9), 81u);
    EXPECT_EQ(issue_burst_for(c, &matmul), 32u);  // k unrolled 16 times: A and B
    c.issue_burst = 5;
    EXPECT_EQ(issue_burst_for(c, &matmul), 5u);
    c.scheduler = WarpScheduler::gto;  // greedy anyway
    EXPECT_EQ(issue_burst_for(c, &matmul), 1u);
    EXPECT_EQ(find_gpu_preset("h200")->config.issue_burst, kIssueBurstAuto);
    EXPECT_EQ(find_gpu_preset("v100")->config.issue_burst, 1u);  // not measured: one per turn
}

// Boxes gpubench does not specialise run the generic kernel: a row's loads in pieces of w mod 4 + 4,
// then 4 each (tests/data/h200/issue_cost/opcode_mix.csv: the 3x5, 11x11 and 13x13 probes execute
// their 1-load, 2-load and 4-load blocks so). By hand, the mean over a row's loads of their piece:
TEST(GpuIssueBurst, TheGenericStencilKernelsRowIsItsPieces) {
    GpuConfig c = base();
    c.issue_burst = kIssueBurstAuto;
    auto box = [](std::uint32_t w, std::uint32_t h) {
        WorkloadSpec s = test::stencil(64, 64, 3);
        s.stencil_w = w;
        s.stencil_h = h;
        return s;
    };
    const std::tuple<std::uint32_t, std::uint32_t, std::uint32_t> cases[] = {
        {3, 5, 3},    // one piece of 3
        {5, 7, 5},    // 1 + 4 in one piece (the loop of 4 runs once: no jump back)
        {11, 11, 6},  // 3 + 4, then 4: (49 + 16) / 11 = 5.9
        {13, 13, 4},  // 1 + 4, 4, 4: (25 + 16 + 16) / 13 = 4.4
        {8, 8, 4},    // 0 + 4, 4
        {2, 9, 2},
        {9, 9, 81},   // specialised: the whole box
        {5, 5, 25},
    };
    for (const auto& [w, h, burst] : cases) {
        const WorkloadSpec s = box(w, h);
        EXPECT_EQ(issue_burst_for(c, &s), burst) << w << "x" << h;
    }
    c.compilation = KernelCompilation::unroll1;
    const WorkloadSpec s = box(11, 11);
    EXPECT_EQ(issue_burst_for(c, &s), 1u);
}

// The same burst, derived the other way: the generic kernel's rows run as its SASS lays them out
// (a 1-load block, a 2-load block, then the loop of 4 with its jump back, then the row loop's),
// fed to the profiler a recorded trace's loop is read with (traces/instruction_pipes.hpp).
TEST(GpuIssueBurst, TheGenericKernelsBurstIsWhatItsInstructionsGive) {
    GpuConfig c = base();
    c.issue_burst = kIssueBurstAuto;
    for (std::uint32_t w = 1; w <= 17; ++w) {
        if (w == 5) continue;  // 5x5 is specialised: every other box of 5 rows runs the generic kernel
        InstructionProfiler p;
        auto load = [&](std::uint64_t pc) {
            p.add(pc, "LDG.E");
            p.load_request();
        };
        for (int row = 0; row < 5; ++row) {
            p.add(0x100, "IADD3");
            if (w % 4 & 1) load(0x110);
            if (w % 4 & 2) load(0x120), load(0x130);
            for (std::uint32_t i = 0; i < w / 4; ++i) {
                for (std::uint64_t pc : {0x200, 0x210, 0x220, 0x230}) load(pc);
                p.add(0x240, "BRA");  // back to 0x200 while the row has more
            }
            p.add(0x400, "BRA");  // back to 0x100 for the next row
        }
        p.end_warp();
        WorkloadSpec s = test::stencil(64, 64, 3);
        s.stencil_w = w;
        s.stencil_h = 5;
        EXPECT_EQ(issue_burst_for(c, &s), p.loop().loads_per_iteration) << "box " << w << "x5";
    }
}

// Bursts and skips reorder requests; they never add, drop or reshape one.
TEST(GpuIssueBurst, CountsOfRequestsAndSectorsDoNotChange) {
    const WorkloadSpec spec = test::stencil(256, 64, 5, "column:32");
    GpuConfig c = with_sms(find_gpu_preset("h200")->config, 8);
    c.cta_order = CtaOrder::round_robin;
    c.partition_map = PartitionMap::halves;
    c.block = 128;
    c.issue_burst = 1;
    c.block_start_skip = 0;
    const GpuResult plain = simulate_gpu_model(spec, c);
    c.issue_burst = kIssueBurstAuto;
    c.block_start_skip = 4;
    const GpuResult burst = simulate_gpu_model(spec, c);
    EXPECT_EQ(burst.load_requests, plain.load_requests);
    EXPECT_EQ(burst.load_sectors, plain.load_sectors);
    EXPECT_EQ(burst.store_sectors, plain.store_sectors);
    EXPECT_EQ(burst.ncu.dram_bytes_read, plain.ncu.dram_bytes_read);  // compulsory: the input once
}

TEST(GpuIssueBurst, OutOfRangeIsRefused) {
    GpuConfig c = base();
    c.issue_burst = kMaxIssueBurst + 1;
    EXPECT_THROW(simulate_gpu_model(test::stencil(64, 64, 3), c), SimulationError);
    c.issue_burst = 1;
    c.block_start_skip = kMaxBlockStartSkip + 1;
    EXPECT_THROW(simulate_gpu_model(test::stencil(64, 64, 3), c), SimulationError);
}

}  // namespace
}  // namespace cachesim

namespace cachesim {
namespace {

// The scheduler's division-free test of a burst's end gives exactly k % burst != 0.
TEST(GpuIssueBurst, DivisionFreeTestMatchesTheRemainder) {
    WarpSlot w;
    w.lanes = 32;
    for (std::uint32_t burst : {1u, 2u, 3u, 7u, 32u, 81u, 100u, 4095u, 65537u, 4294967295u}) {
        const std::uint64_t magic = burst_magic(burst);
        for (std::uint64_t k : {0ull, 1ull, 2ull, 80ull, 81ull, 162ull, 4095ull, 65536ull, 65537ull, 4294967294ull,
                                4294967295ull}) {
            w.k = static_cast<std::uint32_t>(k);
            EXPECT_EQ(continues_burst(w, burst, magic), burst > 1 && w.k % burst != 0) << burst << " " << k;
        }
        for (std::uint32_t k = 0; k < 1000; ++k) {
            w.k = k;
            EXPECT_EQ(continues_burst(w, burst, magic), burst > 1 && k % burst != 0) << burst << " " << k;
        }
    }
}

}  // namespace
}  // namespace cachesim
