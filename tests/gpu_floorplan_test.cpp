// The measured chip layout (GpuFloorplan): the H200's SM -> L2 partition table against the
// latency probe's own file, the first-wave dispatch that walks the measured cycle (and the recorded
// first waves it reproduces), the partition
// map it gives the two-partition L2, and the checks that refuse a floorplan that does not fit.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "sim/gpu/cta_dispatch.hpp"
#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "tests/gpu_test_util.hpp"

#ifndef CACHESIM_TEST_DATA_DIR
#error "CACHESIM_TEST_DATA_DIR must be defined by the build"
#endif

namespace cachesim {
namespace {

using test::matmul;

const GpuFloorplan& h200() { return find_gpu_preset("h200")->config.floorplan; }

// The comma-separated fields of a line of the data files here (none quotes a field).
std::vector<std::string> csv_fields(const std::string& line) {
    std::stringstream fields(line);
    std::string f;
    std::vector<std::string> v;
    while (std::getline(fields, f, ',')) v.push_back(f);
    return v;
}

// `sms` SMs holding one block of one warp each, no L1, two L2 halves mapped by a floorplan
// table (`partitions`, one entry per SM), `fill` rule and `granule` byte DRAM reads, no request
// coalescing.
GpuConfig two_halves(std::vector<std::uint8_t> partitions, PartitionFill fill, std::uint32_t granule) {
    GpuConfig c = with_sms(find_gpu_preset("h200")->config, static_cast<std::uint32_t>(partitions.size()));
    c.block = 32;
    c.max_blocks_per_sm = 1;
    c.cta_refill = CtaRefill::sm_order;
    c.l1.size_bytes = 0;
    c.l1_auto = false;
    c.l2_partitions = 2;
    c.partition_fill = fill;
    c.partition_map = PartitionMap::floorplan;
    c.floorplan.sm_partition = std::move(partitions);
    c.dram_fetch_bytes = granule;
    c.l2_coalesce_hit_rounds = c.l2_coalesce_miss_rounds = 0;  // see gpu_request_coalescing_test
    return c;
}

// tests/data/h200/l2probe_sm.csv: an SM that found half of SM 0's lines at far latency is in the
// other partition (SM 0 itself is the reference and has no row).
TEST(GpuFloorplan, H200PartitionsMatchTheLatencyProbe) {
    std::ifstream in(std::string(CACHESIM_TEST_DATA_DIR) + "/h200/l2probe_sm.csv");
    ASSERT_TRUE(in) << "missing l2probe_sm.csv";
    std::string line;
    std::getline(in, line);
    ASSERT_EQ(line.rfind("sm,", 0), 0u);
    ASSERT_EQ(h200().sm_partition.size(), 132u);
    EXPECT_EQ(h200().sm_partition[0], 0);
    int rows = 0, far = 0;
    while (std::getline(in, line)) {
        const std::vector<std::string> v = csv_fields(line);
        ASSERT_GE(v.size(), 6u) << line;
        const int sm = std::stoi(v[0]);
        const double far_fraction = std::stod(v[5]);  // second_far_fraction
        EXPECT_EQ(h200().sm_partition.at(sm), far_fraction > 0.25 ? 1 : 0) << "SM " << sm;
        far += far_fraction > 0.25;
        ++rows;
    }
    EXPECT_EQ(rows, 131);  // every SM but SM 0
    EXPECT_EQ(std::count(h200().sm_partition.begin(), h200().sm_partition.end(), 1), far);
}

TEST(GpuFloorplan, H200DispatchCycleNamesEverySmOnce) {
    std::vector<std::uint32_t> sorted = h200().dispatch_cycle;
    sorted.insert(sorted.end(), h200().side_group.begin(), h200().side_group.end());
    std::sort(sorted.begin(), sorted.end());
    ASSERT_EQ(sorted.size(), 132u);
    for (std::uint32_t i = 0; i < 132; ++i) EXPECT_EQ(sorted[i], i);
    // As placement_matmul.csv shows: SMs go in pairs (TPCs), and the slot-0 round starts with
    // GPC 0..3's first TPCs: 0,1 then 16,17.
    EXPECT_EQ(h200().dispatch_cycle[0], 0u);
    EXPECT_EQ(h200().dispatch_cycle[1], 1u);
    EXPECT_EQ(h200().dispatch_cycle[2], 16u);
}

// The SM each block of a launch of `blocks` one-warp blocks runs on, on `sms` SMs of 2 resident
// blocks each whose first wave walks `cycle` (later waves in SM order).
std::vector<std::uint32_t> sm_of_each_block(std::uint32_t sms, std::vector<std::uint32_t> cycle, std::uint32_t blocks) {
    GpuConfig c = with_sms(find_gpu_preset("h200")->config, sms);
    c.block = 32;
    c.max_blocks_per_sm = 2;
    c.cta_order = CtaOrder::floorplan;
    c.cta_refill = CtaRefill::sm_order;
    c.floorplan.dispatch_cycle = std::move(cycle);
    c.floorplan.row_starts.clear();
    c.floorplan.side_group.clear();
    std::vector<GpuIssue> log;
    c.issue_log = &log;
    simulate_gpu_model(matmul(32 * blocks, 1, 1), c);
    std::vector<std::uint32_t> sm_of_block(blocks, 99);
    for (const GpuIssue& i : log) sm_of_block.at(i.block) = i.sm;
    return sm_of_block;
}

// A 4-SM chip whose cycle is 2, 0, 3, 1 and 2 resident blocks per SM: the first wave (8 blocks)
// walks the cycle twice (blocks 0..3, then 4..7), skipping nothing.
TEST(GpuFloorplan, FirstWaveWalksTheCycle) {
    EXPECT_EQ(sm_of_each_block(4, {2, 0, 3, 1}, 8), (std::vector<std::uint32_t>{2, 0, 3, 1, 2, 0, 3, 1}));
}

// A cycle that visits SM 0 three times per pass (0, 0, 1, 0): with 2 blocks per SM, SM 0 fills
// after the first two visits and the walk skips it from then on.
TEST(GpuFloorplan, FirstWaveSkipsFullSms) {
    EXPECT_EQ(sm_of_each_block(2, {0, 0, 1, 0}, 4), (std::vector<std::uint32_t>{0, 0, 1, 1}));
}

// A side group of SM 2 on a 3-SM chip, its turns every 4 cycle entries with a lead of 1, rows
// {0}, {1} from row 0 (seed 0), 4 blocks per SM: a turn before the row at which 0 entries have
// been walked (0 + 1 >= 0), then 3 (3 + 1 >= 4), 7 and 11; SMs 0 and 1 are full after 8 entries
// and skipped from then on.
TEST(GpuFloorplan, SideGroupTakesTurnsBetweenRows) {
    GpuConfig c = with_sms(find_gpu_preset("h200")->config, 3);
    c.cta_order = CtaOrder::floorplan_turns;
    c.seed = 0;
    c.floorplan.dispatch_cycle = {0, 1};
    c.floorplan.row_starts = {0, 1};
    c.floorplan.side_group = {2};
    c.floorplan.side_every = 4;
    c.floorplan.side_lead = 1;
    validate(c);
    EXPECT_EQ(first_wave_sms(c, 12, 4), (std::vector<std::uint32_t>{2, 0, 1, 0, 2, 1, 0, 1, 0, 2, 1, 2}));
    c.seed = 1;  // from row 1: 2, 1, 0, 1, then the turn at 3 walked entries
    EXPECT_EQ(first_wave_sms(c, 5, 4), (std::vector<std::uint32_t>{2, 1, 0, 1, 2}));
    c.cta_order = CtaOrder::floorplan;  // the slot cycle: from row 0, the side group after it
    EXPECT_EQ(first_wave_sms(c, 12, 4), (std::vector<std::uint32_t>{0, 2, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1}));
}

// tests/data/h200/placement_matmul.csv: the H200's first wave of the 1024^2 matmul at blocks
// 128/256/1024 (16/8/2 resident per SM), two launches each of two schedules. The chip starts
// each launch where the last left its scheduler, and takes the side group 128-131 first in some
// launches; from some starting row (a seed) floorplan-turns gives every one of them exactly.
TEST(GpuFloorplan, H200FirstWaveReproducesRecordedPlacements) {
    std::ifstream in(std::string(CACHESIM_TEST_DATA_DIR) + "/h200/placement_matmul.csv");
    ASSERT_TRUE(in) << "missing placement_matmul.csv";
    std::string line;
    std::getline(in, line);
    ASSERT_EQ(line, "kernel,width,height,stencil_w,stencil_h,depth,schedule,block_size,launch,block,sm,start_ns,end_ns");
    std::map<std::string, std::map<std::uint64_t, std::uint32_t>> launches;  // "schedule,block,launch" -> block -> SM
    std::map<std::string, std::uint32_t> block_size;
    while (std::getline(in, line)) {
        const std::vector<std::string> v = csv_fields(line);
        ASSERT_EQ(v.size(), 13u) << line;
        const std::string key = v[6] + "," + v[7] + "," + v[8];
        launches[key][std::stoull(v[9])] = static_cast<std::uint32_t>(std::stoul(v[10]));
        block_size[key] = static_cast<std::uint32_t>(std::stoul(v[7]));
    }
    ASSERT_EQ(launches.size(), 12u);
    GpuConfig c = find_gpu_preset("h200")->config;
    c.cta_order = CtaOrder::floorplan_turns;
    for (const auto& [key, sm_of_block] : launches) {
        const std::uint32_t per_sm = 2048 / block_size[key];
        std::vector<std::uint32_t> recorded;
        for (std::uint64_t b = 0; b < 132u * per_sm; ++b) recorded.push_back(sm_of_block.at(b));
        if (recorded[0] == 128)  // the side group's halves the other way round: swap them
            for (std::uint32_t& sm : recorded)
                if (sm >= 124) sm = sm < 128 ? sm + 4 : sm - 4;
        int matches = 0;
        for (c.seed = 0; c.seed < 8; ++c.seed) matches += first_wave_sms(c, recorded.size(), per_sm) == recorded;
        EXPECT_EQ(matches, 1) << key;
    }
}

// The partition table decides far lookups. matmul 64x2, depth 8, one warp block per SM on 4
// SMs, no L1: SMs 0,1 compute row 0, SMs 2,3 row 1; SMs 0,2 read B columns 0..31, SMs 1,3
// columns 32..63 (as in gpu_model_test's PartitionMaps). Table {0,1,1,0} pairs SM 0 with 3 and
// SM 1 with 2: every A sector and every B sector is then read from both halves.
TEST(GpuFloorplan, PartitionTableDrivesTheTwoHalves) {
    const GpuResult r = simulate_gpu_model(matmul(64, 2, 8), two_halves({0, 1, 1, 0}, PartitionFill::near, 32));
    // near fill: 2 A sectors + 64 B sectors each fetched once, each found far by the other half.
    EXPECT_EQ(r.ncu.dram_bytes_read, 66u * 32);
    EXPECT_EQ(r.l2_far_hits(), 66u);
}

// Home fill with a 64 B fill granule, one SM without L1. A miss at the line's home reads the
// granule from DRAM; one away from it asks the home half for the whole granule over the link (a
// far lookup per sector) and gets the granule copied; a later sector of the same request that
// came with that fetch, at home or away, is a miss without a lookup of its own (the H200 counts no
// hit inside one request to a cold line: l1probe --pending). matmul 16x1, depth 16: A is one
// 64 B row (line 0, sectors 0 and 1), read one broadcast sector per k (k 0..7 sector 0, k 8..15
// sector 1); B is 16 rows of 64 B from byte 4096 (line 32 + k/2, sectors 2(k%2) and 2(k%2)+1),
// each row one request of both sectors of a granule.
TEST(GpuFloorplan, GranuleCrossesTheLinkAsOneTransfer) {
    const WorkloadSpec spec = matmul(16, 1, 16);
    for (std::uint32_t partition : {0u, 1u}) {
        const GpuConfig c = two_halves({static_cast<std::uint8_t>(partition)}, PartitionFill::home, 64);
        const GpuResult r = simulate_gpu_model(spec, c);
        // A: k = 0 misses and brings sector 1 too, from DRAM (at home) or over the link (away,
        // 2 far lookups); every other k hits. B: each row is one fetch of its granule, from DRAM
        // at home or in one transfer of 2 far lookups away; its second sector is no hit.
        std::uint64_t far_lookups = l2_home_partition(0) == partition ? 0 : 2;
        const std::uint64_t hits = 15;
        for (std::uint64_t k = 0; k < 16; ++k)
            if (l2_home_partition(32 + k / 2) != partition) far_lookups += 2;
        EXPECT_EQ(r.ncu.l2_sectors_tex_read, 16u + 32u) << partition;
        EXPECT_EQ(r.ncu.l2_sectors_tex_read_hit, hits) << partition;
        // lookup_miss counts what the misses brought: A's granule, then every B row's granule.
        EXPECT_EQ(r.ncu.l2_sectors_tex_read_miss, 2u + 16 * 2u) << partition;
        EXPECT_EQ(r.l2_far_lookups(), far_lookups) << partition;
        EXPECT_EQ(r.ncu.l2_sectors_fabric_read, far_lookups) << partition;
        EXPECT_EQ(r.l2_far_hits(), 0u) << partition;
        EXPECT_EQ(r.ncu.dram_bytes_read, 64u + 16 * 64u) << partition;
    }
}

// Two SMs, one per half, read the same sector in the same round, the home's SM first: the other
// finds the granule at the home (two far hits) and copies it over.
TEST(GpuFloorplan, FarHalfServesWhatTheHomeHolds) {
    const std::uint8_t home = static_cast<std::uint8_t>(l2_home_partition(0));
    const GpuConfig c = two_halves({home, static_cast<std::uint8_t>(1 - home)}, PartitionFill::home, 64);
    // matmul 64x1, depth 1: blocks 0 (SM 0) and 1 (SM 1) read A[0][0] (sector 0 of line 0), then
    // B[0][32s..32s+31] (line 32 + s, four sectors in one request).
    const GpuResult r = simulate_gpu_model(matmul(64, 1, 1), c);
    // A: SM 0 misses and brings sectors 0+1 from DRAM; SM 1 misses near and asks the home for
    // 0+1: two far hits, no DRAM. B, four sectors in one request: two fetches of a granule each
    // (from DRAM at the line's home, away in two transfers of 2 far lookups, misses) and no hit
    // inside the request. Either way 128 B from DRAM per line.
    std::uint64_t far_lookups = 2;
    const std::uint64_t hits = 0;
    for (std::uint64_t sm = 0; sm < 2; ++sm)
        if (l2_home_partition(32 + sm) != c.floorplan.sm_partition[sm]) far_lookups += 4;
    EXPECT_EQ(r.l2_far_hits(), 2u);
    EXPECT_EQ(r.ncu.l2_sectors_fabric_read_hit, 2u);
    EXPECT_EQ(r.l2_far_lookups(), far_lookups);
    EXPECT_EQ(r.ncu.dram_bytes_read, 64u + 2 * 128u);
    EXPECT_EQ(r.ncu.l2_sectors_tex_read, 2u + 8u);
    EXPECT_EQ(r.ncu.l2_sectors_tex_read_hit, hits);
    // Brought in on misses: A's granule into each half, B's two granules per SM.
    EXPECT_EQ(r.ncu.l2_sectors_tex_read_miss, 2u + 2u + 2 * 4u);
    // lts__t_sector_op_read_hit_rate: (near hits + far hits) / (near + far lookups).
    EXPECT_DOUBLE_EQ(r.ncu.l2_read_hit_rate_pct(), 100.0 * (hits + 2) / (10 + far_lookups));
}

TEST(GpuFloorplan, RefusedWhenItDoesNotFit) {
    GpuConfig c = find_gpu_preset("h200")->config;
    c.cta_order = CtaOrder::floorplan;
    c.sms = 80;  // the H200's cycle names SMs up to 131
    EXPECT_THROW(validate(c), SimulationError);
    c = find_gpu_preset("h200")->config;
    c.l2_partitions = 2;
    c.partition_map = PartitionMap::floorplan;
    c.floorplan.sm_partition.pop_back();
    EXPECT_THROW(validate(c), SimulationError);
    c = find_gpu_preset("v100")->config;  // no measured floorplan
    c.cta_order = CtaOrder::floorplan;
    EXPECT_THROW(validate(c), SimulationError);
    c = find_gpu_preset("h200")->config;
    c.cta_order = CtaOrder::floorplan;
    c.l2_partitions = 2;
    c.partition_map = PartitionMap::floorplan;
    EXPECT_NO_THROW(validate(c));
}

}  // namespace
}  // namespace cachesim
