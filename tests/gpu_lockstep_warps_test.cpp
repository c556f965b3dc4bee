// Lock step where the scheduler keeps pace (GpuConfig::lockstep_warps): a launch whose SM holds no
// more warps a scheduler than the scheduler runs at a lone warp's pace drops the rate spread and
// the block start skip. The counts per SM below follow from the h200 preset's residency limits
// (64 warps, 32 blocks, 4 schedulers an SM) by hand.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/gpu_parameters.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "sim/gpu/loop_issue_cost.hpp"
#include "sim/gpu/warp_rate.hpp"
#include "traces/input_error.hpp"
#include "tests/csv_table.hpp"
#include "tests/gpu_test_util.hpp"

namespace cachesim {
namespace {

GpuConfig h200(std::uint32_t block, KernelCompilation compilation = KernelCompilation::index64) {
    GpuConfig c = find_gpu_preset("h200")->config;
    c.block = block;
    c.compilation = compilation;
    return c;
}

// The measured counts: gpubench's 64-bit matmul 11 warps a scheduler, the 32-bit one 6, the
// unrolled-once one 12; loops not measured so (the stencils, a recorded kernel) none.
TEST(GpuLockstepWarps, TheAutomaticCountIsTheMeasuredLoops) {
    const WorkloadSpec matmul = test::matmul(1024, 1024, 1024, "linear");
    const WorkloadSpec stencil = test::stencil(1024, 1024, 9, "linear");
    EXPECT_EQ(lockstep_warps_for(h200(32), &matmul), 11u);
    EXPECT_EQ(lockstep_warps_for(h200(32, KernelCompilation::index32), &matmul), 6u);
    EXPECT_EQ(lockstep_warps_for(h200(32, KernelCompilation::unroll1), &matmul), 12u);
    EXPECT_EQ(lockstep_warps_for(h200(32), &stencil), 0u);
    EXPECT_EQ(lockstep_warps_for(h200(32), nullptr), 0u);
    GpuConfig given = h200(32);
    given.lockstep_warps = 3;
    EXPECT_EQ(lockstep_warps_for(given, &stencil), 3u);
}

// The counts, read from the knee probe's file by the rule they were set by: the largest m for which
// the warm launch at m, and at every smaller m, took at most 1.1 times the lone warp's time.
TEST(GpuLockstepWarps, TheCountsFollowTheKneeProbeByItsRule) {
    const test::CsvTable knee =
        test::CsvTable::from_file(std::string(CACHESIM_TEST_DATA_DIR) + "/h100/issue_cost/knee_timed_fine_warm.csv");
    ASSERT_GT(knee.rows(), 0u);
    std::map<std::string, std::map<unsigned, double>> times;  // compilation -> warps a scheduler -> ms
    for (std::size_t r = 0; r < knee.rows(); ++r)  // the launch is 128 x 132m: m warps on each scheduler
        times[knee.at(r, "variant")][std::stoul(knee.at(r, "height")) / 132] = knee.number(r, "time_ms");
    const auto count = [&](const std::string& compilation) {
        const std::map<unsigned, double>& t = times[compilation];
        unsigned keeps = 0;
        for (const auto& [warps, ms] : t) {
            if (ms > 1.1 * t.at(1)) break;
            keeps = warps;
        }
        return keeps;
    };
    const WorkloadSpec matmul = test::matmul(1024, 1024, 1024, "linear");
    EXPECT_EQ(lockstep_warps_for(h200(32), &matmul), count("index64"));
    EXPECT_EQ(lockstep_warps_for(h200(32, KernelCompilation::index32), &matmul), count("index32"));
    EXPECT_EQ(lockstep_warps_for(h200(32, KernelCompilation::unroll1), &matmul), count("unroll1"));
}

// Blocks of 32 threads: 32 blocks of one warp, 8 warps a scheduler, within the 64-bit loop's 11 and
// the unrolled-once loop's 12, beyond the 32-bit loop's 6. Blocks of 64 and 128: 64 warps, 16 a
// scheduler. Blocks of 128 with shared memory (the 228 KiB carve-out, 1 KiB more a block):
// 27,648 bytes, 8 blocks, 8 warps a scheduler; 19,456 bytes, 11 blocks (20 KiB each), 11 warps a
// scheduler; 18,432 bytes, 12 blocks (19 KiB each), 12 warps a scheduler.
TEST(GpuLockstepWarps, ASchedulerWithinItsCountRunsInLockStep) {
    const WorkloadSpec matmul = test::matmul(1024, 1024, 1024, "linear");
    EXPECT_TRUE(runs_in_lockstep(h200(32), &matmul));
    EXPECT_TRUE(runs_in_lockstep(h200(32, KernelCompilation::unroll1), &matmul));
    EXPECT_FALSE(runs_in_lockstep(h200(32, KernelCompilation::index32), &matmul));
    EXPECT_FALSE(runs_in_lockstep(h200(64), &matmul));
    EXPECT_FALSE(runs_in_lockstep(h200(128), &matmul));
    GpuConfig eight_blocks = h200(128);
    eight_blocks.smem_per_block = 27648;
    ASSERT_EQ(gpu_occupancy(eight_blocks).blocks_per_sm, 8u);
    EXPECT_TRUE(runs_in_lockstep(eight_blocks, &matmul));
    GpuConfig eleven_blocks = h200(128);
    eleven_blocks.smem_per_block = 19456;
    ASSERT_EQ(gpu_occupancy(eleven_blocks).blocks_per_sm, 11u);
    EXPECT_TRUE(runs_in_lockstep(eleven_blocks, &matmul));
    GpuConfig twelve_blocks = h200(128);
    twelve_blocks.smem_per_block = 18432;
    ASSERT_EQ(gpu_occupancy(twelve_blocks).blocks_per_sm, 12u);
    EXPECT_FALSE(runs_in_lockstep(twelve_blocks, &matmul));
    twelve_blocks.compilation = KernelCompilation::unroll1;
    EXPECT_TRUE(runs_in_lockstep(twelve_blocks, &matmul));
    GpuConfig given = h200(128);
    given.lockstep_warps = 16;
    EXPECT_TRUE(runs_in_lockstep(given, &matmul));
    given.lockstep_warps = 15;
    EXPECT_FALSE(runs_in_lockstep(given, &matmul));
    GpuConfig off = h200(32);
    off.lockstep_warps = 0;
    EXPECT_FALSE(runs_in_lockstep(off, &matmul));
    GpuConfig no_spread = h200(32);
    no_spread.warp_rate_spread = 0;  // no rates to give way: already in step
    EXPECT_FALSE(runs_in_lockstep(no_spread, &matmul));
}

TEST(GpuLockstepWarps, LockStepDropsTheSpreadAndTheSkip) {
    const WorkloadSpec matmul = test::matmul(1024, 1024, 1024, "linear");
    const GpuConfig lock = with_rate_form(h200(32), &matmul);
    EXPECT_EQ(lock.warp_rate_spread, 0.0);
    EXPECT_EQ(lock.block_start_skip, 0u);
    const GpuConfig drift = with_rate_form(h200(128), &matmul);
    EXPECT_EQ(drift.warp_rate_spread, 0.15);
    EXPECT_EQ(drift.block_start_skip, 8u);
}

// A run in lock step by the rule is the run given no spread and no skip; with the rule switched off
// the rates are drawn and the run differs.
TEST(GpuLockstepWarps, ARunByTheRuleIsTheRunWithoutDrift) {
    GpuConfig c = with_sms(h200(32), 8);
    const WorkloadSpec spec = test::matmul(256, 64, 256, "linear");
    const std::uint64_t by_rule = simulate_gpu_model(spec, c).ncu.l1_sectors_ld_hit;
    GpuConfig explicit_lock = c;
    explicit_lock.warp_rate_spread = 0;
    explicit_lock.block_start_skip = 0;
    EXPECT_EQ(by_rule, simulate_gpu_model(spec, explicit_lock).ncu.l1_sectors_ld_hit);
    GpuConfig off = c;
    off.lockstep_warps = 0;
    EXPECT_NE(simulate_gpu_model(spec, off).ncu.l1_sectors_ld_hit, by_rule);
}

TEST(GpuLockstepWarps, TheOptionTakesAutoOrACount) {
    const GpuParameter* option = find_gpu_parameter("lockstep-warps");
    ASSERT_NE(option, nullptr);
    GpuConfig c = h200(32);
    EXPECT_EQ(option->get(c), "auto");
    option->set(c, "12", "lockstep-warps");
    EXPECT_EQ(c.lockstep_warps, 12u);
    EXPECT_EQ(option->get(c), "12");
    option->set(c, "auto", "lockstep-warps");
    EXPECT_EQ(c.lockstep_warps, kLockstepWarpsAuto);
    EXPECT_THROW(option->set(c, "65", "lockstep-warps"), InputError);
    EXPECT_THROW(option->set(c, "-1", "lockstep-warps"), InputError);
    // applied: the loop's count where rates are drawn, 0 where they are not
    const WorkloadSpec matmul = test::matmul(1024, 1024, 1024, "linear");
    EXPECT_EQ(applied_value(*option, h200(32), &matmul), "11");
    GpuConfig no_spread = h200(32);
    no_spread.warp_rate_spread = 0;
    EXPECT_EQ(applied_value(*option, no_spread, &matmul), "0");
}

}  // namespace
}  // namespace cachesim
