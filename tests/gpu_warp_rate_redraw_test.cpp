// Warp rates drawn afresh every N requests (GpuConfig::warp_rate_redraw): each draw follows the
// spread's law, draws are independent of each other, the first is the rate a warp keeps without
// redraws, and the scheduler takes a new draw exactly when a warp's request count reaches a
// multiple of N.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "sim/gpu/gpu_presets.hpp"
#include "sim/gpu/issue_scheduler.hpp"
#include "sim/gpu/warp_rate.hpp"
#include "sim/gpu/warp_slots.hpp"
#include "sim/thread_model.hpp"
#include "tests/gpu_test_util.hpp"

namespace cachesim {
namespace {

GpuConfig redrawing(std::uint32_t every) {
    GpuConfig c = find_gpu_preset("h200")->config;
    c.warp_rate_spread = 0.3;
    c.warp_rate_redraw = every;
    return c;
}

TEST(GpuWarpRateRedraw, TheFirstDrawIsTheRateWithoutRedraws) {
    const GpuConfig c = redrawing(32);
    for (std::uint64_t block : {0ull, 7ull, 123456ull})
        for (std::uint32_t warp : {0u, 3u})
            EXPECT_EQ(warp_issue_rate(c, block, warp, 0), warp_issue_rate(c, block, warp));
}

// z = log(rate) / spread + 3 is a standard normal (capped at 3 where rate 1), and consecutive
// draws of one warp are uncorrelated: its pace wanders as a random walk.
TEST(GpuWarpRateRedraw, SuccessiveDrawsAreIndependentStandardNormals) {
    const GpuConfig c = redrawing(32);
    std::vector<double> z;
    std::size_t capped = 0;
    for (std::uint64_t epoch = 0; epoch < 20000; ++epoch) {
        const double rate = warp_issue_rate(c, 41, 5, epoch);
        ASSERT_GT(rate, 0.0);
        ASSERT_LE(rate, 1.0);
        capped += rate == 1.0;
        z.push_back(std::log(rate) / c.warp_rate_spread + 3.0);
    }
    double mean = 0, var = 0, lag = 0;
    for (double v : z) mean += v;
    mean /= static_cast<double>(z.size());
    for (std::size_t i = 0; i < z.size(); ++i) {
        var += (z[i] - mean) * (z[i] - mean);
        if (i) lag += (z[i] - mean) * (z[i - 1] - mean);
    }
    EXPECT_NEAR(mean, 0.0, 0.04);
    EXPECT_NEAR(std::sqrt(var / static_cast<double>(z.size())), 1.0, 0.04);
    EXPECT_NEAR(lag / var, 0.0, 0.04);                   // 20,000 draws: standard error 0.007
    EXPECT_LT(capped, z.size() / 200);                    // P(z >= 3) = 0.13%
}

// One SM, the scheduler alone: after every request, each warp's rate is the draw of the epoch its
// request count has reached (k / N), and it changes only at multiples of N.
TEST(GpuWarpRateRedraw, TheSchedulerRedrawsAtEveryNthRequest) {
    const std::uint32_t every = 4;
    GpuConfig c = with_sms(redrawing(every), 1);
    c.block = 64;
    const WorkloadSpec spec = test::stencil(64, 4, 3);  // 4 blocks of 2 warps, 10 requests a warp
    const GpuOccupancy occupancy = gpu_occupancy(c);
    WarpSlots slots(spec, c, static_cast<std::size_t>(occupancy.warps_per_block) * occupancy.blocks_per_sm);
    IssueScheduler scheduler(c, occupancy, slots, 4, 1);
    scheduler.first_wave();
    std::size_t redraws = 0;
    while (scheduler.sm_busy(0)) {
        const std::size_t slot = scheduler.pick(0);
        const std::uint64_t before = slots[slot].rate;
        const std::uint64_t block = slots[slot].block;
        const std::uint32_t warp = scheduler.warp_in_block(0, slot);
        if (scheduler.retire(0, slot, false)) continue;
        const WarpSlot& w = slots[slot];
        if (!w.live() || w.k >= w.requests) continue;
        EXPECT_EQ(w.rate, warp_issue_credit(c, block, warp, w.k / every));
        if (w.k % every != 0) {
            EXPECT_EQ(w.rate, before);
        }
        redraws += w.k % every == 0;
    }
    EXPECT_EQ(redraws, 4u * 2u * 2u);  // each of 8 warps at k = 4 and 8
}

TEST(GpuWarpRateRedraw, TooLongAPeriodIsRefused) {
    GpuConfig c = redrawing(kMaxIssueBurst + 1);
    EXPECT_THROW(validate(c), SimulationError);
    c.warp_rate_redraw = kMaxIssueBurst;
    EXPECT_NO_THROW(validate(c));
}

}  // namespace
}  // namespace cachesim
