// The tiled GEMM's block orders (examples/kernels.hpp, gemm_tile_of_block): row-major and
// grouped (Triton's GROUP_M) visit every output tile exactly once, in the order worked out by
// hand, and the recorded launch's blocks really compute the tiles that order gives.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <unistd.h>
#include <utility>
#include <vector>

#include "examples/example_spec.hpp"
#include "examples/host_backend.hpp"
#include "examples/record_main.hpp"
#include "traces/trace_format_reader.hpp"

namespace cachesim::examples {
namespace {

std::vector<std::pair<std::uint32_t, std::uint32_t>> order(std::uint32_t tiles_m, std::uint32_t tiles_n, std::uint32_t group) {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> tiles;
    for (std::uint64_t b = 0; b < static_cast<std::uint64_t>(tiles_m) * tiles_n; ++b) {
        const TileCoord t = gemm_tile_of_block(b, tiles_m, tiles_n, group);
        tiles.emplace_back(t.m, t.n);
    }
    return tiles;
}

// 5 x 3 tiles, groups of 2 tile rows: blocks 0-5 go down rows 0-1 column by column, 6-11 rows
// 2-3, and the last group holds row 4 alone.
TEST(GemmBlockOrder, GroupedOrderOfASmallGrid) {
    const std::vector<std::pair<std::uint32_t, std::uint32_t>> expected{
        {0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}, {1, 2}, {2, 0}, {3, 0}, {2, 1}, {3, 1}, {2, 2}, {3, 2},
        {4, 0}, {4, 1}, {4, 2}};
    EXPECT_EQ(order(5, 3, 2), expected);
}

TEST(GemmBlockOrder, RowMajorWalksAlongRows) {
    const std::vector<std::pair<std::uint32_t, std::uint32_t>> expected{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}};
    EXPECT_EQ(order(2, 3, 0), expected);
}

TEST(GemmBlockOrder, EveryTileExactlyOnce) {
    for (const auto& [m, n, g] : std::vector<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>>{
             {7, 5, 3}, {8, 8, 8}, {1, 4, 8}, {64, 64, 8}, {9, 2, 4}, {3, 3, 1}, {6, 4, 0}}) {
        const auto tiles = order(m, n, g);
        const std::set<std::pair<std::uint32_t, std::uint32_t>> distinct(tiles.begin(), tiles.end());
        EXPECT_EQ(distinct.size(), static_cast<std::size_t>(m) * n) << m << "x" << n << " group " << g;
        for (const auto& [tm, tn] : tiles) {
            EXPECT_LT(tm, m);
            EXPECT_LT(tn, n);
        }
    }
}

// gemm:96x64x32:grouped:2 (3 x 2 tiles of C): block b's thread 0 first loads A[32 m][0] and then
// B[0][32 n] for its tile (m, n). Arrays are placed from 0 at 4 KiB multiples: A (96 x 32
// floats, 12 KiB) at 0, B (32 x 64, 8 KiB) at 12 KiB.
TEST(GemmBlockOrder, RecordedBlocksComputeTheirTiles) {
    const ExampleSpec spec = parse_example_spec("gemm:96x64x32:grouped:2");
    const auto dir = std::filesystem::temp_directory_path() / ("cachesim-gemm-order-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "g.cst").string();
    HostBackend backend;
    record_example(spec, path, backend);
    const std::vector<std::pair<std::uint32_t, std::uint32_t>> expected{{0, 0}, {1, 0}, {0, 1}, {1, 1}, {2, 0}, {2, 1}};
    cst::TraceFileSource source(path);
    cst::ThreadBatch batch;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> first_loads;  // per block: thread 0's A and B addresses
    while (source.next_threads(batch))
        for (std::size_t i = 0; i < batch.threads.size(); ++i)
            if (batch.threads[i] % 1024 == 0)
                first_loads.emplace_back(batch.accesses[batch.first[i]].address, batch.accesses[batch.first[i] + 1].address);
    ASSERT_EQ(first_loads.size(), expected.size());
    for (std::size_t b = 0; b < expected.size(); ++b) {
        EXPECT_EQ(first_loads[b].first, expected[b].first * 32u * 32 * 4) << "block " << b;
        EXPECT_EQ(first_loads[b].second, 12288u + expected[b].second * 32u * 4) << "block " << b;
    }
}

}  // namespace
}  // namespace cachesim::examples
