#pragma once
// A range of diagram rows (cache lines) named by the user, to enlarge a band of a diagram:
//   FROM:TO         rows FROM .. TO-1 (row 0 is the first line of the first array)
//   NAME[I]         the line holding element I (row-major index) of array NAME
//   NAME[X,Y]       the line holding element (X, Y) of array NAME
// An element as TO names the end after the line of the element before it: B[1000]:B[5000] are
// the lines holding elements 1000 to 4999, and B[N] with N the array's elements is its end.
// Both forms mix (in[0]:40). Bad ranges throw InputError naming `option`.
#include <cstdint>
#include <string_view>

#include "viz/row_layout.hpp"

namespace cachesim::viz {

struct RowRange {
    std::uint64_t first = 0;  // first row
    std::uint64_t end = 0;    // one past the last row
    std::uint64_t rows() const { return end - first; }
};

RowRange parse_row_range(std::string_view text, const RowLayout& rows, std::string_view option = "--lines");

}  // namespace cachesim::viz
