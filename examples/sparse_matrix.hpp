#pragma once
// The SpMV example's matrix: deterministic from (rows, seed), the same on every machine. Row r
// holds a band of 5 nonzeros (columns r-2 .. r+2, wrapped around the matrix) and 7 to 15 more at
// random columns (splitmix64 of the seed and the row), sorted by column (a column may repeat):
// 12 to 20 nonzeros per row, 16 on average. Square: x has as many elements as there are rows.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace cachesim::examples {

constexpr std::uint64_t splitmix64(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

inline constexpr std::uint32_t kSparseBand = 5;
inline constexpr std::uint32_t kSparseRandomMin = 7, kSparseRandomMax = 15;

// How many random-column nonzeros row r has (kSparseRandomMin .. kSparseRandomMax).
constexpr std::uint32_t sparse_random_count(std::uint64_t row, std::uint64_t seed) {
    return kSparseRandomMin +
           static_cast<std::uint32_t>(splitmix64(seed ^ (row * 0xd1b54a32d192ed03ull)) % (kSparseRandomMax - kSparseRandomMin + 1));
}

struct SparseMatrix {
    std::vector<std::uint32_t> row_begin;  // rows + 1 entries
    std::vector<std::uint32_t> columns;
};

inline SparseMatrix generate_sparse_matrix(std::uint32_t rows, std::uint64_t seed) {
    if (rows < kSparseBand) throw std::invalid_argument("the SpMV matrix needs at least 5 rows");
    SparseMatrix m;
    m.row_begin.reserve(rows + 1ull);
    m.columns.reserve(static_cast<std::size_t>(rows) * 16);
    m.row_begin.push_back(0);
    for (std::uint32_t r = 0; r < rows; ++r) {
        const std::size_t first = m.columns.size();
        for (std::uint32_t b = 0; b < kSparseBand; ++b)
            m.columns.push_back(static_cast<std::uint32_t>((static_cast<std::uint64_t>(r) + rows + b - kSparseBand / 2) % rows));
        const std::uint32_t extra = sparse_random_count(r, seed);
        for (std::uint32_t e = 0; e < extra; ++e)
            m.columns.push_back(static_cast<std::uint32_t>(
                splitmix64(seed * 0x9e3779b97f4a7c15ull + static_cast<std::uint64_t>(r) * 64 + e) % rows));
        std::sort(m.columns.begin() + static_cast<std::ptrdiff_t>(first), m.columns.end());
        if (m.columns.size() > 0xffffffffull) throw std::invalid_argument("the SpMV matrix has more than 2^32 nonzeros");
        m.row_begin.push_back(static_cast<std::uint32_t>(m.columns.size()));
    }
    return m;
}

}  // namespace cachesim::examples
