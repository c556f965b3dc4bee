#pragma once
// A recorded spatial-temporal diagram: a grid of cell states (columns = time, rows = cache lines)
// at a base resolution, plus a multi-resolution pyramid (a "ripmap": every combination of
// halving the time axis i times and the row axis j times) so any zoom reads at most a few cells
// per pixel.
//
// Memory: the base grid holds at most `max_cells` cells (4 bits each); when a run has more
// steps x rows than that, several steps share a base column (steps_per_column, a power of two)
// and, above `max_rows` rows, several lines of one array share a base row (rows_per_bucket; each
// array's lines start a base row, row_buckets.hpp). The pyramid adds
// at most 3x the base (sum over i, j of 2^-(i+j) = 4), so the default cap of 2^25 cells is
// 16 MiB of base and at most 64 MiB in all, whatever the run's length.
#include <cstdint>
#include <utility>
#include <vector>

#include "viz/cell_state.hpp"
#include "viz/miss_record.hpp"
#include "viz/row_buckets.hpp"
#include "viz/tag_grid.hpp"
#include "viz/row_layout.hpp"

namespace cachesim::viz {

// Nibble-packed grid of CellCodes (cell_state.hpp), column-major: cell (col, row) at
// col * stride + row / 2. get/set speak CellState (the priority rule); code/merge the codes.
class CellGrid {
public:
    CellGrid() = default;
    CellGrid(std::uint64_t columns, std::uint64_t rows)
        : columns_(columns), rows_(rows), stride_((rows + 1) / 2), cells_(columns * stride_, 0) {}

    std::uint64_t columns() const { return columns_; }
    std::uint64_t rows() const { return rows_; }
    std::size_t bytes() const { return cells_.size(); }

    CellCode code(std::uint64_t col, std::uint64_t row) const {
        const std::uint8_t b = cells_[col * stride_ + row / 2];
        return static_cast<CellCode>((row & 1) ? (b >> 4) : (b & 15));
    }
    CellState get(std::uint64_t col, std::uint64_t row) const { return decode(code(col, row)); }
    void set_code(std::uint64_t col, std::uint64_t row, CellCode v) {
        std::uint8_t& b = cells_[col * stride_ + row / 2];
        b = (row & 1) ? static_cast<std::uint8_t>((b & 0x0F) | (v << 4)) : static_cast<std::uint8_t>((b & 0xF0) | v);
    }
    void set(std::uint64_t col, std::uint64_t row, CellState s) { set_code(col, row, encode(s)); }
    void merge(std::uint64_t col, std::uint64_t row, CellCode v) {
        set_code(col, row, combine_codes(code(col, row), v));
    }
    // Appends a column of rows() codes (one byte each).
    void append_column(const std::vector<std::uint8_t>& states);
    // Halves the time axis in place: column k becomes combine_codes(2k, 2k+1).
    void halve_columns();
    void reserve_columns(std::uint64_t columns) { cells_.reserve(columns * stride_); }

    // Aggregates pairs of columns (time) or rows (address) into a new grid.
    CellGrid halved_in_time() const;
    CellGrid halved_in_rows() const;

private:
    std::uint64_t columns_ = 0, rows_ = 0, stride_ = 0;
    std::vector<std::uint8_t> cells_;
};

class Diagram {
public:
    Diagram() = default;
    // The base grid's rows are the buckets of `row_buckets`, over the lines [first_row,
    // first_row + row_buckets.rows()): a window of lines for cacheviz's deep zoom; rows outside it
    // read as not_cached.
    Diagram(RowLayout layout, CellGrid base, std::uint64_t first_step, std::uint64_t steps,
            std::uint64_t steps_per_column, RowBuckets row_buckets, std::uint64_t first_row = 0);

    const RowLayout& layout() const { return layout_; }
    std::uint64_t first_step() const { return first_step_; }  // step of column 0 (windowed runs)
    std::uint64_t steps() const { return steps_; }            // steps covered
    std::uint64_t rows() const { return layout_.rows(); }     // cache lines
    std::uint64_t first_row() const { return first_row_; }    // line of base row 0 (windowed runs)
    std::uint64_t recorded_rows() const { return recorded_rows_; }  // lines the grid covers
    std::uint64_t steps_per_column() const { return steps_per_column_; }
    std::uint64_t rows_per_bucket() const { return row_buckets_.rows_per_bucket(); }
    // Which base row holds each recorded line (relative to first_row()).
    const RowBuckets& row_buckets() const { return row_buckets_; }
    bool exact() const { return steps_per_column_ == 1 && rows_per_bucket() == 1; }

    // Pyramid levels: time level i has base columns combined 2^i at a time; row level j likewise.
    int time_levels() const { return static_cast<int>(levels_.size()); }
    int row_levels() const { return levels_.empty() ? 0 : static_cast<int>(levels_[0].size()); }
    const CellGrid& level(int time_level, int row_level) const { return levels_[time_level][row_level]; }

    // State of one step and one line (rounded to its base cell).
    CellState at_step(std::uint64_t step, std::uint64_t row) const;
    // The tag `by` gives that base cell (0: none, or none recorded).
    std::uint8_t tag_at_step(ColourBy by, std::uint64_t step, std::uint64_t row) const;
    // Exact aggregate (combine) over steps [t0, t1) and rows [r0, r1) (lines, not base rows), both
    // rounded outwards to base cells; not_cached for an empty range. O(log^2) cells read.
    CellState query(std::uint64_t t0, std::uint64_t t1, std::uint64_t r0, std::uint64_t r1,
                    AggregateRule rule = AggregateRule::priority) const {
        return decode(query_code(t0, t1, r0, r1), rule);
    }
    CellCode query_code(std::uint64_t t0, std::uint64_t t1, std::uint64_t r0, std::uint64_t r1) const;
    // The same over base columns [c0, c1) and base row buckets [b0, b1).
    CellCode query_cells(std::uint64_t c0, std::uint64_t c1, std::uint64_t b0, std::uint64_t b1) const;

    std::size_t memory_bytes() const;

    // Recorded beside the cells (DiagramRecorder fills them; empty in a hand-built diagram):
    // L1 fetch counts for miss density, per-level miss rates over time (L1, then L2), and with
    // RecorderOptions::record_sm the SM of each base cell, with record_hit_sources who brought
    // the sectors its L1 hits found (GPU model).
    const MissCounts& miss_counts() const { return miss_counts_; }
    const std::vector<MissRateSeries>& miss_rates() const { return miss_rates_; }
    const TagGrid& sms() const { return sms_; }
    const TagGrid& hit_sources() const { return hit_sources_; }
    // The tags `by` colours with (none for ColourBy::state, or where they were not recorded).
    const TagGrid* tags(ColourBy by) const {
        const TagGrid* g = by == ColourBy::sm ? &sms_ : by == ColourBy::hit_source ? &hit_sources_ : nullptr;
        return g && !g->empty() ? g : nullptr;
    }
    void set_miss_counts(MissCounts counts) { miss_counts_ = std::move(counts); }
    void set_miss_rates(std::vector<MissRateSeries> rates) { miss_rates_ = std::move(rates); }
    void set_sms(TagGrid sms) { sms_ = std::move(sms); }
    void set_hit_sources(TagGrid sources) { hit_sources_ = std::move(sources); }

private:
    MissCounts miss_counts_;
    std::vector<MissRateSeries> miss_rates_;
    TagGrid sms_;
    TagGrid hit_sources_;
    RowLayout layout_;
    std::uint64_t first_step_ = 0, steps_ = 0;
    std::uint64_t first_row_ = 0, recorded_rows_ = 0;
    std::uint64_t steps_per_column_ = 1;
    RowBuckets row_buckets_;
    std::vector<std::vector<CellGrid>> levels_;  // [time level][row level]
};

}  // namespace cachesim::viz
