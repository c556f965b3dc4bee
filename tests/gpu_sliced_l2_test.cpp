// The L2 in slices (L2System::split: groups of sets replayed on threads of their own): 1, 2, 3
// and 8 threads give the same results, in both timings, with the preset's two partitions filled
// at home and its request coalescer (whose table the slices share), and with each replacement
// policy (random replacement, one generator for every set, replays whole).
#include <gtest/gtest.h>

#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "tests/gpu_same_result.hpp"
#include "tests/gpu_test_util.hpp"

namespace cachesim {
namespace {

using test::expect_same_on_threads;

// 3 threads do not divide the sets evenly.
GpuConfig sliced(IssueTiming timing) {
    GpuConfig c = with_sms(find_gpu_preset("h200")->config, 8);
    c.timing = timing;
    c.l1_auto = false;
    c.l1.size_bytes = 32 * 1024;  // an L1 that misses often, so the L2 sees much traffic
    c.l2.size_bytes = 2 * 1024 * 1024;  // and an L2 that evicts
    return c;
}

TEST(GpuThreads, SlicedL2StencilInRounds) {
    expect_same_on_threads(test::stencil(1024, 1024, 5), sliced(IssueTiming::rounds), {2u, 3u, 8u});
}

TEST(GpuThreads, SlicedL2StencilInCycles) {
    expect_same_on_threads(test::stencil(1024, 1024, 5), sliced(IssueTiming::cycles), {2u, 3u, 8u});
}

TEST(GpuThreads, SlicedL2MatmulInRounds) {
    expect_same_on_threads(test::matmul(256, 256, 256), sliced(IssueTiming::rounds), {2u, 3u, 8u});
}

TEST(GpuThreads, SlicedL2MatmulInCycles) {
    expect_same_on_threads(test::matmul(256, 256, 256), sliced(IssueTiming::cycles), {2u, 3u, 8u});
}

// FIFO, tree PLRU and random; sets by line mod sets, near fill, coalescing in a TPC.
TEST(GpuThreads, SlicedL2WithEachPolicy) {
    for (PolicyKind policy : {PolicyKind::fifo, PolicyKind::plru, PolicyKind::random}) {
        SCOPED_TRACE(static_cast<int>(policy));
        GpuConfig c = sliced(IssueTiming::rounds);
        c.l2.policy = policy;
        c.l2_set_index = SetIndex::mod;
        c.partition_fill = PartitionFill::near;
        c.l2_coalesce_scope = CoalesceScope::tpc;
        c.dram_fetch_bytes = 64;
        expect_same_on_threads(test::matmul(256, 256, 256, "column:32"), c, {2u, 8u});
    }
}

}  // namespace
}  // namespace cachesim
