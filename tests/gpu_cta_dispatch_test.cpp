// Which SM receives each block, alone: the first wave in each GpuConfig::cta_order, and the order
// in which SMs that freed a slot receive the next blocks (RefillQueue), worked by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "sim/gpu/cta_dispatch.hpp"
#include "sim/gpu/gpu_presets.hpp"

namespace cachesim {
namespace {

GpuConfig gpu(std::uint32_t sms) {
    GpuConfig c = with_sms(find_gpu_preset("h200")->config, sms);
    c.floorplan = {};
    return c;
}

using Sms = std::vector<std::uint32_t>;

TEST(GpuCtaDispatch, RoundRobinGivesEachSmOneBlockInTurn) {
    GpuConfig c = gpu(3);
    c.cta_order = CtaOrder::round_robin;
    EXPECT_EQ(first_wave_sms(c, 5, 2), (Sms{0, 1, 2, 0, 1}));
    EXPECT_EQ(first_wave_sms(c, 100, 2), (Sms{0, 1, 2, 0, 1, 2}));  // the rest wait for a free slot
}

TEST(GpuCtaDispatch, FillFillsEachSmBeforeTheNext) {
    GpuConfig c = gpu(3);
    c.cta_order = CtaOrder::fill;
    EXPECT_EQ(first_wave_sms(c, 5, 2), (Sms{0, 0, 1, 1, 2}));
    EXPECT_EQ(first_wave_sms(c, 2, 4), (Sms{0, 0}));
}

// The measured cycle is walked over and over, full SMs passed over: SM 2 appears twice in the
// cycle, so it fills first and later passes skip it.
TEST(GpuCtaDispatch, FloorplanWalksTheCycleSkippingFullSms) {
    GpuConfig c = gpu(3);
    c.cta_order = CtaOrder::floorplan;
    c.floorplan.dispatch_cycle = {2, 0, 2, 1};
    EXPECT_EQ(first_wave_sms(c, 100, 2), (Sms{2, 0, 2, 1, 0, 1}));
    EXPECT_EQ(first_wave_sms(c, 3, 2), (Sms{2, 0, 2}));
}

// sm_order: by round, then by SM index, whatever the order the SMs were queued in.
TEST(GpuCtaDispatch, RefillsGoByRoundThenBySm) {
    GpuConfig c = gpu(8);
    c.cta_refill = CtaRefill::sm_order;
    RefillQueue q(c);
    q.push(5, 3);
    q.push(5, 1);
    q.push(4, 7);
    q.push(6, 0);
    Sms order;
    while (!q.empty()) order.push_back(q.pop());
    EXPECT_EQ(order, (Sms{7, 1, 3, 0}));
}

// shuffled: within a round the SMs come in an order drawn from the seed and the round: every SM
// once, and not the same order in every round.
TEST(GpuCtaDispatch, ShuffledRefillsPermuteTheSmsAnewEachRound) {
    GpuConfig c = gpu(16);
    c.cta_refill = CtaRefill::shuffled;
    std::set<Sms> orders;
    for (std::uint64_t round = 0; round < 20; ++round) {
        RefillQueue q(c);
        for (std::uint32_t s = 0; s < 16; ++s) q.push(round, s);
        Sms order;
        while (!q.empty()) order.push_back(q.pop());
        Sms sorted = order;
        std::sort(sorted.begin(), sorted.end());
        for (std::uint32_t s = 0; s < 16; ++s) ASSERT_EQ(sorted[s], s);
        orders.insert(order);
    }
    EXPECT_GT(orders.size(), 15u);
}

}  // namespace
}  // namespace cachesim
