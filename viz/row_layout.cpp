#include "viz/row_layout.hpp"

#include <algorithm>
#include <stdexcept>

namespace cachesim::viz {

RowLayout::RowLayout(const std::vector<ArrayInfo>& arrays, std::uint32_t line_bytes)
    : line_bytes_(line_bytes) {
    if (line_bytes == 0) throw std::invalid_argument("RowLayout: line size 0");
    std::vector<ArrayInfo> sorted;
    for (const ArrayInfo& a : arrays)
        if (a.bytes() > 0) sorted.push_back(a);
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const ArrayInfo& a, const ArrayInfo& b) { return a.base < b.base; });
    std::uint64_t next_free_line = 0;
    for (const ArrayInfo& a : sorted) {
        std::uint64_t first = a.base / line_bytes;
        const std::uint64_t end = (a.base + a.bytes() - 1) / line_bytes + 1;
        if (!groups_.empty()) first = std::max(first, next_free_line);
        if (first >= end) continue;
        groups_.push_back({a, first, end - first, rows_});
        rows_ += end - first;
        next_free_line = end;
    }
}

std::uint64_t RowLayout::row_of_line(std::uint64_t line) const {
    // Few groups (one per array): a linear scan beats a binary search here.
    for (const RowGroup& g : groups_)
        if (line - g.first_line < g.lines) return g.first_row + (line - g.first_line);
    return kNoRow;
}

const RowGroup* RowLayout::group_of_row(std::uint64_t row) const {
    for (const RowGroup& g : groups_)
        if (row - g.first_row < g.lines) return &g;
    return nullptr;
}

std::uint64_t RowLayout::line_of_row(std::uint64_t row) const {
    const RowGroup* g = group_of_row(row);
    return g ? g->first_line + (row - g->first_row) : kNoRow;
}

RowInfo RowLayout::describe(std::uint64_t row) const {
    RowInfo info;
    info.group = group_of_row(row);
    if (!info.group) return info;
    const ArrayInfo& a = info.group->array;
    info.line = info.group->first_line + (row - info.group->first_row);
    // First and last byte of the line within the array: an array may end exactly at 2^64, where
    // one past its end wraps to 0 (groups hold arrays of at least a byte).
    const std::uint64_t lo = std::max(info.line * line_bytes_, a.base);
    const std::uint64_t last = std::min(info.line * line_bytes_ + (line_bytes_ - 1), a.base + (a.bytes() - 1));
    const std::uint32_t eb = std::max<std::uint32_t>(a.elem_bytes, 1);
    info.first_element = (lo - a.base) / eb;
    info.elements = last >= lo ? (last - a.base) / eb + 1 - info.first_element : 0;
    if (a.width > 0) {
        info.x = static_cast<std::uint32_t>(info.first_element % a.width);
        info.y = static_cast<std::uint32_t>(info.first_element / a.width);
    }
    return info;
}

}  // namespace cachesim::viz
