// The L2 system alone: L1 sector misses and store sectors fed as events, worked by hand (32 B
// sectors, 128 B lines, the H200's L2 large enough that nothing is evicted).
#include <gtest/gtest.h>

#include <vector>

#include "sim/gpu/gpu_presets.hpp"
#include "sim/gpu/l2_system.hpp"
#include "sim/gpu/list_policies.hpp"

namespace cachesim {
namespace {

GpuConfig gpu() {
    GpuConfig c = with_sms(find_gpu_preset("h200")->config, 2);
    c.floorplan = {};
    c.l2_partitions = 1;
    c.dram_fetch_bytes = 32;
    c.l2_coalesce_hit_rounds = c.l2_coalesce_miss_rounds = 0;
    return c;
}

struct Rig {
    explicit Rig(const GpuConfig& c) : config(c), l2(config, 7, 5, counters, nullptr) {
        counters.l2.per_array.assign(1, ArrayCounters{});
    }
    // SM s's loads of the L1 sectors at `addresses`, one request in round `round`.
    void load(std::uint32_t s, std::uint64_t round, std::vector<std::uint64_t> addresses) {
        std::vector<L2Event> events;
        for (std::uint64_t a : addresses) events.push_back({a, 0, 0, L2EventKind::load});
        std::size_t i = 0;
        l2.play(s, 0, events, i, round, 0);
        EXPECT_EQ(i, events.size());
    }
    void store(std::uint32_t s, std::uint64_t sector, bool full) {
        std::vector<L2Event> events = {{sector, 0, 0, full ? L2EventKind::store_full : L2EventKind::store_partial}};
        std::size_t i = 0;
        l2.play(s, 0, events, i, 0, 0);
    }
    GpuConfig config;
    GpuCounters counters;
    L2System<ListLruPolicy> l2;
};

TEST(GpuL2System, AColdSectorIsReadFromDramThenHits) {
    Rig rig(gpu());
    rig.load(0, 0, {0});
    rig.load(1, 1, {0});
    const NcuCounters& n = rig.counters.ncu;
    EXPECT_EQ(n.l2_sectors_tex_read, 2u);
    EXPECT_EQ(n.l2_sectors_tex_read_hit, 1u);
    EXPECT_EQ(n.l2_sectors_tex_read_miss, 1u);
    EXPECT_EQ(n.dram_bytes_read, 32u);
    EXPECT_EQ(rig.counters.l2.reads, 2u);
    EXPECT_EQ(rig.counters.l2.read_hits, 1u);
}

// A 64 B DRAM granule: the first sector's miss brings its neighbour too. The neighbour, asked in
// the same request, is part of that fetch: a lookup counted as a miss, no DRAM of its own; asked
// in a later round it hits.
TEST(GpuL2System, TheGranuleServesTheRestOfTheRequest) {
    GpuConfig c = gpu();
    c.dram_fetch_bytes = 64;
    Rig rig(c);
    rig.load(0, 0, {0, 32});
    const NcuCounters& n = rig.counters.ncu;
    EXPECT_EQ(n.l2_sectors_tex_read, 2u);
    EXPECT_EQ(n.l2_sectors_tex_read_hit, 0u);
    EXPECT_EQ(n.l2_sectors_tex_read_miss, 2u);  // the granule's two sectors
    EXPECT_EQ(n.dram_bytes_read, 64u);
    EXPECT_EQ(rig.counters.l2.read_misses, 2u);
    rig.load(0, 1, {32});
    EXPECT_EQ(n.l2_sectors_tex_read_hit, 1u);
    EXPECT_EQ(n.dram_bytes_read, 64u);
}

// Two partitions, near fill, SM 0 near partition 0 and SM 1 near 1. SM 0's miss asks the far half
// (a fabric lookup that misses) and reads DRAM; SM 1's miss finds it in the far half (a fabric hit,
// no DRAM) and copies it near, where its next read hits.
TEST(GpuL2System, AFarHitIsCopiedToTheNearPartition) {
    GpuConfig c = gpu();
    c.l2_partitions = 2;
    c.partition_map = PartitionMap::halves;
    c.partition_fill = PartitionFill::near;
    Rig rig(c);
    rig.load(0, 0, {0});
    rig.load(1, 1, {0});
    const NcuCounters& n = rig.counters.ncu;
    EXPECT_EQ(n.l2_sectors_fabric_read, 2u);
    EXPECT_EQ(n.l2_sectors_fabric_read_hit, 1u);
    EXPECT_EQ(n.dram_bytes_read, 32u);
    EXPECT_EQ(n.l2_sectors_tex_read_hit, 0u);
    EXPECT_EQ(rig.counters.l2.read_hits, 1u);  // the far hit
    rig.load(1, 2, {0});
    EXPECT_EQ(n.l2_sectors_tex_read_hit, 1u);
    EXPECT_EQ(n.l2_sectors_fabric_read, 2u);
}

// The request coalescer: SM 1's request identical to SM 0's, within the window, makes no lookup.
TEST(GpuL2System, AnIdenticalRequestJoinsTheOneOnItsWay) {
    GpuConfig c = gpu();
    c.l2_coalesce_hit_rounds = c.l2_coalesce_miss_rounds = 4;
    c.l2_coalesce_requesters = 4;
    c.l2_coalesce_scope = CoalesceScope::all;
    Rig rig(c);
    rig.load(0, 0, {0, 32});
    rig.load(1, 0, {0, 32});
    EXPECT_EQ(rig.counters.ncu.l2_sectors_tex_read, 2u);
    EXPECT_EQ(rig.counters.ncu.l2_sectors_coalesced, 2u);
    rig.load(1, 0, {0});  // not the same sectors: a lookup of its own (a hit)
    EXPECT_EQ(rig.counters.ncu.l2_sectors_tex_read, 3u);
    EXPECT_EQ(rig.counters.ncu.l2_sectors_tex_read_hit, 1u);
}

// Stores allocate: a partial sector missing in the L2 is merged with its data from DRAM, a whole
// one is not.
TEST(GpuL2System, OnlyPartialStoreMissesReadDram) {
    Rig rig(gpu());
    rig.store(0, 10, true);
    EXPECT_EQ(rig.counters.ncu.dram_bytes_read, 0u);
    rig.store(0, 20, false);
    EXPECT_EQ(rig.counters.ncu.dram_bytes_read, 32u);
    rig.store(0, 20, false);  // now present
    EXPECT_EQ(rig.counters.ncu.dram_bytes_read, 32u);
    EXPECT_EQ(rig.counters.l2.writes, 3u);
    EXPECT_EQ(rig.counters.l2.write_hits, 1u);
}

}  // namespace
}  // namespace cachesim
