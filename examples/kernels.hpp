#pragma once
// Example kernel bodies recorded with traces/recorder.hpp: one body each, run on the GPU by
// record_kernel_cuda and on the host by record_kernel_host (same trace bytes), and, with
// PlainAccess for the recorder, as the kernel gpubench measures (examples/example_launch.cuh).
//
// Bodies that stage data in shared memory take a third argument, the block's shared tiles
// (kSharedTiles of them, 32 x 33 floats each): at(tile, row, col) and sync(). On the GPU that is
// __shared__ memory and __syncthreads(); in a recording (NoSharedMemory) each thread runs alone,
// so the tiles hold nothing and the arithmetic on them is skipped: only global accesses are
// recorded, and none of these bodies' addresses depends on a value read from a tile.
#include <cstdint>

#include "traces/recorder.hpp"

namespace cachesim::examples {

// The naive transpose: out[x][y] = in[y][x], one thread per element, 2D blocks. Reads coalesce
// along a row of `in`; the writes of a warp scatter down a column of `out`.
struct Transpose {
    const float* in;
    float* out;
    std::uint32_t width, height;  // of `in`

    template <class Rec>
    CACHESIM_HD void operator()(const ThreadIndex& t, Rec& rec) const {
        const std::uint32_t x = t.block.x * t.block_dim.x + t.thread.x;
        const std::uint32_t y = t.block.y * t.block_dim.y + t.thread.y;
        if (x >= width || y >= height) return;
        traced<const float, Rec> a(in, rec);
        traced<float, Rec> b(out, rec);
        b[static_cast<std::uint64_t>(x) * height + y] = static_cast<float>(a[static_cast<std::uint64_t>(y) * width + x]);
    }
};

// The thesis's box stencil (StencilWorkload, linear schedule): a 1D launch, thread i computes
// out[i] from the sw x sh box around in[i] (rows outer, columns inner, edges clamped).
struct BoxStencil {
    const float* in;
    float* out;
    std::uint32_t width, height, sw, sh;

    template <class Rec>
    CACHESIM_HD void operator()(const ThreadIndex& t, Rec& rec) const {
        const std::uint64_t i = t.global();
        if (i >= static_cast<std::uint64_t>(width) * height) return;
        const std::int64_t x = static_cast<std::int64_t>(i % width), y = static_cast<std::int64_t>(i / width);
        float sum = 0;
        for (std::uint32_t r = 0; r < sh; ++r) {
            std::int64_t cy = y + r - sh / 2;
            cy = cy < 0 ? 0 : (cy >= height ? height - 1 : cy);
            for (std::uint32_t c = 0; c < sw; ++c) {
                std::int64_t cx = x + c - sw / 2;
                cx = cx < 0 ? 0 : (cx >= width ? width - 1 : cx);
                sum += rec.load(&in[cy * width + cx]);
            }
        }
        rec.store(&out[i], sum / static_cast<float>(sw * sh));
    }
};

// The shared tiles of a recording: every thread runs alone, so a tile holds nothing.
struct NoSharedMemory {
    static constexpr bool kHoldsData = false;
    float scratch = 0;
    CACHESIM_HD float& at(std::uint32_t, std::uint32_t, std::uint32_t) { return scratch; }
    CACHESIM_HD void sync() {}
};

// A body that takes shared tiles, callable as the recorder calls bodies: (thread, recorder).
template <class Body>
struct WithoutSharedMemory {
    Body body;
    template <class Rec>
    CACHESIM_HD void operator()(const ThreadIndex& t, Rec& rec) const {
        NoSharedMemory shared;
        body(t, rec, shared);
    }
};

inline constexpr std::uint32_t kTile = 32;  // the tiled kernels' tile edge (shared tiles are 32 x 33)

// The shared-memory transpose (32 x 32 tile padded to 33 columns, so the column reads of the
// second phase hit 32 different banks): blocks of 32 x 8 threads, each thread loads four
// elements of a 32 x 32 tile of `in` (rows ty, ty+8, ty+16, ty+24), the block syncs, and each
// thread stores four elements of the transposed tile. Loads and stores both coalesce along
// rows: two global accesses per element, 4 sectors per warp request.
struct TransposeTiled {
    static constexpr std::uint32_t kSharedTiles = 1;
    static constexpr std::uint32_t kBlockRows = 8;
    const float* in;
    float* out;
    std::uint32_t width, height;  // of `in`

    template <class Rec, class Shared>
    CACHESIM_HD void operator()(const ThreadIndex& t, Rec& rec, Shared& shared) const {
        std::uint32_t x = t.block.x * kTile + t.thread.x;
        std::uint32_t y = t.block.y * kTile + t.thread.y;
        for (std::uint32_t j = 0; j < kTile; j += kBlockRows)
            if (x < width && y + j < height)
                shared.at(0, t.thread.y + j, t.thread.x) = rec.load(&in[static_cast<std::uint64_t>(y + j) * width + x]);
        shared.sync();
        x = t.block.y * kTile + t.thread.x;  // `out` is height wide and width tall
        y = t.block.x * kTile + t.thread.y;
        for (std::uint32_t j = 0; j < kTile; j += kBlockRows)
            if (x < height && y + j < width)
                rec.store(&out[static_cast<std::uint64_t>(y + j) * height + x], shared.at(0, t.thread.x, t.thread.y + j));
    }
};

// The 3D 7-point stencil on a width x height x depth grid (x fastest), edges clamped: 3D blocks
// (32 x 4 x 2 in examples/example_spec.hpp), thread (x, y, z) loads its point and its six
// neighbours (centre, x-1, x+1, y-1, y+1, z-1, z+1) and stores one point.
struct Stencil3d {
    const float* in;
    float* out;
    std::uint32_t width, height, depth;

    template <class Rec>
    CACHESIM_HD void operator()(const ThreadIndex& t, Rec& rec) const {
        const std::uint32_t x = t.block.x * t.block_dim.x + t.thread.x;
        const std::uint32_t y = t.block.y * t.block_dim.y + t.thread.y;
        const std::uint32_t z = t.block.z * t.block_dim.z + t.thread.z;
        if (x >= width || y >= height || z >= depth) return;
        const std::uint64_t row = width, plane = static_cast<std::uint64_t>(width) * height;
        const std::uint64_t i = z * plane + y * row + x;
        const float centre = rec.load(&in[i]);
        const float west = rec.load(&in[i - (x > 0 ? 1 : 0)]);
        const float east = rec.load(&in[i + (x + 1 < width ? 1 : 0)]);
        const float north = rec.load(&in[i - (y > 0 ? row : 0)]);
        const float south = rec.load(&in[i + (y + 1 < height ? row : 0)]);
        const float below = rec.load(&in[i - (z > 0 ? plane : 0)]);
        const float above = rec.load(&in[i + (z + 1 < depth ? plane : 0)]);
        rec.store(&out[i], 0.4f * centre + 0.1f * (west + east + north + south + below + above));
    }
};

// Which output tile the `block`-th block (launch order) computes, of a grid of tiles_m x tiles_n.
// group_m 0: row-major (consecutive blocks walk along a row of C). group_m G: grouped order
// (Triton's GROUP_M, CUTLASS's swizzle): consecutive blocks go down a G-tall strip of C's tile
// rows first, so the blocks resident together share fewer rows of A and columns of B at a time.
struct TileCoord {
    std::uint32_t m, n;
};
CACHESIM_HD TileCoord gemm_tile_of_block(std::uint64_t block, std::uint32_t tiles_m, std::uint32_t tiles_n,
                                         std::uint32_t group_m) {
    if (group_m == 0) return {static_cast<std::uint32_t>(block / tiles_n), static_cast<std::uint32_t>(block % tiles_n)};
    const std::uint64_t per_group = static_cast<std::uint64_t>(group_m) * tiles_n;
    const std::uint32_t first_m = static_cast<std::uint32_t>(block / per_group) * group_m;
    const std::uint32_t group_size = tiles_m - first_m < group_m ? tiles_m - first_m : group_m;
    const std::uint64_t in_group = block % per_group;
    return {first_m + static_cast<std::uint32_t>(in_group % group_size), static_cast<std::uint32_t>(in_group / group_size)};
}

// The shared-memory tiled GEMM, C = A B (A m x k, B k x n, row-major floats; m, n, k multiples of
// 32): a 1D launch of 32 x 32-thread blocks, block b computes the C tile gemm_tile_of_block(b);
// for each of the k/32 steps each thread loads one element of A's tile and one of B's into shared
// memory, the block syncs and multiplies the tiles. 2k/32 loads and one store per thread.
struct TiledGemm {
    static constexpr std::uint32_t kSharedTiles = 2;
    const float* a;
    const float* b;
    float* c;
    std::uint32_t m, n, k;
    std::uint32_t group_m;  // 0: row-major block order

    template <class Rec, class Shared>
    CACHESIM_HD void operator()(const ThreadIndex& t, Rec& rec, Shared& shared) const {
        const TileCoord tile = gemm_tile_of_block(t.linear_block(), m / kTile, n / kTile, group_m);
        const std::uint32_t tx = t.thread.x, ty = t.thread.y;
        const std::uint64_t row = static_cast<std::uint64_t>(tile.m) * kTile + ty;
        const std::uint64_t col = static_cast<std::uint64_t>(tile.n) * kTile + tx;
        float sum = 0;
        for (std::uint32_t step = 0; step < k; step += kTile) {
            shared.at(0, ty, tx) = rec.load(&a[row * k + step + tx]);
            shared.at(1, ty, tx) = rec.load(&b[(step + ty) * static_cast<std::uint64_t>(n) + col]);
            shared.sync();
            if constexpr (Shared::kHoldsData)
                for (std::uint32_t i = 0; i < kTile; ++i) sum += shared.at(0, ty, i) * shared.at(1, i, tx);
            shared.sync();
        }
        rec.store(&c[row * n + col], sum);
    }
};

// y = A x with A in CSR (row_begin of rows + 1 entries, then columns and values), one thread per
// row in a 1D launch: the thread loads its row's two bounds, then per nonzero its column, its
// value and x at that column (irregular: wherever the column points), and stores y[row]. Rows
// differ in length, so a warp's lanes run out of nonzeros at different steps.
struct SpmvCsr {
    const std::uint32_t* row_begin;
    const std::uint32_t* columns;
    const float* values;
    const float* x;
    float* y;
    std::uint32_t rows;

    template <class Rec>
    CACHESIM_HD void operator()(const ThreadIndex& t, Rec& rec) const {
        const std::uint64_t r = t.global();
        if (r >= rows) return;
        const std::uint32_t begin = rec.load(&row_begin[r]);
        const std::uint32_t end = rec.load(&row_begin[r + 1]);
        float sum = 0;
        // One iteration per nonzero, so a warp's j-th iteration is its lanes' j-th nonzeros (as
        // the recording groups them).
#if defined(__CUDACC__)
#pragma unroll 1
#endif
        for (std::uint32_t j = begin; j < end; ++j) {
            const std::uint32_t column = rec.load(&columns[j]);
            const float value = rec.load(&values[j]);
            sum += value * rec.load(&x[column]);
        }
        rec.store(&y[r], sum);
    }
};

}  // namespace cachesim::examples
