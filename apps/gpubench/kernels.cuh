#pragma once
// The thesis's kernels (listings 3 and 4) with the thread index remapped by the simulator's
// schedule (listing 5 generalised): launch index -> work item -> the same accesses, in the same
// order, as traces/workload.hpp describes.
#include <cuda_runtime_api.h>

#include <cstdint>

#include "apps/gpubench/bench_config.hpp"
#include "traces/schedule.hpp"

namespace gpubench {

// Two instantiations of every kernel, so that Nsight Compute can be told to profile only the one
// launch per configuration that is meant to be profiled ('--kernel-name regex:ProfiledLaunch').
struct TimedLaunch {};
struct ProfiledLaunch {};
// A third instantiation records where and when every block ran (--placement); never timed or
// profiled, since reading the clock and the SM id adds instructions.
struct PlacedLaunch {};
// A fourth records only when each warp finished, and where (--warp-ends): nothing before or in the
// loops. Even so, on sm_90 the naive matmul's loop compiles differently from the measured kernel's
// (the SASS differs, and so does its L1 hit rate: docs/h200-data.md, "Warp timing").
struct EndStampedLaunch {};

// One block of a PlacedLaunch: the SM it ran on, when its thread 0 started and when its last warp
// finished (%globaltimer, ns).
struct BlockPlacement {
    std::uint32_t sm;
    std::uint32_t unused;
    unsigned long long start_ns;
    unsigned long long end_ns;
};

// One warp of a PlacedLaunch (--warp-times): its SM, its warp slot there (%warpid), when its lane 0
// started and when it finished (%globaltimer, ns). Recorded outside the kernels' loops, which still
// compile differently from the measured kernel's (see EndStampedLaunch).
struct WarpTiming {
    std::uint32_t sm;
    std::uint32_t slot;
    unsigned long long start_ns;
    unsigned long long end_ns;
};

struct StencilArgs {
    float* out;
    const float* in;  // deliberately not __restrict__: plain LDG loads through L1, as in the thesis
    std::uint32_t width, height;
    std::uint32_t box_w, box_h;
    cachesim::Schedule schedule;
    BlockPlacement* placement = nullptr;  // PlacedLaunch only
    WarpTiming* warps = nullptr;          // PlacedLaunch (may be null), EndStampedLaunch
    KernelVariant variant = KernelVariant::index64;  // Timed and Profiled launches only
    // Dynamic shared memory per block, never touched: it only makes the driver take a larger
    // shared-memory carve-out, and so leave the L1 less (gpubench --smem-per-block).
    std::uint32_t smem_bytes = 0;
};

struct MatmulArgs {
    float* c;
    const float* a;  // height x depth
    const float* b;  // depth x width
    std::uint32_t width, height, depth;
    cachesim::Schedule schedule;
    BlockPlacement* placement = nullptr;  // PlacedLaunch only
    WarpTiming* warps = nullptr;          // PlacedLaunch (may be null), EndStampedLaunch
    KernelVariant variant = KernelVariant::index64;  // Timed and Profiled launches only
    std::uint32_t smem_bytes = 0;  // as StencilArgs::smem_bytes
};

template <class Launch>
void launch_stencil(const StencilArgs& args, std::uint32_t block, cudaStream_t stream);
template <class Launch>
void launch_matmul(const MatmulArgs& args, std::uint32_t block, cudaStream_t stream);

// Writes `bytes` of `buffer` (sized larger than the L2) so that no input stays cached.
void flush_l2(std::uint32_t* buffer, std::size_t bytes, cudaStream_t stream);
// One thread writes %globaltimer to *stamp (the origin of an EndStampedLaunch's times).
void stamp_time(unsigned long long* stamp, cudaStream_t stream);
// Fills a float array with a bit pattern (poison) on the device.
void fill_bits(float* data, std::size_t count, std::uint32_t bits, cudaStream_t stream);

}  // namespace gpubench
