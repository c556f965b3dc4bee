#pragma once
// GPU model: which SM accessed each cell of a diagram's base grid, for colouring by SM (the reuse
// between the blocks that one SM runs shows as one colour). A cell that several SMs accessed
// keeps the last one's. One byte per cell: 0 none, else SM + 1 (SMs past 254 share 255).
#include <algorithm>
#include <cstdint>
#include <vector>

namespace cachesim::viz {

class SmGrid {
public:
    SmGrid() = default;
    explicit SmGrid(std::uint64_t rows) : rows_(rows) {}

    std::uint64_t columns() const { return columns_; }
    std::uint64_t rows() const { return rows_; }
    bool empty() const { return columns_ == 0; }
    std::size_t bytes() const { return cells_.size(); }

    // 0: no SM recorded; else the SM's number + 1.
    std::uint8_t at(std::uint64_t column, std::uint64_t row) const {
        return column < columns_ && row < rows_ ? cells_[column * rows_ + row] : 0;
    }
    static std::uint8_t code(std::uint32_t sm) { return static_cast<std::uint8_t>(std::min<std::uint32_t>(sm, 254) + 1); }

    // Writes a column's codes (0 keeps what the cell holds).
    void store(std::uint64_t column, const std::vector<std::uint8_t>& codes) {
        if (column >= columns_) {
            cells_.resize((column + 1) * rows_, 0);
            columns_ = column + 1;
        }
        for (std::uint64_t r = 0; r < rows_; ++r)
            if (codes[r]) cells_[column * rows_ + r] = codes[r];
    }
    // Column k becomes the pair (2k, 2k + 1), the later one's SM where it has one.
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
