#pragma once
// Misses recorded beside a diagram's cell grid, in counts rather than states, so that a picture of
// a long run can say how many misses a pixel holds (miss density) and how the miss rate of each
// cache level changes over time. Both are plain data: any renderer (the PNG, the GUI) reads them.
//
// Steps and rows are relative to the diagram's first recorded step and row.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "viz/row_buckets.hpp"

namespace cachesim::viz {

// L1 fetches (cells whose state is "fetched from L2" or "fetched from memory") per block of
// steps_per_column() steps x a bucket of rows_per_bucket() lines of one array (row_buckets.hpp),
// one 32-bit count each. At most `max_cells` blocks: when a run outgrows them, pairs of columns
// are merged (steps_per_column doubles).
class MissCounts {
public:
    MissCounts() = default;
    // The lines [first_row, first_row + rows) of `layout`; min_rows_per_bucket: the cell grid's
    // (counts are never finer, and their buckets start where the grid's do).
    MissCounts(const RowLayout& layout, std::uint64_t first_row, std::uint64_t rows, std::uint64_t min_rows_per_bucket,
               std::uint64_t max_rows, std::uint64_t max_cells, std::uint64_t expected_steps);

    void add(std::uint64_t step, std::uint64_t row);
    // Steps recorded (1 + the last step added or marked by end_step).
    void end_step(std::uint64_t step) { steps_ = std::max(steps_, step + 1); }

    std::uint64_t steps_per_column() const { return steps_per_column_; }
    std::uint64_t rows_per_bucket() const { return row_buckets_.rows_per_bucket(); }
    const RowBuckets& row_buckets() const { return row_buckets_; }
    std::uint64_t columns() const { return columns_; }
    std::uint64_t buckets() const { return buckets_; }
    std::uint64_t rows() const { return row_buckets_.rows(); }
    std::uint64_t steps() const { return steps_; }
    std::uint64_t at(std::uint64_t column, std::uint64_t bucket) const {
        return column < columns_ ? counts_[column * buckets_ + bucket] : 0;
    }
    std::size_t bytes() const { return counts_.size() * sizeof(std::uint32_t); }

    // Fetches in steps [t0, t1) x rows [r0, r1), both rounded outwards to whole blocks, and the
    // (step x line) cells those blocks cover within the recording: misses / cells is the density.
    struct Sum {
        std::uint64_t misses = 0;
        std::uint64_t cells = 0;
    };
    Sum sum(std::uint64_t t0, std::uint64_t t1, std::uint64_t r0, std::uint64_t r1) const;
    // The blocks sum() adds up: columns [c0, c1) (c1 at most columns()), buckets [b0, b1), and the
    // cells they cover (empty when the range is).
    struct Blocks {
        std::uint64_t c0 = 0, c1 = 0, b0 = 0, b1 = 0, cells = 0;
    };
    Blocks blocks(std::uint64_t t0, std::uint64_t t1, std::uint64_t r0, std::uint64_t r1) const;

private:
    void halve_columns();
    RowBuckets row_buckets_;
    std::uint64_t buckets_ = 1;  // one (empty) bucket even without rows
    std::uint64_t steps_per_column_ = 1, columns_ = 0, max_columns_ = 1, steps_ = 0;
    std::vector<std::uint32_t> counts_;  // column-major
};

// Lookups and misses of one cache level per block of steps (steps_per_bucket()), at most
// `max_buckets` blocks (pairs merge as the run grows).
class MissRateSeries {
public:
    MissRateSeries() = default;
    MissRateSeries(std::string name, std::uint64_t max_buckets, std::uint64_t expected_steps);

    void add(std::uint64_t step, std::uint64_t lookups, std::uint64_t misses);
    const std::string& name() const { return name_; }
    std::uint64_t steps_per_bucket() const { return steps_per_bucket_; }
    std::uint64_t buckets() const { return lookups_.size(); }
    std::uint64_t lookups(std::uint64_t bucket) const { return bucket < lookups_.size() ? lookups_[bucket] : 0; }
    std::uint64_t misses(std::uint64_t bucket) const { return bucket < misses_.size() ? misses_[bucket] : 0; }

    struct Sum {
        std::uint64_t lookups = 0;
        std::uint64_t misses = 0;
        double rate() const { return lookups ? static_cast<double>(misses) / static_cast<double>(lookups) : 0.0; }
    };
    // Over steps [t0, t1), rounded outwards to whole blocks.
    Sum sum(std::uint64_t t0, std::uint64_t t1) const;

private:
    std::string name_;
    std::uint64_t steps_per_bucket_ = 1, max_buckets_ = 1;
    std::vector<std::uint64_t> lookups_, misses_;
};

}  // namespace cachesim::viz
