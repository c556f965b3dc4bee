// Warps that wait for their misses (GpuConfig::miss_wait_turns): "auto" from the compiled loop's
// pass over a scheduler's warps against the L1 miss latency, a miss passing its warp over on its
// next turns, whole and fractional turns, and the same counters on any thread count.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "sim/gpu/issue_scheduler.hpp"
#include "sim/gpu/loop_issue_cost.hpp"
#include "sim/gpu/warp_slots.hpp"
#include "tests/gpu_same_result.hpp"
#include "tests/gpu_test_util.hpp"

namespace cachesim {
namespace {

GpuConfig h200() { return find_gpu_preset("h200")->config; }

// The h200 preset, 64 resident warps (16 on each of 4 schedulers). The unrolled-once matmul
// issues 2 loads a turn at 7.59 cycles each (issue_cost.csv): a pass over a scheduler's warps
// takes 16 x 2 x 7.59 = 242.88 cycles, and a miss's data 291 (the near L2 hit), so a warp that
// missed waits (291 - 242.88) / 242.88 = 0.19812 turns more than one that hit. The 64-bit loop's
// pass, 16 x 32 x 3.62 = 1853.44 cycles, outlasts the miss: no wait. With 32 warps (8 a
// scheduler) the unrolled-once pass halves to 121.44 cycles: (291 - 121.44) / 121.44 = 1.39624.
TEST(GpuMissWait, AutoIsTheMissLatencyBeyondAPassOverTheWarps) {
    GpuConfig c = h200();
    ASSERT_EQ(c.miss_wait_turns, kMissWaitAuto);
    ASSERT_EQ(c.lat_l1_miss, 291u);
    const WorkloadSpec spec = test::matmul(1024, 1024, 512);
    c.compilation = KernelCompilation::unroll1;
    EXPECT_NEAR(miss_wait_turns_for(c, &spec, 64), (291 - 242.88) / 242.88, 1e-9);
    EXPECT_NEAR(miss_wait_turns_for(c, &spec, 32), (291 - 121.44) / 121.44, 1e-9);
    c.compilation = KernelCompilation::index64;
    EXPECT_EQ(miss_wait_turns_for(c, &spec, 64), 0.0);
    EXPECT_EQ(miss_wait_turns_for(c, nullptr, 64), 0.0);  // a recorded kernel: its loop unmeasured
    const WorkloadSpec unmeasured = test::stencil(256, 256, 15);  // no 15x15 loop was measured
    c.compilation = KernelCompilation::unroll1;
    EXPECT_EQ(miss_wait_turns_for(c, &unmeasured, 64), 0.0);
    c.miss_wait_turns = 0.5;  // given: as given
    EXPECT_EQ(miss_wait_turns_for(c, &spec, 64), 0.5);
}

// A configuration given in code is checked as the option is: auto, or 0 to 64 turns.
TEST(GpuMissWait, ValidateRefusesTurnsOutOfRange) {
    GpuConfig c = h200();
    for (double turns : {0.0, 0.2, 64.0}) {
        c.miss_wait_turns = turns;
        EXPECT_NO_THROW(validate(c)) << turns;
    }
    for (double turns : {-2.0, 64.5}) {
        c.miss_wait_turns = turns;
        try {
            validate(c);
            ADD_FAILURE() << turns << ": no error";
        } catch (const SimulationError& e) {
            EXPECT_NE(std::string(e.what()).find("--miss-wait-turns"), std::string::npos) << e.what();
        }
    }
}

// One SM with one block of two warps under plain round robin (no rates, no start skip), one
// request a turn. The first turn goes to slot 0; when its request misses with a wait of one
// turn, the round robin passes it over once: 0, 1, 1, 0, 1, 0 instead of 0, 1, 0, 1, 0, 1.
std::vector<std::size_t> turns(double miss_wait, bool first_misses) {
    GpuConfig c = with_sms(h200(), 1);
    c.block = 64;
    c.warp_rate_spread = 0;
    c.block_start_skip = 0;
    c.issue_burst = 1;
    const WorkloadSpec spec = test::stencil(64, 1, 3);  // one block of two warps, 9 requests each
    WarpSlots slots(spec, c, 2 * gpu_occupancy(c).blocks_per_sm);
    IssueScheduler scheduler(c, gpu_occupancy(c), slots, 1, 1, 1, miss_wait);
    scheduler.first_wave();
    std::vector<std::size_t> order;
    for (int i = 0; i < 6; ++i) {
        const std::size_t slot = scheduler.pick(0);
        order.push_back(slot);
        scheduler.retire(0, slot, first_misses && i == 0);
    }
    return order;
}

TEST(GpuMissWait, AMissPassesItsWarpOverOnItsNextTurns) {
    EXPECT_EQ(turns(0, true), (std::vector<std::size_t>{0, 1, 0, 1, 0, 1}));
    EXPECT_EQ(turns(1, false), (std::vector<std::size_t>{0, 1, 0, 1, 0, 1}));
    EXPECT_EQ(turns(1, true), (std::vector<std::size_t>{0, 1, 1, 0, 1, 0}));
    // two whole turns: passed over twice
    EXPECT_EQ(turns(2, true), (std::vector<std::size_t>{0, 1, 1, 1, 0, 1}));
}

// A fraction f of a turn: each miss passes its warp over once with probability f. Over many
// misses the share passed over is f (binomial: 20,000 draws at 0.25 have a standard deviation of
// 0.003), 0 and 1 are never and always.
TEST(GpuMissWait, AFractionIsTheShareOfMissesThatWaitATurn) {
    GpuConfig c = with_sms(h200(), 1);
    c.block = 64;
    c.warp_rate_spread = 0;
    c.block_start_skip = 0;
    c.issue_burst = 1;
    const WorkloadSpec spec = test::matmul(64, 1, 20000);  // two warps of 40,000 requests
    for (double f : {0.0, 0.25, 1.0}) {
        WarpSlots slots(spec, c, 2 * gpu_occupancy(c).blocks_per_sm);
        IssueScheduler scheduler(c, gpu_occupancy(c), slots, 1, 1, 1, f);
        scheduler.first_wave();
        int waited = 0;
        const int misses = 20000;
        for (int i = 0; i < misses; ++i) {  // warp 0 misses; warp 1 does not
            slots[0].skip = 0;
            scheduler.retire(0, 0, true);
            waited += slots[0].skip != 0;
        }
        EXPECT_NEAR(static_cast<double>(waited) / misses, f, 0.015) << "fraction " << f;
    }
}

// Waits depend on the caches, so the refills cannot be planned ahead: several threads must give
// the counters of one.
TEST(GpuMissWait, SameCountersOnAnyThreadCount) {
    GpuConfig c = h200();
    c.compilation = KernelCompilation::unroll1;
    test::expect_same_on_threads(test::matmul(512, 512, 512), c, {2, 3});
}

}  // namespace
}  // namespace cachesim
