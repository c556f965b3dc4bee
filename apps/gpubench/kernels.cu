#include "apps/gpubench/kernels.cuh"

#include "apps/gpubench/cuda_check.hpp"

#include <type_traits>

namespace gpubench {

namespace {

constexpr std::uint64_t kMaxGridX = 2147483647u;

std::uint32_t blocks_for(std::uint64_t threads, std::uint32_t block) {
    const std::uint64_t blocks = (threads + block - 1) / block;
    if (blocks > kMaxGridX) throw CudaError("launch of " + std::to_string(threads) +
                                            " threads needs more blocks than a grid may have");
    return static_cast<std::uint32_t>(blocks);
}

__device__ std::uint64_t global_warp() {
    return static_cast<std::uint64_t>(blockIdx.x) * ((blockDim.x + 31) / 32) + threadIdx.x / 32;
}

// The recording code below is what recorded tests/data/h200/warp_times_* and warp_ends_*: any
// change to it can change how the kernels' loops compile, and so their timing (docs/gpu-model.md, "Replaying
// measured warp timing"); re-measure after changing it.
template <class Launch>
__device__ void record_block_start(BlockPlacement* placement, WarpTiming* warps) {
    if constexpr (std::is_same_v<Launch, PlacedLaunch>) {
        if (threadIdx.x % 32 == 0) {
            unsigned int sm, slot;
            unsigned long long now;
            asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
            asm volatile("mov.u32 %0, %%warpid;" : "=r"(slot));
            asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
            if (threadIdx.x == 0) {
                placement[blockIdx.x].sm = sm;
                placement[blockIdx.x].start_ns = now;
            }
            if (warps) {
                WarpTiming& w = warps[global_warp()];
                w.sm = sm;
                w.slot = slot;
                w.start_ns = now;
            }
        }
    }
}

template <class Launch>
__device__ void record_warp_end(BlockPlacement* placement, WarpTiming* warps) {
    if constexpr (std::is_same_v<Launch, EndStampedLaunch>) {
        if (threadIdx.x % 32 == 0) {
            unsigned int sm, slot;
            unsigned long long now;
            asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
            asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
            asm volatile("mov.u32 %0, %%warpid;" : "=r"(slot));
            warps[global_warp()] = WarpTiming{sm, slot, 0, now};
        }
    }
    if constexpr (std::is_same_v<Launch, PlacedLaunch>) {
        if (threadIdx.x % 32 == 0) {
            unsigned long long now;
            asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
            atomicMax(&placement[blockIdx.x].end_ns, now);
            if (warps) warps[global_warp()].end_ns = now;
        }
    }
}

// The box is a template parameter for the sizes of the thesis's tables (3x3..9x9), so those loops
// unroll as the thesis's #define STENCIL_SIZE made them; kBox == 0 takes the box from the arguments.
// kVariant changes only how the same loads are compiled (KernelVariant).
template <class Launch, int kBox, KernelVariant kVariant>
__global__ void stencil_kernel(StencilArgs args) {
    record_block_start<Launch>(args.placement, args.warps);
    const std::uint64_t tid = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const std::uint64_t n = static_cast<std::uint64_t>(args.width) * args.height;
    if (tid >= n) return;
    const std::uint64_t item = cachesim::schedule_map(args.schedule, tid, args.width, args.height);
    int x, y;
    if constexpr (kVariant == KernelVariant::index32) {
        const std::uint32_t item32 = static_cast<std::uint32_t>(item);
        x = static_cast<int>(item32 % args.width);
        y = static_cast<int>(item32 / args.width);
    } else {
        x = static_cast<int>(item % args.width);
        y = static_cast<int>(item / args.width);
    }
    const int box_w = kBox ? kBox : static_cast<int>(args.box_w);
    const int box_h = kBox ? kBox : static_cast<int>(args.box_h);
    const int last_x = static_cast<int>(args.width) - 1;
    const int last_y = static_cast<int>(args.height) - 1;
    auto load = [&](int dy, int dx) {
        const int row = min(last_y, max(0, y + dy));
        const int col = min(last_x, max(0, x + dx));
        if constexpr (kVariant == KernelVariant::index32)
            return args.in[static_cast<std::uint32_t>(row) * args.width + static_cast<std::uint32_t>(col)];
        else
            return args.in[static_cast<std::size_t>(row) * args.width + col];
    };

    float sum = 0.0f;
    if constexpr (kVariant == KernelVariant::unroll1) {
#pragma unroll 1
        for (int dy = -(box_h / 2); dy < box_h - box_h / 2; ++dy) {
#pragma unroll 1
            for (int dx = -(box_w / 2); dx < box_w - box_w / 2; ++dx) sum += load(dy, dx);
        }
    } else {
#pragma unroll
        for (int dy = -(box_h / 2); dy < box_h - box_h / 2; ++dy) {
#pragma unroll
            for (int dx = -(box_w / 2); dx < box_w - box_w / 2; ++dx) sum += load(dy, dx);
        }
    }
    args.out[item] = sum / static_cast<float>(box_w * box_h);
    record_warp_end<Launch>(args.placement, args.warps);
}

template <class Launch, KernelVariant kVariant>
__global__ void matmul_kernel(MatmulArgs args) {
    record_block_start<Launch>(args.placement, args.warps);
    const std::uint64_t tid = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const std::uint64_t n = static_cast<std::uint64_t>(args.width) * args.height;
    if (tid >= n) return;
    const std::uint64_t item = cachesim::schedule_map(args.schedule, tid, args.width, args.height);

    float result = 0.0f;
    if constexpr (kVariant == KernelVariant::index32) {
        const std::uint32_t item32 = static_cast<std::uint32_t>(item);
        const std::uint32_t x = item32 % args.width;
        const std::uint32_t y = item32 / args.width;
        for (std::uint32_t i = 0; i < args.depth; ++i)
            result += args.a[y * args.depth + i] * args.b[i * args.width + x];
    } else {
        const std::uint64_t x = item % args.width;
        const std::uint64_t y = item / args.width;
        const float* a_row = args.a + y * args.depth;
        if constexpr (kVariant == KernelVariant::unroll1) {
#pragma unroll 1
            for (std::uint32_t i = 0; i < args.depth; ++i)
                result += a_row[i] * args.b[static_cast<std::uint64_t>(i) * args.width + x];
        } else {
            for (std::uint32_t i = 0; i < args.depth; ++i)
                result += a_row[i] * args.b[static_cast<std::uint64_t>(i) * args.width + x];
        }
    }
    args.c[item] = result;
    record_warp_end<Launch>(args.placement, args.warps);
}

__global__ void stamp_kernel(unsigned long long* stamp) {
    unsigned long long now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    *stamp = now;
}

__global__ void flush_kernel(std::uint32_t* buffer, std::size_t words, std::uint32_t value) {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < words;
         i += stride)
        buffer[i] = value + static_cast<std::uint32_t>(i);
}

__global__ void fill_kernel(std::uint32_t* data, std::size_t count, std::uint32_t bits) {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
         i += stride)
        data[i] = bits;
}

template <class Launch, KernelVariant kVariant>
void launch_stencil_variant(const StencilArgs& args, std::uint32_t grid, std::uint32_t block, cudaStream_t stream) {
    const bool square = args.box_w == args.box_h;
    if (square && args.box_w == 3) stencil_kernel<Launch, 3, kVariant><<<grid, block, args.smem_bytes, stream>>>(args);
    else if (square && args.box_w == 5) stencil_kernel<Launch, 5, kVariant><<<grid, block, args.smem_bytes, stream>>>(args);
    else if (square && args.box_w == 7) stencil_kernel<Launch, 7, kVariant><<<grid, block, args.smem_bytes, stream>>>(args);
    else if (square && args.box_w == 9) stencil_kernel<Launch, 9, kVariant><<<grid, block, args.smem_bytes, stream>>>(args);
    else stencil_kernel<Launch, 0, kVariant><<<grid, block, args.smem_bytes, stream>>>(args);
}

// Placed launches record the measured (index64) compilation only: their clock reads before the
// loop already change its SASS. End-stamped launches read the clock after the loop only; the loop
// may still compile a little differently (docs/gpubench.md), so every compilation has one and
// scripts/device_progress.sh knee_ends profiles it beside the measured kernel.
template <class Launch>
constexpr bool kAllVariants = !std::is_same_v<Launch, PlacedLaunch>;

void check_variant(KernelVariant variant, bool all_variants) {
    if (variant != KernelVariant::index64 && !all_variants)
        throw CudaError("the " + std::string(kernel_variant_name(variant)) +
                        " kernels have no placed instantiation");
}

}  // namespace

template <class Launch>
void launch_stencil(const StencilArgs& args, std::uint32_t block, cudaStream_t stream) {
    const std::uint32_t grid = blocks_for(static_cast<std::uint64_t>(args.width) * args.height, block);
    check_variant(args.variant, kAllVariants<Launch>);
    if constexpr (kAllVariants<Launch>) {
        if (args.variant == KernelVariant::index32)
            launch_stencil_variant<Launch, KernelVariant::index32>(args, grid, block, stream);
        else if (args.variant == KernelVariant::unroll1)
            launch_stencil_variant<Launch, KernelVariant::unroll1>(args, grid, block, stream);
        else
            launch_stencil_variant<Launch, KernelVariant::index64>(args, grid, block, stream);
    } else {
        launch_stencil_variant<Launch, KernelVariant::index64>(args, grid, block, stream);
    }
    cuda_check_launch("stencil kernel launch");
}

template <class Launch>
void launch_matmul(const MatmulArgs& args, std::uint32_t block, cudaStream_t stream) {
    const std::uint32_t grid = blocks_for(static_cast<std::uint64_t>(args.width) * args.height, block);
    check_variant(args.variant, kAllVariants<Launch>);
    if constexpr (kAllVariants<Launch>) {
        if (args.variant == KernelVariant::index32)
            matmul_kernel<Launch, KernelVariant::index32><<<grid, block, args.smem_bytes, stream>>>(args);
        else if (args.variant == KernelVariant::unroll1)
            matmul_kernel<Launch, KernelVariant::unroll1><<<grid, block, args.smem_bytes, stream>>>(args);
        else
            matmul_kernel<Launch, KernelVariant::index64><<<grid, block, args.smem_bytes, stream>>>(args);
    } else {
        matmul_kernel<Launch, KernelVariant::index64><<<grid, block, args.smem_bytes, stream>>>(args);
    }
    cuda_check_launch("matmul kernel launch");
}

template void launch_stencil<TimedLaunch>(const StencilArgs&, std::uint32_t, cudaStream_t);
template void launch_stencil<ProfiledLaunch>(const StencilArgs&, std::uint32_t, cudaStream_t);
template void launch_matmul<TimedLaunch>(const MatmulArgs&, std::uint32_t, cudaStream_t);
template void launch_matmul<ProfiledLaunch>(const MatmulArgs&, std::uint32_t, cudaStream_t);
template void launch_stencil<PlacedLaunch>(const StencilArgs&, std::uint32_t, cudaStream_t);
template void launch_matmul<PlacedLaunch>(const MatmulArgs&, std::uint32_t, cudaStream_t);
template void launch_stencil<EndStampedLaunch>(const StencilArgs&, std::uint32_t, cudaStream_t);
template void launch_matmul<EndStampedLaunch>(const MatmulArgs&, std::uint32_t, cudaStream_t);

void stamp_time(unsigned long long* stamp, cudaStream_t stream) {
    stamp_kernel<<<1, 1, 0, stream>>>(stamp);
    cuda_check_launch("stamp kernel launch");
}

void flush_l2(std::uint32_t* buffer, std::size_t bytes, cudaStream_t stream) {
    static std::uint32_t generation = 0;  // a new value each time, so every line is really written
    flush_kernel<<<1024, 256, 0, stream>>>(buffer, bytes / sizeof(std::uint32_t), ++generation);
    cuda_check_launch("L2 flush kernel launch");
}

void fill_bits(float* data, std::size_t count, std::uint32_t bits, cudaStream_t stream) {
    fill_kernel<<<1024, 256, 0, stream>>>(reinterpret_cast<std::uint32_t*>(data), count, bits);
    cuda_check_launch("fill kernel launch");
}

}  // namespace gpubench
