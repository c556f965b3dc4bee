// Greedy then oldest (pick_greedy_then_oldest) alone, worked by hand on a few warp slots.
#include <gtest/gtest.h>

#include <vector>

#include "sim/gpu/greedy_then_oldest.hpp"

namespace cachesim {
namespace {

std::vector<WarpSlot> warps_aged(std::vector<std::uint64_t> ages) {
    std::vector<WarpSlot> w(ages.size());
    for (std::size_t i = 0; i < ages.size(); ++i) {
        w[i].lanes = 32;
        w[i].age = ages[i];
    }
    return w;
}

TEST(GpuGreedyThenOldest, StartsWithTheOldestAndKeepsItUntilItStalls) {
    std::vector<WarpSlot> w = warps_aged({5, 3, 9});
    std::uint32_t current = kNoWarp;
    EXPECT_EQ(pick_greedy_then_oldest(w.data(), 3, current), 1u);  // age 3
    EXPECT_EQ(pick_greedy_then_oldest(w.data(), 3, current), 1u);  // greedy
    w[1].stalled = true;                                            // its request missed
    EXPECT_EQ(pick_greedy_then_oldest(w.data(), 3, current), 0u);  // the oldest not waiting: age 5
    EXPECT_EQ(current, 0u);
    w[0].lanes = 0;  // finished: the next oldest not waiting
    EXPECT_EQ(pick_greedy_then_oldest(w.data(), 3, current), 2u);
}

// When every live warp waits, the replies are taken to have arrived: all stop waiting and the
// oldest goes first.
TEST(GpuGreedyThenOldest, AllWaitingWakesTheOldest) {
    std::vector<WarpSlot> w = warps_aged({5, 3, 9});
    for (WarpSlot& s : w) s.stalled = true;
    w[1].lanes = 0;  // the oldest slot is empty
    std::uint32_t current = 2;
    EXPECT_EQ(pick_greedy_then_oldest(w.data(), 3, current), 0u);
    EXPECT_FALSE(w[0].stalled);
    EXPECT_FALSE(w[2].stalled);
}

}  // namespace
}  // namespace cachesim
