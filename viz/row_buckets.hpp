#pragma once
// How a recording's rows (cache lines) share base rows when there are more lines than rows: in
// buckets of rows_per_bucket lines that never span two arrays. Each array's lines start a bucket
// of their own, so a coarse cell holds one array's lines and a picture that draws arrays as
// separate bands never shows one array's states in another's band. The last bucket of an array
// may hold fewer lines.
//
// Rows are relative to the recording's first row (a window of lines starts mid-array: its first
// bucket starts there).
#include <cstdint>
#include <utility>
#include <vector>

#include "viz/row_layout.hpp"

namespace cachesim::viz {

class RowBuckets {
public:
    // A run of rows bucketed evenly: the part of one array within the recording.
    struct Segment {
        std::uint64_t first_row = 0;  // relative
        std::uint64_t rows = 0;
        std::uint64_t first_bucket = 0;
        std::uint64_t buckets = 0;
    };

    RowBuckets() = default;
    // The rows [first_row, first_row + rows) of `layout`, cut per array.
    RowBuckets(const RowLayout& layout, std::uint64_t first_row, std::uint64_t rows, std::uint64_t rows_per_bucket);
    // `rows` rows with no arrays to respect (one segment).
    RowBuckets(std::uint64_t rows, std::uint64_t rows_per_bucket);

    std::uint64_t rows_per_bucket() const { return rows_per_bucket_; }
    std::uint64_t rows() const { return rows_; }
    std::uint64_t buckets() const { return buckets_; }
    const std::vector<Segment>& segments() const { return segments_; }

    // The bucket of relative row `row`; kNoRow past the last row.
    std::uint64_t bucket_of(std::uint64_t row) const {
        if (row >= rows_) return kNoRow;
        // Few segments (one per array): a scan from the first is cheap and predictable.
        const Segment* s = segments_.data();
        while (row - s->first_row >= s->rows) ++s;
        return s->first_bucket + (row - s->first_row) / rows_per_bucket_;
    }
    // The buckets [b0, b1) holding relative rows [r0, r1) (clipped to the rows; empty when the
    // range is).
    std::pair<std::uint64_t, std::uint64_t> buckets_of(std::uint64_t r0, std::uint64_t r1) const;
    // The relative rows [r0, r1) that buckets [b0, b1) hold (clipped to the buckets).
    std::pair<std::uint64_t, std::uint64_t> rows_of(std::uint64_t b0, std::uint64_t b1) const;
    // The segment holding bucket `b` (b < buckets()).
    const Segment& segment_of_bucket(std::uint64_t b) const;

private:
    void add_segment(std::uint64_t first_row, std::uint64_t rows);

    std::uint64_t rows_per_bucket_ = 1, rows_ = 0, buckets_ = 0;
    std::vector<Segment> segments_;
};

}  // namespace cachesim::viz
