// lts__t_sectors_srcunit_tex_op_read_lookup_miss: what the L2's misses brought in, not how many
// lookups missed. l1probe's --pending cases show the H200 counting it so (one SM reading sector 0
// of a cold line: 1 lookup, 0 hits, 2 "misses", the 64 B granule); the model counts the sectors
// each near-partition miss asks of DRAM or of the far half. Checked by hand on small launches,
// and as the law that definition implies on the 54 stencil configurations of the H200
// measurements (gpu_l2_lookup_miss_h200_test.cpp checks the chip's own counts).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "tests/gpu_test_util.hpp"

namespace cachesim {
namespace {

// One SM, one warp, no L1, one L2 partition, `granule` byte DRAM reads.
GpuConfig one_sm(std::uint32_t granule) {
    GpuConfig c = find_gpu_preset("h200")->config;
    c.sms = 1;
    c.cta_order = CtaOrder::round_robin;
    c.partition_map = PartitionMap::halves;
    c.l2_partitions = 1;
    c.block = 32;
    c.max_blocks_per_sm = 1;
    c.l1.size_bytes = 0;
    c.l1_auto = false;
    c.dram_fetch_bytes = granule;
    c.l2_coalesce_hit_rounds = c.l2_coalesce_miss_rounds = 0;
    return c;
}

// matmul 16x1, depth 16: A is one 64 B row (line 0), read one broadcast sector per k (sector 0
// for k < 8, sector 1 after); B is 16 rows of 64 B (lines 32.., sectors 2(k%2), 2(k%2)+1), each
// row one request of both sectors of a granule.
TEST(GpuL2LookupMiss, CountsTheSectorsTheMissesBring) {
    const WorkloadSpec spec = test::matmul(16, 1, 16);
    {
        // 64 B granules: A misses once and brings sector 1 along (2); every B row misses on its
        // first sector and brings the second (16 x 2), which is no hit: it came with the same
        // request (the H200 counts 0 hits for a request of sectors 0 and 1 of a cold line).
        const GpuResult r = simulate_gpu_model(spec, one_sm(64));
        EXPECT_EQ(r.ncu.l2_sectors_tex_read, 16u + 32u);
        EXPECT_EQ(r.ncu.l2_sectors_tex_read_hit, 15u);
        EXPECT_EQ(r.ncu.l2_sectors_tex_read_miss, 2u + 32u);
        EXPECT_EQ(r.ncu.dram_bytes_read, 34u * 32);
    }
    {
        // 32 B: every miss brings only itself, so misses = lookups - hits.
        const GpuResult r = simulate_gpu_model(spec, one_sm(32));
        EXPECT_EQ(r.ncu.l2_sectors_tex_read_hit, 14u);
        EXPECT_EQ(r.ncu.l2_sectors_tex_read_miss, 48u - 14u);
    }
    {
        // 128 B: A's miss brings its whole line (4), each B line (two rows) 4.
        const GpuResult r = simulate_gpu_model(spec, one_sm(128));
        EXPECT_EQ(r.ncu.l2_sectors_tex_read_miss, 4u + 8 * 4u);
    }
}

// The law the definition implies, for any launch: every lookup that misses is brought in by a
// fetch of its own or came with an earlier one of its request, and a fetch brings at most one
// granule, so lookups - hits <= misses <= (granule / sector) x (lookups - hits); with 32 B
// granules the two are equal. Checked with the h200 preset (64 B granules, two partitions, the
// floorplan, request coalescing) on the 54 stencil configurations measured on the H200
// (partition_stencil.csv: 3x3 and 9x9, nine schedules, blocks 128, 256, 1024) at 128x128, where
// the chip's own counts obey it too (gpu_l2_lookup_miss_h200_test.cpp).
TEST(GpuL2LookupMiss, MissesLieBetweenTheMissedLookupsAndTheirGranules) {
    const char* schedules[] = {"linear", "column:8", "column:16", "column:32", "column:64",
                               "column:128", "zigzag:32", "tiled:32x32", "morton"};
    std::uint64_t missed_in_all = 0, misses_in_all = 0;
    for (std::uint32_t box : {3u, 9u})
        for (const char* schedule : schedules)
            for (std::uint32_t block : {128u, 256u, 1024u}) {
                const std::string launch = std::to_string(box) + "x" + std::to_string(box) + " " + schedule + " block " +
                                           std::to_string(block);
                GpuConfig c = find_gpu_preset("h200")->config;
                ASSERT_EQ(c.dram_fetch_bytes, 64u);
                c.block = block;
                const WorkloadSpec spec = test::stencil(128, 128, box, schedule);
                const GpuResult r = simulate_gpu_model(spec, c);
                const std::uint64_t missed = r.ncu.l2_sectors_tex_read - r.ncu.l2_sectors_tex_read_hit;
                ASSERT_GT(missed, 0u) << launch;
                EXPECT_GE(r.ncu.l2_sectors_tex_read_miss, missed) << launch;
                EXPECT_LE(r.ncu.l2_sectors_tex_read_miss, 2 * missed) << launch;
                missed_in_all += missed;
                misses_in_all += r.ncu.l2_sectors_tex_read_miss;
                if (box == 3) {  // the 32 B case once per schedule and block
                    c.dram_fetch_bytes = 32;
                    const GpuResult sector = simulate_gpu_model(spec, c);
                    EXPECT_EQ(sector.ncu.l2_sectors_tex_read_miss,
                              sector.ncu.l2_sectors_tex_read - sector.ncu.l2_sectors_tex_read_hit)
                        << launch;
                }
            }
    // As on the chip, the unrequested halves of 64 B granules make the misses exceed the missed
    // lookups (in every one of its 54 launches; here, where a launch can be all whole-granule
    // requests, over all of them).
    EXPECT_GT(misses_in_all, missed_in_all);
}

}  // namespace
}  // namespace cachesim
