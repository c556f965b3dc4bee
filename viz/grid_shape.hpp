#pragma once
// How a recording's grid of (steps x rows) is cut into blocks, shared by the cell grid
// (DiagramRecorder) and the miss counts beside it (MissCounts): rows in power-of-two buckets
// within max_rows, each array's lines starting a bucket (row_buckets.hpp), and as many columns as
// max_cells leaves, each a power of two of steps, so that pairs of columns can merge as a run
// outgrows its expected length.
#include <algorithm>
#include <cstdint>

#include "viz/row_buckets.hpp"

namespace cachesim::viz {

constexpr std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

// Smallest power of two p with ceil(n / p) <= limit (a limit of 0 counts as 1).
constexpr std::uint64_t power_of_two_bucket(std::uint64_t n, std::uint64_t limit) {
    std::uint64_t p = 1;
    limit = std::max<std::uint64_t>(limit, 1);
    while (ceil_div(n, p) > limit) p *= 2;
    return p;
}

struct GridShape {
    RowBuckets rows;  // no bucket when there are no rows
    std::uint64_t max_columns = 1;
    std::uint64_t steps_per_column = 1;
};

// The rows [first_row, first_row + rows) of `layout`; min_rows_per_bucket: never finer than that;
// expected_steps: 0 when unknown (one step per column until the run outgrows max_columns).
// Buckets restart at each array, so there may be a few more than max_rows.
inline GridShape grid_shape(const RowLayout& layout, std::uint64_t first_row, std::uint64_t rows,
                            std::uint64_t min_rows_per_bucket, std::uint64_t max_rows, std::uint64_t max_cells,
                            std::uint64_t expected_steps) {
    GridShape g;
    const std::uint64_t rows_per_bucket = std::max(min_rows_per_bucket, power_of_two_bucket(rows, max_rows));
    g.rows = RowBuckets(layout, first_row, rows, rows_per_bucket);
    g.max_columns = std::max<std::uint64_t>(1, max_cells / std::max<std::uint64_t>(g.rows.buckets(), 1));
    if (expected_steps > 0) g.steps_per_column = power_of_two_bucket(expected_steps, g.max_columns);
    return g;
}

}  // namespace cachesim::viz
