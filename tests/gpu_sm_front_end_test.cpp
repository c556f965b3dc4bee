// The SM front end alone: one warp's requests through the coalescer and the L1, worked by hand.
// matmul 64x1, depth 2, one warp of 32 threads (x 0..31): A = 2 floats at 0, B = 2x64 floats at
// 4096, C = 64 floats at 8192. Requests: k0 A[0], k1 B row 0, k2 A[1], k3 B row 1, k4 store C.
#include <gtest/gtest.h>

#include <vector>

#include "sim/gpu/gpu_presets.hpp"
#include "sim/gpu/list_policies.hpp"
#include "sim/gpu/sm_front_end.hpp"
#include "tests/gpu_test_util.hpp"

namespace cachesim {
namespace {

struct Rig {
    GpuConfig config = with_sms(find_gpu_preset("h200")->config, 1);
    WorkloadSpec spec = test::matmul(64, 1, 2);
    WarpSlots slots{spec, config, 1};
    std::vector<SectorCache<ListLruPolicy>> l1{1};
    GpuCounters counters;
    std::vector<L2Event> events;

    Rig() {
        config.block = 32;
        slots.load(0, 0, 0, 0);
        l1[0].reset(*make_geometry(effective_l1(config)).geometry, 1);
        counters.l1.per_array.assign(3, ArrayCounters{});
    }
    // Request k of the warp, in round 7; true when a load sector missed.
    bool issue(SmFrontEnd<ListLruPolicy>& front, std::uint32_t k) {
        slots[0].k = k;
        return front.issue(0, slots, 0, 7, events);
    }
};

std::vector<std::uint64_t> addresses(const std::vector<L2Event>& events) {
    std::vector<std::uint64_t> out;
    for (const L2Event& e : events) {
        if (e.kind != L2EventKind::load) out.push_back(e.address);
        else for_each_sector(e, 5, [&](std::uint64_t address) { out.push_back(address); });
    }
    return out;
}

TEST(GpuSmFrontEnd, LoadsMissOnceThenHitInTheL1) {
    Rig rig;
    SmFrontEnd<ListLruPolicy> front(rig.config, rig.l1.data(), true, 5, rig.counters, nullptr);
    EXPECT_TRUE(rig.issue(front, 0));  // A[0]: one broadcast sector
    ASSERT_EQ(rig.events.size(), 1u);
    EXPECT_EQ(rig.events[0].address, 0u);
    EXPECT_EQ(rig.events[0].round, 7u);
    EXPECT_EQ(rig.events[0].array, 0u);
    EXPECT_EQ(rig.events[0].kind, L2EventKind::load);
    rig.events.clear();
    EXPECT_TRUE(rig.issue(front, 1));  // B row 0: one line, four sectors
    EXPECT_EQ(rig.events.size(), 1u);  // one event for the run of four
    EXPECT_EQ(addresses(rig.events), (std::vector<std::uint64_t>{4096, 4128, 4160, 4192}));
    EXPECT_EQ(rig.events[0].array, 1u);
    rig.events.clear();
    EXPECT_FALSE(rig.issue(front, 2));  // A[1]: the sector A[0] brought
    EXPECT_TRUE(rig.events.empty());
    const GpuCounters& n = rig.counters;
    EXPECT_EQ(n.load_requests, 3u);
    EXPECT_EQ(n.ncu.l1_requests_ld, 3u);
    EXPECT_EQ(n.ncu.l1_sectors_ld, 6u);
    EXPECT_EQ(n.ncu.l1_sectors_ld_hit, 1u);
    EXPECT_EQ(n.l1.read_misses, 5u);
    EXPECT_EQ(n.l1.bytes_from_below, 5u * 32);
    EXPECT_EQ(n.l1.per_array[0].reads, 2u);
    EXPECT_EQ(n.l1.per_array[0].read_misses, 1u);
    EXPECT_EQ(n.l1.per_array[1].read_misses, 4u);
    EXPECT_EQ(n.thread_reads, 3u * 32);
}

// Stores write through: no L1 lookup; the L2 sectors they write (ids of 32 B sectors), whole.
TEST(GpuSmFrontEnd, StoresBecomeL2SectorWrites) {
    Rig rig;
    SmFrontEnd<ListLruPolicy> front(rig.config, rig.l1.data(), true, 5, rig.counters, nullptr);
    EXPECT_FALSE(rig.issue(front, 4));
    EXPECT_EQ(addresses(rig.events), (std::vector<std::uint64_t>{256, 257, 258, 259}));
    for (const L2Event& e : rig.events) EXPECT_EQ(e.kind, L2EventKind::store_full);
    EXPECT_EQ(rig.counters.store_requests, 1u);
    EXPECT_EQ(rig.counters.store_sectors, 4u);
    EXPECT_EQ(rig.counters.l1.writes_forwarded, 4u);
    EXPECT_EQ(rig.counters.l1.reads, 0u);
    EXPECT_EQ(rig.counters.thread_writes, 32u);
}

// Without an L1 every load sector goes on; without an L2 stores go straight to memory.
TEST(GpuSmFrontEnd, WithoutCaches) {
    Rig rig;
    SmFrontEnd<ListLruPolicy> front(rig.config, nullptr, false, 5, rig.counters, nullptr);
    EXPECT_TRUE(rig.issue(front, 0));
    EXPECT_TRUE(rig.issue(front, 0));
    EXPECT_EQ(rig.events.size(), 2u);
    EXPECT_EQ(rig.counters.ncu.l1_sectors_ld_hit, 0u);
    rig.events.clear();
    EXPECT_FALSE(rig.issue(front, 4));
    EXPECT_TRUE(rig.events.empty());
    EXPECT_EQ(rig.counters.memory_bytes_written, 128u);
}

}  // namespace
}  // namespace cachesim
