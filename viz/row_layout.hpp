#pragma once
// Diagram rows: the cache lines covering each array, in address order, grouped by array. Lines
// between arrays (alignment padding) get no row.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "traces/access_source.hpp"

namespace cachesim::viz {

inline constexpr std::uint64_t kNoRow = std::numeric_limits<std::uint64_t>::max();

struct RowGroup {
    ArrayInfo array;
    std::uint64_t first_line = 0;  // line address (byte address / line bytes)
    std::uint64_t lines = 0;
    std::uint64_t first_row = 0;
};

// Where a row lies in its array: the array and the element (x, y) of the line's first byte that
// belongs to the array.
struct RowInfo {
    const RowGroup* group = nullptr;
    std::uint64_t line = 0;
    std::uint64_t first_element = 0;  // index in the array, row-major
    std::uint64_t elements = 0;       // elements of the array in this line
    std::uint32_t x = 0, y = 0;       // of first_element
};

class RowLayout {
public:
    RowLayout() = default;
    // Arrays with no bytes are skipped; overlapping arrays keep the earlier one's lines.
    RowLayout(const std::vector<ArrayInfo>& arrays, std::uint32_t line_bytes);

    std::uint32_t line_bytes() const { return line_bytes_; }
    std::uint64_t rows() const { return rows_; }
    const std::vector<RowGroup>& groups() const { return groups_; }

    std::uint64_t row_of_line(std::uint64_t line) const;
    std::uint64_t row_of_address(std::uint64_t address) const { return row_of_line(address / line_bytes_); }
    std::uint64_t line_of_row(std::uint64_t row) const;
    const RowGroup* group_of_row(std::uint64_t row) const;
    RowInfo describe(std::uint64_t row) const;

private:
    std::uint32_t line_bytes_ = 1;
    std::uint64_t rows_ = 0;
    std::vector<RowGroup> groups_;
};

}  // namespace cachesim::viz
