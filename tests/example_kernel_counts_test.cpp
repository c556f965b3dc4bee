// The example kernels (examples/kernels.hpp) recorded on the host and replayed by the GPU model:
// access, request and sector counts derived by hand from each kernel's loops and the coalescing
// rules (a warp request touches the 32-byte sectors its lanes' addresses fall in), and the SpMV
// counts from the generated matrix itself.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <unistd.h>

#include "examples/example_spec.hpp"
#include "examples/host_backend.hpp"
#include "examples/record_main.hpp"
#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/gpu_presets.hpp"

namespace cachesim::examples {
namespace {

std::string temp_path(const std::string& name) {
    const auto dir = std::filesystem::temp_directory_path() / ("cachesim-examples-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    return (dir / name).string();
}

struct Recorded {
    std::uint64_t accesses;
    GpuResult replay;
};

Recorded record_and_replay(const std::string& spec_text) {
    const ExampleSpec spec = parse_example_spec(spec_text);
    const std::string path = temp_path(example_trace_name(spec));
    HostBackend backend;
    const std::uint64_t accesses = record_example(spec, path, backend);
    GpuConfig config = find_gpu_preset("h200")->config;
    const Dim3 b = example_block(spec);
    config.block = b.x * b.y * b.z;
    return {accesses, simulate_gpu_trace(path, config)};
}

// 64 x 96 floats, tiles of 32 x 32 in blocks of 32 x 8: 2 x 3 blocks of 8 warps. Each thread
// loads 4 elements and stores 4: 2 accesses per element. A warp's load reads 32 floats of one
// row of `in` (rows 256 B, tiles 128 B aligned): 4 sectors; its store writes 32 floats of a row
// of `out` (96 floats, 384 B = 3 lines, aligned): 4 sectors.
TEST(ExampleKernelCounts, TiledTransposeIsTwoAccessesPerElement) {
    const Recorded r = record_and_replay("transpose_tiled:64x96");
    EXPECT_EQ(r.accesses, 2u * 64 * 96);
    EXPECT_EQ(r.replay.result.reads, 64u * 96);
    EXPECT_EQ(r.replay.result.writes, 64u * 96);
    EXPECT_EQ(r.replay.blocks, 6u);
    EXPECT_EQ(r.replay.warps, 48u);
    EXPECT_EQ(r.replay.load_requests, 48u * 4);
    EXPECT_EQ(r.replay.load_sectors, 48u * 4 * 4);
    EXPECT_EQ(r.replay.store_requests, 48u * 4);
    EXPECT_EQ(r.replay.store_sectors, 48u * 4 * 4);
}

// 64 x 8 x 4 points in blocks of 32 x 4 x 2: 2048 threads, 7 loads and a store each. A warp is
// 32 consecutive x at one (y, z), starting at x 0 or 32. Centre, north, south, below and above
// read a whole aligned 128 B row (clamped rows are the centre row): 4 sectors each. West reads
// floats x0-1 .. x0+30 (x 0 clamped to itself): 4 sectors at x0 = 0, 5 at x0 = 32; east reads
// x0+1 .. x0+32 (x 63 clamped): 5 sectors at x0 = 0, 4 at x0 = 32. 32 pairs of warps.
TEST(ExampleKernelCounts, Stencil3dSevenLoadsPerPoint) {
    const Recorded r = record_and_replay("stencil3d:64x8x4");
    EXPECT_EQ(r.accesses, 2048u * 8);
    EXPECT_EQ(r.replay.result.reads, 2048u * 7);
    EXPECT_EQ(r.replay.result.writes, 2048u);
    EXPECT_EQ(r.replay.warps, 64u);
    EXPECT_EQ(r.replay.load_requests, 64u * 7);
    EXPECT_EQ(r.replay.load_sectors, 32u * (2 * 4 + 4 + 5 + 5 + 4 + 4 * 2 * 4));
    EXPECT_EQ(r.replay.store_requests, 64u);
    EXPECT_EQ(r.replay.store_sectors, 64u * 4);
}

// C (64 x 96) = A (64 x 128) B (128 x 96): 6144 threads in 6 blocks of 32 x 32; each thread
// loads one element of A and one of B per 32-wide step (128 / 32 = 4 steps): 8 loads, 1 store.
// A warp (one row of the block) reads 32 consecutive floats of A and of B, 128 B aligned
// (rows of 512 B and 384 B): 4 sectors per request.
TEST(ExampleKernelCounts, TiledGemmLoadsTwoTileElementsPerStep) {
    for (const char* spec : {"gemm:64x96x128:rowmajor", "gemm:64x96x128:grouped:2"}) {
        SCOPED_TRACE(spec);
        const Recorded r = record_and_replay(spec);
        EXPECT_EQ(r.accesses, 6144u * (2 * 128 / 32 + 1));
        EXPECT_EQ(r.replay.result.reads, 6144u * 8);
        EXPECT_EQ(r.replay.result.writes, 6144u);
        EXPECT_EQ(r.replay.blocks, 6u);
        EXPECT_EQ(r.replay.load_requests, 192u * 8);
        EXPECT_EQ(r.replay.load_sectors, 192u * 8 * 4);
        EXPECT_EQ(r.replay.store_requests, 192u);
        EXPECT_EQ(r.replay.store_sectors, 192u * 4);
        EXPECT_EQ(r.replay.ncu.dram_bytes_read, 4u * (64 * 128 + 128 * 96));  // each input read once from DRAM
    }
}

// Thread r loads row_begin[r] and row_begin[r + 1], then column, value and x per nonzero, and
// stores y[r]. A warp issues the two bounds, then three loads per step up to its longest row
// (a lane whose row has ended sits out): 2 + 3 * max nonzeros requests.
TEST(ExampleKernelCounts, SpmvFollowsTheGeneratedMatrix) {
    const std::uint32_t rows = 1000;
    const SparseMatrix m = generate_sparse_matrix(rows, 1);
    std::uint64_t nonzeros = 0, requests = 0;
    for (std::uint32_t r = 0; r < rows; ++r) {
        const std::uint32_t n = m.row_begin[r + 1] - m.row_begin[r];
        EXPECT_EQ(n, kSparseBand + sparse_random_count(r, 1));
        EXPECT_GE(n, 12u);
        EXPECT_LE(n, 20u);
        nonzeros += n;
    }
    std::uint64_t store_requests = 0;
    for (std::uint32_t w = 0; w * 32 < rows; ++w) {
        std::uint32_t longest = 0;
        std::set<std::uint32_t> lengths;
        for (std::uint32_t r = w * 32; r < std::min(rows, w * 32 + 32); ++r) {
            longest = std::max(longest, m.row_begin[r + 1] - m.row_begin[r]);
            lengths.insert(m.row_begin[r + 1] - m.row_begin[r]);
        }
        requests += 2 + 3 * longest;
        store_requests += lengths.size();
    }
    EXPECT_NEAR(static_cast<double>(nonzeros) / rows, 16.0, 0.5);
    const Recorded r = record_and_replay("spmv:1000");
    EXPECT_EQ(r.accesses, 2u * rows + 3 * nonzeros + rows);
    EXPECT_EQ(r.replay.result.reads, 2u * rows + 3 * nonzeros);
    EXPECT_EQ(r.replay.result.writes, rows);
    EXPECT_EQ(r.replay.load_requests, requests);
    // The chip stores y once per warp after the loop; a recording numbers each thread's accesses,
    // so the model issues a warp's store once per distinct row length among its lanes (the store
    // is its lanes' (2 + 3n)-th access). Stores are not among the counters compared with the chip.
    EXPECT_EQ(r.replay.store_requests, store_requests);
}

// Another seed is another matrix, the same seed the same one.
TEST(ExampleKernelCounts, SparseMatrixIsDeterministicInItsSeed) {
    const SparseMatrix a = generate_sparse_matrix(500, 7), b = generate_sparse_matrix(500, 7),
                       c = generate_sparse_matrix(500, 8);
    EXPECT_EQ(a.columns, b.columns);
    EXPECT_NE(a.columns, c.columns);
    for (std::uint32_t r = 0; r < 500; ++r) {  // the band: columns r-2 .. r+2 (wrapped) are all there
        const auto first = a.columns.begin() + a.row_begin[r], last = a.columns.begin() + a.row_begin[r + 1];
        EXPECT_TRUE(std::is_sorted(first, last));
        for (std::uint32_t d = 0; d < 5; ++d)
            EXPECT_NE(std::find(first, last, (r + 500 + d - 2) % 500), last) << "row " << r;
    }
}

TEST(ExampleKernelCounts, BadSpecsAreRefusedWithTheirReason) {
    for (const auto& [text, reason] : std::vector<std::pair<std::string, std::string>>{
             {"gemm:33x32x32:rowmajor", "multiples of 32"},
             {"gemm:32x32x32:zigzag", "rowmajor or grouped:G"},
             {"gemm:32x32x32:grouped:0", "group"},
             {"stencil3d:8x8", "3 numbers"},
             {"spmv:100:seed", "seed=S"},
             {"spmv:-4", "rows"},
             {"fft:64", "unknown kernel"}}) {
        try {
            parse_example_spec(text);
            ADD_FAILURE() << text << " was accepted";
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(reason), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find("'" + text + "'"), std::string::npos) << e.what();
        }
    }
}

}  // namespace
}  // namespace cachesim::examples
