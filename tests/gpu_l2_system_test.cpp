// The L2 system alone: L1 sector misses and store sectors fed as events, worked by hand (32 B
// sectors, 128 B lines, the H200's L2 large enough that nothing is evicted).
#include <gtest/gtest.h>

#include <vector>

#include "sim/gpu/gpu_presets.hpp"
#include "sim/gpu/l2_system.hpp"
#include "sim/gpu/list_policies.hpp"
#include "sim/policies/random.hpp"
#include "sim/rng.hpp"

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
    // SM s's load of a run of sectors of one line in one event: the sector at `address` and
    // bit j of `more` for the sector 1 + j after it.
    void load_run(std::uint32_t s, std::uint64_t round, std::uint64_t address, std::uint8_t more) {
        std::vector<L2Event> events = {{address, 0, 0, L2EventKind::load, more}};
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

// A request's sectors of one line: all four cold (four misses, four sectors from DRAM), then all
// four present (four hits, looked up as one line), then a line with one of the four present (one
// hit, three misses), with the request coalescer off and on (its requests too far apart to join).
TEST(GpuL2System, ALineOfSectorsHitsAsItsSectorsWould) {
    for (std::uint32_t window : {0u, 4u}) {
        SCOPED_TRACE(window);
        GpuConfig c = gpu();
        c.l2_coalesce_hit_rounds = c.l2_coalesce_miss_rounds = window;
        c.l2_coalesce_requesters = 4;
        c.l2_coalesce_scope = CoalesceScope::all;
        Rig rig(c);
        const NcuCounters& n = rig.counters.ncu;
        const LevelStats& l2 = rig.counters.l2;
        rig.load_run(0, 0, 0, 0b111);  // line 0, sectors 0-3
        EXPECT_EQ(n.l2_sectors_tex_read, 4u);
        EXPECT_EQ(n.l2_sectors_tex_read_hit, 0u);
        EXPECT_EQ(n.dram_bytes_read, 128u);
        rig.load_run(1, 100, 0, 0b111);
        EXPECT_EQ(n.l2_sectors_tex_read, 8u);
        EXPECT_EQ(n.l2_sectors_tex_read_hit, 4u);
        EXPECT_EQ(l2.reads, 8u);
        EXPECT_EQ(l2.read_hits, 4u);
        EXPECT_EQ(l2.per_array[0].reads, 8u);
        EXPECT_EQ(l2.per_array[0].read_misses, 4u);
        EXPECT_EQ(n.dram_bytes_read, 128u);
        rig.load_run(0, 200, 128, 0);      // line 1, sector 0
        rig.load_run(1, 300, 128, 0b111);  // line 1, sectors 0-3: sector 0 hits
        EXPECT_EQ(n.l2_sectors_tex_read, 13u);
        EXPECT_EQ(n.l2_sectors_tex_read_hit, 5u);
        EXPECT_EQ(l2.read_misses, 8u);
        EXPECT_EQ(n.dram_bytes_read, 256u);
        EXPECT_EQ(n.l2_sectors_coalesced, 0u);
    }
}

// No store reads DRAM (sub-sector writes, fetched on a later read). A sector written whole is
// then read as a hit. One written in part holds only the bytes written: storing to it again is a
// write hit, and the first load of it is a miss that reads its 32 B from DRAM, after which it hits.
TEST(GpuL2System, StoresReadNoDramAndASectorWrittenInPartIsFetchedByALoad) {
    Rig rig(gpu());
    const NcuCounters& n = rig.counters.ncu;
    const LevelStats& l2 = rig.counters.l2;
    rig.store(0, 10, true);
    rig.store(0, 20, false);
    rig.store(0, 20, false);
    EXPECT_EQ(n.dram_bytes_read, 0u);
    EXPECT_EQ(l2.writes, 3u);
    EXPECT_EQ(l2.write_hits, 1u);
    rig.load(0, 1, {10 * 32});  // written whole
    EXPECT_EQ(l2.read_hits, 1u);
    EXPECT_EQ(n.dram_bytes_read, 0u);
    rig.load(0, 2, {20 * 32});  // written in part
    EXPECT_EQ(l2.read_misses, 1u);
    EXPECT_EQ(n.l2_sectors_tex_read_hit, 1u);
    EXPECT_EQ(n.dram_bytes_read, 32u);
    rig.load(1, 3, {20 * 32});  // whole now
    EXPECT_EQ(l2.read_hits, 2u);
    EXPECT_EQ(n.dram_bytes_read, 32u);
}

// Slices (L2System::split): sets with a replacement policy of their own split; random replacement
// (one generator for all sets) and L1 lines spanning several L2 lines do not.
TEST(GpuL2System, SplitsOnlyWhenSetsAreIndependent) {
    GpuCounters counters;
    const GpuConfig c = gpu();
    L2System<ListLruPolicy> lru(c, 7, 5, counters, nullptr);
    EXPECT_EQ(lru.split(3), 3u);
    EXPECT_EQ(lru.slices(), 3u);
    L2System<RandomPolicy> random(c, 7, 5, counters, nullptr);
    EXPECT_EQ(random.split(3), 1u);
    L2System<ListLruPolicy> wide_l1(c, 8, 5, counters, nullptr);  // 256 B L1 lines, 128 B L2 lines
    EXPECT_EQ(wide_l1.split(3), 1u);
}

// Each slice's events played on their own, slice after slice, give the counters of every event
// played in order: a small L2 in two partitions that evicts, home fill, the coalescer on, loads
// and stores from 4 SMs to lines drawn at random.
TEST(GpuL2System, SlicesPlayedApartGiveWhatTheWholeGives) {
    GpuConfig c = gpu();
    c.sms = 4;
    c.l2_partitions = 2;
    c.partition_map = PartitionMap::interleaved;
    c.partition_fill = PartitionFill::home;
    c.l2.size_bytes = 64 * 1024;  // 16 sets of 16 ways per partition
    c.dram_fetch_bytes = 64;
    c.l2_coalesce_hit_rounds = 3;
    c.l2_coalesce_miss_rounds = 6;
    c.l2_coalesce_scope = CoalesceScope::all;
    const std::uint32_t rounds = 3000, slices = 3;
    // Per SM, its requests: in each round one or all sectors of one line, loads or a store.
    std::vector<std::vector<L2Event>> events(c.sms);
    Rng rng(7);
    for (std::uint32_t r = 0; r < rounds; ++r)
        for (std::uint32_t s = 0; s < c.sms; ++s) {
            if (rng.below(4) == 0) continue;  // no L2 traffic this round
            const std::uint64_t line = rng.below(2) ? rng.below(32) : rng.below(2048);  // half to a few hot lines
            const bool store = rng.below(5) == 0, whole_line = rng.below(2);
            for (std::uint64_t sector = 0; sector < 4; ++sector)
                if (whole_line || sector == 3)
                    events[s].push_back(store ? L2Event{line * 4 + sector, r, 0, L2EventKind::store_partial}
                                              : L2Event{line * 128 + sector * 32, r, 0, L2EventKind::load});
        }

    GpuCounters whole_counters;
    whole_counters.l2.per_array.assign(1, ArrayCounters{});
    L2System<ListLruPolicy> whole(c, 7, 5, whole_counters, nullptr);
    std::vector<std::size_t> cursor(c.sms, 0);
    for (std::uint32_t r = 0; r < rounds; ++r)
        for (std::uint32_t s = 0; s < c.sms; ++s) whole.play(s, r, events[s], cursor[s], r, 0);

    GpuCounters sliced_counters;
    sliced_counters.l2.per_array.assign(1, ArrayCounters{});
    L2System<ListLruPolicy> sliced(c, 7, 5, sliced_counters, nullptr);
    ASSERT_EQ(sliced.split(slices), slices);
    // SM, slice -> its events, in order.
    std::vector<std::vector<L2Event>> by_slice(c.sms * slices);
    std::vector<std::uint32_t> used(slices, 0);
    for (std::uint32_t s = 0; s < c.sms; ++s)
        for (const L2Event& e : events[s]) {
            const std::uint32_t slice = e.kind == L2EventKind::load ? sliced.slicing().of_load(e.address)
                                                                    : sliced.slicing().of_store(e.address);
            by_slice[s * slices + slice].push_back(e);
            ++used[slice];
        }
    for (std::uint32_t slice = 0; slice < slices; ++slice) {
        EXPECT_GT(used[slice], 1000u) << "every slice should see traffic";
        std::vector<std::size_t> at(c.sms, 0);
        for (std::uint32_t r = 0; r < rounds; ++r)
            for (std::uint32_t s = 0; s < c.sms; ++s) sliced.play(s, r, by_slice[s * slices + slice], at[s], r, 0, slice);
    }
    sliced.add_slice_counters(sliced_counters);

    const GpuCounters& a = whole_counters;
    const GpuCounters& b = sliced_counters;
    EXPECT_GT(a.l2.evictions, 1000u) << "the L2 should evict";
    EXPECT_GT(a.ncu.l2_sectors_coalesced, 100u) << "requests should coalesce";
    EXPECT_EQ(a.ncu.metrics(), b.ncu.metrics());
    EXPECT_EQ(a.ncu.l2_sectors_coalesced, b.ncu.l2_sectors_coalesced);
    EXPECT_EQ(a.ncu.l2_sectors_fabric_read_hit, b.ncu.l2_sectors_fabric_read_hit);
    EXPECT_EQ(a.l2.reads, b.l2.reads);
    EXPECT_EQ(a.l2.read_hits, b.l2.read_hits);
    EXPECT_EQ(a.l2.writes, b.l2.writes);
    EXPECT_EQ(a.l2.write_hits, b.l2.write_hits);
    EXPECT_EQ(a.l2.evictions, b.l2.evictions);
    EXPECT_EQ(a.l2.writebacks, b.l2.writebacks);
    EXPECT_EQ(a.l2.bytes_from_below, b.l2.bytes_from_below);
    EXPECT_EQ(a.memory_bytes_read, b.memory_bytes_read);
    EXPECT_EQ(a.memory_bytes_written, b.memory_bytes_written);
    EXPECT_EQ(a.l2.per_array[0].read_misses, b.l2.per_array[0].read_misses);
}

}  // namespace
}  // namespace cachesim
