// Keyed draws (sim/rng.hpp): each kind of draw is its own stream, so the warp rates and the miss
// waits, keyed alike by (seed, block, warp or slot, epoch or request), are independent.
#include <gtest/gtest.h>

#include <cstdint>

#include "sim/rng.hpp"

namespace cachesim {
namespace {

double first_uniform(std::uint64_t state) { return static_cast<double>(splitmix64(state) >> 11) * 0x1.0p-53; }

// Over 40,000 keys, each stream's first draw is below 1/4 a quarter of the time. If the streams
// were one, both would be below it together a quarter of the time too; independent, 1/16 of it
// (0.0625; binomial standard deviation over 40,000 keys 0.0012).
TEST(KeyedDraw, StreamsWithTheSameKeyAreIndependent) {
    int rate_low = 0, wait_low = 0, both_low = 0, equal = 0;
    const int keys = 40000;
    for (int i = 0; i < keys; ++i) {
        const std::uint64_t block = static_cast<std::uint64_t>(i) / 200, warp = i % 8, k = (i / 8) % 25;
        const std::uint64_t rate = keyed_draw_state(7, DrawStream::warp_rate, block, warp, k);
        const std::uint64_t wait = keyed_draw_state(7, DrawStream::miss_wait, block, warp, k);
        equal += rate == wait;
        const bool r = first_uniform(rate) < 0.25, w = first_uniform(wait) < 0.25;
        rate_low += r;
        wait_low += w;
        both_low += r && w;
    }
    EXPECT_EQ(equal, 0);
    EXPECT_NEAR(static_cast<double>(rate_low) / keys, 0.25, 0.01);
    EXPECT_NEAR(static_cast<double>(wait_low) / keys, 0.25, 0.01);
    EXPECT_NEAR(static_cast<double>(both_low) / keys, 0.0625, 0.006);
}

// A different seed, or any one part of the key changed, gives another state.
TEST(KeyedDraw, EveryPartOfTheKeyCounts) {
    const std::uint64_t base = keyed_draw_state(1, DrawStream::warp_rate, 2, 3, 4);
    EXPECT_NE(base, keyed_draw_state(2, DrawStream::warp_rate, 2, 3, 4));
    EXPECT_NE(base, keyed_draw_state(1, DrawStream::miss_wait, 2, 3, 4));
    EXPECT_NE(base, keyed_draw_state(1, DrawStream::warp_rate, 3, 3, 4));
    EXPECT_NE(base, keyed_draw_state(1, DrawStream::warp_rate, 2, 4, 4));
    EXPECT_NE(base, keyed_draw_state(1, DrawStream::warp_rate, 2, 3, 5));
}

}  // namespace
}  // namespace cachesim
