// Whose rate a warp takes (GpuConfig::warp_rate_scope): with `block`, every warp of a block takes
// the one draw its block makes, the draw warp 0 makes with `warp`, so a block's warps keep in step
// and only blocks drift apart.
#include <gtest/gtest.h>

#include <cstdint>

#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/gpu_parameters.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "sim/gpu/warp_rate.hpp"
#include "traces/input_error.hpp"
#include "tests/gpu_test_util.hpp"

namespace cachesim {
namespace {

GpuConfig spread(WarpRateScope scope) {
    GpuConfig c = find_gpu_preset("h200")->config;
    c.warp_rate_spread = 0.2;
    c.warp_rate_redraw = 32;
    c.warp_rate_scope = scope;
    return c;
}

TEST(GpuWarpRateScope, ABlocksWarpsShareTheDrawOfItsWarpZero) {
    const GpuConfig per_block = spread(WarpRateScope::block), per_warp = spread(WarpRateScope::warp);
    std::size_t blocks_apart = 0, warps_apart = 0;
    for (std::uint64_t block = 0; block < 200; ++block)
        for (std::uint64_t epoch : {0ull, 1ull, 17ull})
            for (std::uint32_t warp = 0; warp < 8; ++warp) {
                EXPECT_EQ(warp_issue_rate(per_block, block, warp, epoch), warp_issue_rate(per_warp, block, 0, epoch));
                EXPECT_EQ(warp_issue_credit(per_block, block, warp, epoch), warp_issue_credit(per_block, block, 0, epoch));
                warps_apart += warp_issue_rate(per_warp, block, warp, epoch) != warp_issue_rate(per_warp, block, 0, epoch);
                blocks_apart += warp_issue_rate(per_block, block, warp, epoch) !=
                                warp_issue_rate(per_block, block + 1, warp, epoch);
            }
    // continuous draws: two of them coincide only when both are capped at rate 1 (0.13% each)
    EXPECT_GT(warps_apart, 200u * 3u * 7u * 99u / 100u);
    EXPECT_GT(blocks_apart, 200u * 3u * 8u * 99u / 100u);
}

// One block resident per SM, blocks starting at their first turn: with one rate for the whole
// block, its warps gain credit alike and issue in the order they would in lock step, only with
// passes in between that no warp issues in, so the L1 counts the same hits as with no spread at
// all. Warps drawing their own rates drift apart and lose some of the B lines a block's warps
// share (column:32: a block's four warps read the same 32 columns of B).
TEST(GpuWarpRateScope, ABlocksWarpsInStepHitAsInLockStep) {
    GpuConfig c = with_sms(find_gpu_preset("h200")->config, 4);
    c.block = 128;
    c.max_threads_per_sm = 128;  // one block an SM: no sharing between blocks to drift from
    c.lockstep_warps = 0;        // one warp a scheduler would otherwise run in lock step
    c.l1_auto = false;
    c.l1.size_bytes = 8 * 1024;  // small: a warp that runs ahead leaves the others' lines behind
    c.block_start_skip = 0;
    c.warp_rate_redraw = 0;
    auto hits = [&](double rate_spread, WarpRateScope scope) {
        GpuConfig run = c;
        run.warp_rate_spread = rate_spread;
        run.warp_rate_scope = scope;
        return simulate_gpu_model(test::matmul(128, 64, 512, "column:32"), run).ncu.l1_sectors_ld_hit;
    };
    const std::uint64_t lock_step = hits(0.0, WarpRateScope::warp);
    EXPECT_EQ(hits(0.3, WarpRateScope::block), lock_step);
    EXPECT_LT(hits(0.3, WarpRateScope::warp), lock_step * 95 / 100);
}

// The presets' automatic form, per launch: on the h200 preset a block of 128 threads without shared
// memory leaves the L1 the 256 KiB less the 32 KiB carve-out the driver takes, 224 KiB, the L1 the
// rates were fitted at: a rate per warp and a skip of 8; with 11,264 bytes a block the carve-out
// is 196 KiB and the L1 60 KiB: one rate per block and a skip of 4. What is given is kept.
TEST(GpuWarpRateScope, TheAutomaticFormFollowsTheL1) {
    GpuConfig c = find_gpu_preset("h200")->config;
    EXPECT_EQ(c.warp_rate_scope, WarpRateScope::automatic);
    EXPECT_EQ(c.block_start_skip, kBlockStartSkipAuto);
    c.block = 128;
    GpuConfig full = with_rate_form(c, nullptr);
    EXPECT_EQ(full.warp_rate_scope, WarpRateScope::warp);
    EXPECT_EQ(full.block_start_skip, 8u);
    c.smem_per_block = 11264;
    GpuConfig small = with_rate_form(c, nullptr);
    EXPECT_EQ(small.warp_rate_scope, WarpRateScope::block);
    EXPECT_EQ(small.block_start_skip, 4u);
    c.block_start_skip = 2;
    EXPECT_EQ(with_rate_form(c, nullptr).block_start_skip, 2u);
    c.warp_rate_scope = WarpRateScope::warp;
    EXPECT_EQ(with_rate_form(c, nullptr).warp_rate_scope, WarpRateScope::warp);
    c.block_start_skip = kBlockStartSkipAuto;
    EXPECT_EQ(with_rate_form(c, nullptr).block_start_skip, 8u);
}

// A run with the automatic form is the run with the form it resolves to, at both L1s.
TEST(GpuWarpRateScope, AnAutomaticRunIsTheRunOfItsForm) {
    GpuConfig c = with_sms(find_gpu_preset("h200")->config, 4);
    c.block = 128;
    const WorkloadSpec spec = test::matmul(256, 128, 128, "column:64");
    for (std::uint32_t smem : {0u, 11264u}) {
        c.smem_per_block = smem;
        GpuConfig given = c;
        given.warp_rate_scope = smem ? WarpRateScope::block : WarpRateScope::warp;
        given.block_start_skip = smem ? 4 : 8;
        EXPECT_EQ(simulate_gpu_model(spec, c).ncu.l1_sectors_ld_hit, simulate_gpu_model(spec, given).ncu.l1_sectors_ld_hit)
            << smem;
    }
}

// Which launches draw rates below the L1 they were fitted at: a block of 128 threads without shared
// memory (224 KiB) is not below, with 11,264 bytes (60 KiB) it is, whatever the scope; no spread or
// cycle timing draw no rates.
TEST(GpuWarpRateScope, RatesDrawnBelowTheFittedL1AreTold) {
    GpuConfig c = find_gpu_preset("h200")->config;
    c.warp_rate_scope = WarpRateScope::warp;
    c.block = 128;
    const std::uint64_t full = gpu_occupancy(c).l1_bytes;
    EXPECT_EQ(full, 224u * 1024);
    EXPECT_FALSE(rates_drawn_below_fitted_l1(c, full));
    c.smem_per_block = 11264;
    const std::uint64_t small = gpu_occupancy(c).l1_bytes;
    EXPECT_EQ(small, 60u * 1024);
    EXPECT_TRUE(rates_drawn_below_fitted_l1(c, small));
    GpuConfig other = c;
    other.warp_rate_scope = WarpRateScope::block;
    EXPECT_TRUE(rates_drawn_below_fitted_l1(other, small));
    other.warp_rate_scope = WarpRateScope::automatic;
    EXPECT_TRUE(rates_drawn_below_fitted_l1(other, small));
    other = c;
    other.warp_rate_spread = 0;
    EXPECT_FALSE(rates_drawn_below_fitted_l1(other, small));
    other = c;
    other.timing = IssueTiming::cycles;
    EXPECT_FALSE(rates_drawn_below_fitted_l1(other, small));
}

TEST(GpuWarpRateScope, TheOptionNamesBothScopes) {
    const GpuParameter* option = find_gpu_parameter("warp-rate-scope");
    ASSERT_NE(option, nullptr);
    GpuConfig c = find_gpu_preset("h200")->config;
    EXPECT_EQ(option->get(c), "auto");  // the presets': by the launch's L1
    option->set(c, "block", "--warp-rate-scope");
    EXPECT_EQ(c.warp_rate_scope, WarpRateScope::block);
    EXPECT_EQ(option->get(c), "block");
    EXPECT_THROW(option->set(c, "sm", "--warp-rate-scope"), InputError);
}

}  // namespace
}  // namespace cachesim
