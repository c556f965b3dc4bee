#pragma once
// Whether runs of the GPU model on different thread counts give the same results: every counter
// of the result, its levels and arrays. expect_same_on_threads also checks that the launch spans
// several chunks of the lock step and refills blocks.
#include <gtest/gtest.h>

#include <initializer_list>

#include "sim/gpu/gpu_model.hpp"

namespace cachesim::test {

inline void expect_same_levels(const LevelStats& a, const LevelStats& b) {
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.reads, b.reads);
    EXPECT_EQ(a.read_hits, b.read_hits);
    EXPECT_EQ(a.read_misses, b.read_misses);
    EXPECT_EQ(a.writes, b.writes);
    EXPECT_EQ(a.write_hits, b.write_hits);
    EXPECT_EQ(a.write_misses, b.write_misses);
    EXPECT_EQ(a.writes_forwarded, b.writes_forwarded);
    EXPECT_EQ(a.evictions, b.evictions);
    EXPECT_EQ(a.writebacks, b.writebacks);
    EXPECT_EQ(a.bytes_from_below, b.bytes_from_below);
    EXPECT_EQ(a.bytes_to_below, b.bytes_to_below);
    ASSERT_EQ(a.per_array.size(), b.per_array.size());
    for (std::size_t i = 0; i < a.per_array.size(); ++i) {
        EXPECT_EQ(a.per_array[i].reads, b.per_array[i].reads);
        EXPECT_EQ(a.per_array[i].read_misses, b.per_array[i].read_misses);
        EXPECT_EQ(a.per_array[i].writes, b.per_array[i].writes);
        EXPECT_EQ(a.per_array[i].write_misses, b.per_array[i].write_misses);
    }
}

inline void expect_same(const GpuResult& a, const GpuResult& b) {
    EXPECT_EQ(a.rounds, b.rounds);
    EXPECT_EQ(a.blocks, b.blocks);
    EXPECT_EQ(a.warps, b.warps);
    EXPECT_EQ(a.load_requests, b.load_requests);
    EXPECT_EQ(a.store_requests, b.store_requests);
    EXPECT_EQ(a.load_sectors, b.load_sectors);
    EXPECT_EQ(a.store_sectors, b.store_sectors);
    EXPECT_EQ(a.ncu.metrics(), b.ncu.metrics());
    EXPECT_EQ(a.l1_hit_sources.own_warp, b.l1_hit_sources.own_warp);
    EXPECT_EQ(a.l1_hit_sources.own_block, b.l1_hit_sources.own_block);
    EXPECT_EQ(a.l1_hit_sources.other_block, b.l1_hit_sources.other_block);
    EXPECT_EQ(a.result.reads, b.result.reads);
    EXPECT_EQ(a.result.writes, b.result.writes);
    EXPECT_EQ(a.result.accesses, b.result.accesses);
    EXPECT_EQ(a.result.steps, b.result.steps);
    EXPECT_EQ(a.result.memory_bytes_read, b.result.memory_bytes_read);
    EXPECT_EQ(a.result.memory_bytes_written, b.result.memory_bytes_written);
    ASSERT_EQ(a.result.levels.size(), b.result.levels.size());
    for (std::size_t i = 0; i < a.result.levels.size(); ++i) expect_same_levels(a.result.levels[i], b.result.levels[i]);
}

// A change to the timing (which warps meet when) moves a run's L1 hits, never what it accesses.
inline void expect_other_hits_same_accesses(const GpuResult& a, const GpuResult& b) {
    EXPECT_EQ(a.ncu.l1_sectors_ld, b.ncu.l1_sectors_ld);
    EXPECT_EQ(a.ncu.l1_requests_ld, b.ncu.l1_requests_ld);
    EXPECT_NE(a.ncu.l1_sectors_ld_hit, b.ncu.l1_sectors_ld_hit);
}

inline void expect_same_on_threads(const WorkloadSpec& spec, const GpuConfig& config,
                            std::initializer_list<std::uint32_t> thread_counts) {
    RunControl control;
    const GpuResult one = simulate_gpu_model(spec, config, control);
    ASSERT_GT(one.rounds, 3u * 16384) << "should span several chunks";
    ASSERT_GT(one.blocks, 4u * config.sms) << "should refill blocks";
    for (std::uint32_t threads : thread_counts) {
        SCOPED_TRACE(threads);
        control.threads = threads;
        expect_same(one, simulate_gpu_model(spec, config, control));
    }
}

}  // namespace cachesim::test
