// Cycle timing's guess at where the L2 serves an L1 miss (sim/gpu/l2_presence.hpp): a DRAM fetch
// granule is in the L2 once an earlier chunk asked for it, whichever SM did, and not before; its
// data are there from the earliest arrival any SM's DRAM read gave it. Arrival cycles worked by
// hand through L1Timing (sim/gpu/l1_timing.hpp) with an L2 hit of 100 cycles and DRAM of 5,000.
#include <gtest/gtest.h>

#include "sim/gpu/gpu_presets.hpp"
#include "sim/gpu/l1_timing.hpp"
#include "sim/gpu/l2_presence.hpp"
#include "sim/gpu/partition_routing.hpp"

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

TEST(L2Presence, KeepsTheEarliestArrival) {
    L2Presence l2(3, 6);
    EXPECT_EQ(l2.arrival(0x2000), L2Presence::kAbsent);
    l2.note(0, 0x2000, 900);
    l2.note(1, 0x2010, 700);  // the same granule, asked for later in the chunk by another SM but there sooner
    l2.note(2, 0x2000, 800);
    l2.merge();
    EXPECT_EQ(l2.arrival(0x2000), 700u);
    l2.note(0, 0x2000, 100);  // a later chunk cannot ask DRAM again, but the minimum holds
    l2.merge();
    EXPECT_EQ(l2.arrival(0x2000), 100u);
    l2.settle();  // a new launch on the same L2: there from its first cycle
    EXPECT_EQ(l2.arrival(0x2000), 0u);
    EXPECT_FALSE(l2.holds(0x2040));
}

// The h200 preset under cycle timing with the latencies worked by hand: L1 hit 10, L2 hit 100,
// 64 B DRAM fetch granules.
GpuConfig cycles_by_hand() {
    GpuConfig c = find_gpu_preset("h200")->config;
    c.timing = IssueTiming::cycles;
    c.lat_l1_hit = 10;
    c.lat_l1_miss = 100;
    c.dram_fetch_bytes = 64;
    return c;
}

TEST(L1Timing, AMissWaitsForTheDramReadAnotherSmStarted) {
    GpuConfig c = cycles_by_hand();
    c.lat_dram = 5000;
    L1Timing t(c, 16, 4);
    const std::uint64_t a = 0x10000, b = 0x20000, d = 0x30000;
    // SM 0 misses a's first sector at cycle 0: nobody asked for its granule, so DRAM, at 5,000.
    EXPECT_EQ(t.serve(0, 0, a, 0b0001, 0, 0), 5000u);
    // SM 1, in the same chunk, cannot see it: DRAM for it too, at 20 + 5,000.
    EXPECT_EQ(t.serve(1, 0, a, 0b0001, 0, 20), 5020u);
    t.end_chunk();
    // A later chunk: SM 2 at cycle 300 waits for the read on its way (5,000), not for an L2 hit
    // (400); a's second sector is in the same 64 B granule.
    EXPECT_EQ(t.serve(2, 0, a, 0b0010, 0, 300), 5000u);
    // once it has arrived, an L2 hit
    EXPECT_EQ(t.serve(3, 0, a, 0b0001, 0, 6000), 6100u);
    // a's third sector is another granule: DRAM
    EXPECT_EQ(t.serve(3, 0, a, 0b0100, 0, 6000), 11000u);
    // The slowest sector of a request decides: b from DRAM, d's granule nobody asked for either.
    EXPECT_EQ(t.serve(0, 2, b, 0b0011, 0, 50), 5050u);
    t.end_chunk();
    EXPECT_EQ(t.serve(1, 3, b, 0b0001, 0b0000, 4000), 5050u);
    EXPECT_EQ(t.serve(1, 4, d, 0b0001, 0, 4000), 9000u);
    // A new launch on the same L2 (a warm start): what the launch before asked for is there.
    t.start_launch();
    EXPECT_EQ(t.serve(2, 0, a, 0b0001, 0, 0), 100u);
    EXPECT_EQ(t.serve(2, 1, d, 0b0001, 0, 0), 100u);
}

// Two partitions filled from their homes (the h200 preset's): an L1 miss whose line's home is the
// other partition is served by the far half, 400 cycles here against 100, until the SM's own
// partition holds a copy from an earlier chunk; a line homed in the SM's partition is near.
TEST(L1Timing, AMissHomedInTheFarHalfTakesTheFarLatencyUntilTheNearHalfHasACopy) {
    GpuConfig c = cycles_by_hand();
    c.lat_l2_far = 400;
    ASSERT_EQ(c.partition_fill, PartitionFill::home);
    const std::vector<std::uint32_t> near = near_partitions(c, 2);
    // two SMs of one partition and one of the other
    std::uint32_t s0 = 0, s1 = 1, s2 = 1;
    while (near[s1] != near[s0] || s1 == s0) ++s1;
    while (near[s2] == near[s0]) ++s2;
    // a line homed in s0's partition and one homed in the other (L2 lines of 128 B)
    std::uint64_t home_near = 0x100000, home_far = 0x100000;
    while (l2_home_partition(home_near >> 7) != near[s0]) home_near += 128;
    while (l2_home_partition(home_far >> 7) == near[s0]) home_far += 128;
    L1Timing t(c, 16, 4);
    EXPECT_EQ(t.serve(s0, 0, home_near, 0b0001, 0, 0), 100u);
    EXPECT_EQ(t.serve(s0, 1, home_far, 0b0001, 0, 0), 400u);
    // the same granule from another SM of the partition in the same chunk: no copy seen yet
    EXPECT_EQ(t.serve(s1, 1, home_far, 0b0010, 0, 5), 405u);
    t.end_chunk();
    // a later chunk: the near half has the granule's copy (sectors 0-1); sector 2 is another granule
    EXPECT_EQ(t.serve(s1, 1, home_far, 0b0001, 0, 1000), 1100u);
    EXPECT_EQ(t.serve(s1, 1, home_far, 0b0100, 0, 1000), 1400u);
    // from the other partition the line is near, and the first line far
    EXPECT_EQ(t.serve(s2, 1, home_far, 0b0001, 0, 1000), 1100u);
    EXPECT_EQ(t.serve(s2, 0, home_near, 0b0001, 0, 1000), 1400u);
    // with one latency for both halves, every miss takes it
    c.lat_l2_far = 0;
    L1Timing one(c, 16, 4);
    EXPECT_EQ(one.serve(s0, 1, home_far, 0b0001, 0, 0), 100u);
}

}  // namespace
}  // namespace cachesim
