#include "viz/miss_record.hpp"

#include <algorithm>
#include <limits>
#include <tuple>
#include <utility>

#include "viz/grid_shape.hpp"

namespace cachesim::viz {

MissCounts::MissCounts(const RowLayout& layout, std::uint64_t first_row, std::uint64_t rows,
                       std::uint64_t min_rows_per_bucket, std::uint64_t max_rows, std::uint64_t max_cells,
                       std::uint64_t expected_steps) {
    GridShape shape = grid_shape(layout, first_row, rows, min_rows_per_bucket, max_rows, max_cells, expected_steps);
    row_buckets_ = std::move(shape.rows);
    buckets_ = std::max<std::uint64_t>(1, row_buckets_.buckets());
    max_columns_ = shape.max_columns;
    steps_per_column_ = shape.steps_per_column;
}

void MissCounts::halve_columns() {
    const std::uint64_t out = (columns_ + 1) / 2;
    for (std::uint64_t k = 0; k < out; ++k)
        for (std::uint64_t b = 0; b < buckets_; ++b) {
            std::uint64_t v = counts_[2 * k * buckets_ + b];
            if (2 * k + 1 < columns_) v += counts_[(2 * k + 1) * buckets_ + b];
            counts_[k * buckets_ + b] = static_cast<std::uint32_t>(std::min<std::uint64_t>(v, std::numeric_limits<std::uint32_t>::max()));
        }
    columns_ = out;
    counts_.resize(columns_ * buckets_);
    steps_per_column_ *= 2;
}

void MissCounts::add(std::uint64_t step, std::uint64_t row) {
    const std::uint64_t bucket = row_buckets_.bucket_of(row);
    if (bucket == kNoRow) return;
    end_step(step);
    while (step / steps_per_column_ >= max_columns_) halve_columns();
    const std::uint64_t c = step / steps_per_column_;
    if (c >= columns_) {
        columns_ = c + 1;
        counts_.resize(columns_ * buckets_, 0);
    }
    std::uint32_t& v = counts_[c * buckets_ + bucket];
    if (v != std::numeric_limits<std::uint32_t>::max()) ++v;
}

MissCounts::Blocks MissCounts::blocks(std::uint64_t t0, std::uint64_t t1, std::uint64_t r0, std::uint64_t r1) const {
    Blocks k;
    t1 = std::min(t1, steps_);
    r1 = std::min(r1, rows());
    if (t0 >= t1 || r0 >= r1) return k;
    const std::uint64_t c0 = t0 / steps_per_column_, c1 = ceil_div(t1, steps_per_column_);
    k.c0 = c0;
    k.c1 = std::min(c1, columns_);
    std::tie(k.b0, k.b1) = row_buckets_.buckets_of(r0, r1);
    const auto [b_first_row, b_end_row] = row_buckets_.rows_of(k.b0, k.b1);
    const std::uint64_t steps = std::min(c1 * steps_per_column_, steps_) - c0 * steps_per_column_;
    k.cells = steps * (b_end_row - b_first_row);
    return k;
}

MissCounts::Sum MissCounts::sum(std::uint64_t t0, std::uint64_t t1, std::uint64_t r0, std::uint64_t r1) const {
    Sum s;
    const Blocks k = blocks(t0, t1, r0, r1);
    for (std::uint64_t c = k.c0; c < k.c1; ++c)
        for (std::uint64_t b = k.b0; b < k.b1; ++b) s.misses += counts_[c * buckets_ + b];
    s.cells = k.cells;
    return s;
}

MissRateSeries::MissRateSeries(std::string name, std::uint64_t max_buckets, std::uint64_t expected_steps)
    : name_(std::move(name)), max_buckets_(std::max<std::uint64_t>(1, max_buckets)) {
    if (expected_steps > 0) steps_per_bucket_ = power_of_two_bucket(expected_steps, max_buckets_);
}

void MissRateSeries::add(std::uint64_t step, std::uint64_t lookups, std::uint64_t misses) {
    while (step / steps_per_bucket_ >= max_buckets_) {
        const std::size_t out = (lookups_.size() + 1) / 2;
        for (std::size_t k = 0; k < out; ++k) {
            const bool pair = 2 * k + 1 < lookups_.size();
            lookups_[k] = lookups_[2 * k] + (pair ? lookups_[2 * k + 1] : 0);
            misses_[k] = misses_[2 * k] + (pair ? misses_[2 * k + 1] : 0);
        }
        lookups_.resize(out);
        misses_.resize(out);
        steps_per_bucket_ *= 2;
    }
    const std::uint64_t b = step / steps_per_bucket_;
    if (b >= lookups_.size()) {
        lookups_.resize(b + 1, 0);
        misses_.resize(b + 1, 0);
    }
    lookups_[b] += lookups;
    misses_[b] += misses;
}

MissRateSeries::Sum MissRateSeries::sum(std::uint64_t t0, std::uint64_t t1) const {
    Sum s;
    if (t1 <= t0) return s;
    const std::uint64_t b1 = std::min<std::uint64_t>(ceil_div(t1, steps_per_bucket_), lookups_.size());
    for (std::uint64_t b = t0 / steps_per_bucket_; b < b1; ++b) {
        s.lookups += lookups_[b];
        s.misses += misses_[b];
    }
    return s;
}

}  // namespace cachesim::viz
