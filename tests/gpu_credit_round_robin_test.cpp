// The warp rate spread's scheduler alone (pick_by_credit): worked by hand on a few warp slots, and
// its jump over passes without a request against a walker that takes every pass one by one.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "sim/gpu/warp_rate.hpp"

namespace cachesim {
namespace {

WarpSlot warp(std::uint64_t rate, std::uint64_t credit, std::uint32_t skip = 0) {
    WarpSlot w;
    w.lanes = 32;
    w.rate = rate;
    w.credit = credit;
    w.skip = skip;
    return w;
}

std::vector<std::uint32_t> picks(std::vector<WarpSlot>& warps, std::uint32_t last, int n) {
    std::vector<std::uint32_t> out;
    for (int i = 0; i < n; ++i)
        out.push_back(pick_by_credit(warps.data(), static_cast<std::uint32_t>(warps.size()), last));
    return out;
}

// Rates 1 and 1/4, both starting with a full credit, warp 0's turn first. Warp 0 issues at every
// visit. Warp 1 is visited only after warp 0 issued: it issues at its first visit (1 + 1/4 leaves
// 1/4), then at its fourth (1/4 + 3/4), then every fifth pick (0 + 4/4): 0 1 0 0 0 1 0 0 0 0 1.
TEST(GpuCreditRoundRobin, AQuarterRateWarpIssuesEveryFourthVisit) {
    std::vector<WarpSlot> w = {warp(kWarpCreditOne, kWarpCreditOne), warp(kWarpCreditOne / 4, kWarpCreditOne)};
    const std::vector<std::uint32_t> want = {0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    EXPECT_EQ(picks(w, 1, 11), want);
}

// Equal rates, whatever they are, take plain turns.
TEST(GpuCreditRoundRobin, EqualRatesTakeTurns) {
    std::vector<WarpSlot> w(3, warp(kWarpCreditOne / 3, kWarpCreditOne));
    const std::vector<std::uint32_t> want = {0, 1, 2, 0, 1, 2, 0, 1, 2};
    EXPECT_EQ(picks(w, 2, 9), want);
}

// Two warps at rate r = floor(2^32 / 1000) with no credit: each needs ceil(2^32 / r) = 1001 passes
// (1000 r falls 296 short of a request). Both issue after them, with 1001 r - 2^32 left.
TEST(GpuCreditRoundRobin, PassesWithoutARequestAreJumpedExactly) {
    const std::uint64_t r = kWarpCreditOne / 1000;
    ASSERT_EQ(1000 * r, kWarpCreditOne - 296);
    std::vector<WarpSlot> w = {warp(r, 0), warp(r, 0)};
    const std::vector<std::uint32_t> want = {0, 1};
    EXPECT_EQ(picks(w, 1, 2), want);
    EXPECT_EQ(w[0].credit, 1001 * r - kWarpCreditOne);
    EXPECT_EQ(w[1].credit, 1001 * r - kWarpCreditOne);
}

// A warp with skipped turns left gains no credit on them: rate 1/2 from no credit with 3 skips
// issues at its 5th pass (3 skipped, then 1/2, 1); the full-rate warp beside it issues every pass.
TEST(GpuCreditRoundRobin, SkippedTurnsGainNoCredit) {
    std::vector<WarpSlot> w = {warp(kWarpCreditOne, 0), warp(kWarpCreditOne / 2, 0, 3)};
    const std::vector<std::uint32_t> want = {0, 0, 0, 0, 0, 1, 0, 0, 1};
    EXPECT_EQ(picks(w, 1, 9), want);
}

// The walker: one pass after another, each live warp skipping or gaining its rate.
std::uint32_t walk(std::vector<WarpSlot>& w, std::uint32_t& last) {
    const std::uint32_t n = static_cast<std::uint32_t>(w.size());
    for (std::uint32_t c = last;;) {
        if (++c == n) c = 0;
        if (!w[c].live()) continue;
        if (w[c].skip) {
            --w[c].skip;
            continue;
        }
        w[c].credit += w[c].rate;
        if (w[c].credit >= kWarpCreditOne) {
            w[c].credit -= kWarpCreditOne;
            last = c;
            return c;
        }
    }
}

TEST(GpuCreditRoundRobin, SameOrderAndCreditsAsWalkingEveryPass) {
    std::mt19937_64 rng(7);
    for (int trial = 0; trial < 200; ++trial) {
        const std::uint32_t n = 1 + static_cast<std::uint32_t>(rng() % 8);
        std::vector<WarpSlot> fast;
        for (std::uint32_t i = 0; i < n; ++i) {
            WarpSlot s = warp(1 + rng() % (kWarpCreditOne / 50), rng() % kWarpCreditOne,
                              static_cast<std::uint32_t>(rng() % 4));
            if (rng() % 5 == 0) s.lanes = 0;  // an empty slot
            fast.push_back(s);
        }
        fast[rng() % n].lanes = 32;  // at least one live warp
        std::vector<WarpSlot> slow = fast;
        std::uint32_t last_fast = n - 1, last_slow = n - 1;
        for (int i = 0; i < 50; ++i) {
            ASSERT_EQ(pick_by_credit(fast.data(), n, last_fast), walk(slow, last_slow)) << trial << " " << i;
            for (std::uint32_t x = 0; x < n; ++x) {
                ASSERT_EQ(fast[x].credit, slow[x].credit);
                ASSERT_EQ(fast[x].skip, slow[x].skip);
            }
        }
    }
}

}  // namespace
}  // namespace cachesim
