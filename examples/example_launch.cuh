#pragma once
// Runs an example body (examples/kernels.hpp) as a real kernel, the launch gpubench measures:
// CUDA's own block and thread indices, loads and stores straight to memory (PlainAccess), and for
// bodies with shared tiles the block's __shared__ memory and __syncthreads(). Only for nvcc.
#include <cuda_runtime_api.h>

#include <cstdint>

#include "examples/example_spec.hpp"
#include "traces/recorder.hpp"

namespace cachesim::examples {

// A block's shared tiles of kTile x (kTile + 1) floats (the padding keeps column reads of a tile
// on 32 different banks).
template <std::uint32_t kTiles>
struct BlockSharedTiles {
    static constexpr bool kHoldsData = true;
    float (*tiles)[kTile][kTile + 1];
    __device__ __forceinline__ float& at(std::uint32_t tile, std::uint32_t row, std::uint32_t col) {
        return tiles[tile][row][col];
    }
    __device__ __forceinline__ void sync() { __syncthreads(); }
};

template <class Body>
__global__ void example_kernel(Body body) {
    ThreadIndex t;
    t.block = {blockIdx.x, blockIdx.y, blockIdx.z};
    t.thread = {threadIdx.x, threadIdx.y, threadIdx.z};
    t.block_dim = {blockDim.x, blockDim.y, blockDim.z};
    t.grid_dim = {gridDim.x, gridDim.y, gridDim.z};
    PlainAccess access;
    constexpr std::uint32_t tiles = shared_tiles_of<Body>::value;
    if constexpr (tiles > 0) {
        __shared__ float storage[tiles][kTile][kTile + 1];
        BlockSharedTiles<tiles> shared{storage};
        body(t, access, shared);
    } else {
        body(t, access);
    }
}

// Launches `body` with the spec's geometry on `stream` (no error check: the caller checks).
template <class Body>
void launch_example_body(const Body& body, const ExampleSpec& spec, cudaStream_t stream) {
    const Dim3 g = example_grid(spec), b = example_block(spec);
    example_kernel<Body><<<dim3(g.x, g.y, g.z), dim3(b.x, b.y, b.z), 0, stream>>>(body);
}

}  // namespace cachesim::examples
