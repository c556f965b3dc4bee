#include "viz/row_buckets.hpp"

#include <algorithm>
#include <stdexcept>

#include "viz/grid_shape.hpp"

namespace cachesim::viz {

RowBuckets::RowBuckets(const RowLayout& layout, std::uint64_t first_row, std::uint64_t rows,
                       std::uint64_t rows_per_bucket)
    : rows_per_bucket_(rows_per_bucket) {
    if (rows_per_bucket == 0) throw std::invalid_argument("RowBuckets: 0 rows per bucket");
    const std::uint64_t end = first_row + rows;
    for (const RowGroup& g : layout.groups()) {
        const std::uint64_t a = std::max(first_row, g.first_row), b = std::min(end, g.first_row + g.lines);
        if (a < b) add_segment(a - first_row, b - a);
    }
    // Rows the layout does not hold (none when `rows` is within it) form one last segment, so
    // that every relative row has a bucket.
    if (rows_ < rows) add_segment(rows_, rows - rows_);
}

RowBuckets::RowBuckets(std::uint64_t rows, std::uint64_t rows_per_bucket) : rows_per_bucket_(rows_per_bucket) {
    if (rows_per_bucket == 0) throw std::invalid_argument("RowBuckets: 0 rows per bucket");
    if (rows > 0) add_segment(0, rows);
}

void RowBuckets::add_segment(std::uint64_t first_row, std::uint64_t rows) {
    const std::uint64_t n = ceil_div(rows, rows_per_bucket_);
    segments_.push_back({first_row, rows, buckets_, n});
    rows_ = first_row + rows;
    buckets_ += n;
}

std::pair<std::uint64_t, std::uint64_t> RowBuckets::buckets_of(std::uint64_t r0, std::uint64_t r1) const {
    r1 = std::min(r1, rows_);
    if (r0 >= r1) return {0, 0};
    return {bucket_of(r0), bucket_of(r1 - 1) + 1};
}

const RowBuckets::Segment& RowBuckets::segment_of_bucket(std::uint64_t b) const {
    // The last segment whose first bucket is at most b.
    const auto it = std::upper_bound(segments_.begin(), segments_.end(), b,
                                     [](std::uint64_t v, const Segment& s) { return v < s.first_bucket; });
    return *(it - 1);
}

std::pair<std::uint64_t, std::uint64_t> RowBuckets::rows_of(std::uint64_t b0, std::uint64_t b1) const {
    b1 = std::min(b1, buckets_);
    if (b0 >= b1) return {0, 0};
    const Segment& first = segment_of_bucket(b0);
    const Segment& last = segment_of_bucket(b1 - 1);
    const std::uint64_t r0 = first.first_row + (b0 - first.first_bucket) * rows_per_bucket_;
    const std::uint64_t r1 = std::min(last.first_row + (b1 - last.first_bucket) * rows_per_bucket_, last.first_row + last.rows);
    return {r0, r1};
}

}  // namespace cachesim::viz
