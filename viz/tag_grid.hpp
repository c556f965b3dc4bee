#pragma once
// GPU model: one byte per cell of a diagram's base grid naming what the cell is coloured by, 0 for
// nothing: the SM that accessed it (sm_tag: the reuse between the blocks one SM runs shows as one
// colour), or who brought the sectors its L1 hits found (HitSource, sim/observer.hpp). When columns
// are merged, a cell keeps the later column's tag where it has one.
#include <algorithm>
#include <cstdint>
#include <vector>

namespace cachesim::viz {

// The SM's tag: SM + 1 (SMs past 254 share 255).
inline std::uint8_t sm_tag(std::uint32_t sm) { return static_cast<std::uint8_t>(std::min<std::uint32_t>(sm, 254) + 1); }

class TagGrid {
public:
    TagGrid() = default;
    explicit TagGrid(std::uint64_t rows) : rows_(rows) {}

    std::uint64_t columns() const { return columns_; }
    std::uint64_t rows() const { return rows_; }
    bool empty() const { return columns_ == 0; }
    std::size_t bytes() const { return cells_.size(); }

    // 0: nothing recorded.
    std::uint8_t at(std::uint64_t column, std::uint64_t row) const {
        return column < columns_ && row < rows_ ? cells_[column * rows_ + row] : 0;
    }

    // Writes a column's tags (0 keeps what the cell holds).
    void store(std::uint64_t column, const std::vector<std::uint8_t>& codes) {
        if (column >= columns_) {
            cells_.resize((column + 1) * rows_, 0);
            columns_ = column + 1;
        }
        for (std::uint64_t r = 0; r < rows_; ++r)
            if (codes[r]) cells_[column * rows_ + r] = codes[r];
    }
    // Column k becomes the pair (2k, 2k + 1), the later one's tag where it has one.
    void halve_columns() {
        const std::uint64_t out = (columns_ + 1) / 2;
        for (std::uint64_t k = 0; k < out; ++k)
            for (std::uint64_t r = 0; r < rows_; ++r) {
                const std::uint8_t a = cells_[2 * k * rows_ + r];
                const std::uint8_t b = 2 * k + 1 < columns_ ? cells_[(2 * k + 1) * rows_ + r] : 0;
                cells_[k * rows_ + r] = b ? b : a;
            }
        columns_ = out;
        cells_.resize(columns_ * rows_);
    }

private:
    std::uint64_t columns_ = 0, rows_ = 0;
    std::vector<std::uint8_t> cells_;  // column-major
};

}  // namespace cachesim::viz
