// Cycle timing's guess at where the L2 serves an L1 miss (sim/gpu/l2_presence.hpp): a DRAM fetch
// granule is in the L2 once an earlier chunk asked for it, whichever SM did, and not before.
#include <gtest/gtest.h>

#include "sim/gpu/l2_presence.hpp"

namespace cachesim {
namespace {

TEST(L2Presence, HoldsWhatEarlierChunksAskedFor) {
    L2Presence l2(4, 6);  // 64 B granules
    EXPECT_FALSE(l2.holds(0x1000));
    l2.note(2, 0x1000);
    EXPECT_FALSE(l2.holds(0x1000)) << "asked for in this chunk: still on its way from DRAM";
    l2.merge();
    EXPECT_TRUE(l2.holds(0x1000));
    EXPECT_TRUE(l2.holds(0x103f)) << "the same 64 B granule";
    EXPECT_FALSE(l2.holds(0x1040)) << "the next granule";
    EXPECT_FALSE(l2.holds(0x0fff)) << "the granule before";
}

TEST(L2Presence, KeepsEveryGranuleAsTheTableGrows) {
    L2Presence l2(2, 5);  // 32 B granules
    // more granules than the table starts with (65,536 slots, grown at half full), from both SMs,
    // each asked for twice
    constexpr std::uint64_t kGranules = 100000;
    for (std::uint64_t g = 0; g < kGranules; ++g) {
        l2.note(static_cast<std::uint32_t>(g % 2), g * 32 * 3);
        l2.note(static_cast<std::uint32_t>((g + 1) % 2), g * 32 * 3);
    }
    l2.merge();
    for (std::uint64_t g = 0; g < kGranules; ++g) {
        ASSERT_TRUE(l2.holds(g * 32 * 3)) << g;
        ASSERT_FALSE(l2.holds(g * 32 * 3 + 32)) << g;  // never asked for
    }
}

}  // namespace
}  // namespace cachesim
