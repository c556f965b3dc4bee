#include "viz/line_range.hpp"

#include <charconv>
#include <string>
#include <utility>

#include "traces/input_error.hpp"

namespace cachesim::viz {

namespace {

std::uint64_t parse_number(std::string_view s, std::string_view option, std::string_view whole) {
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size())
        throw InputError(std::string(option) + ": '" + std::string(s) + "' in '" + std::string(whole) +
                         "' is not a whole number (expected FROM:TO, e.g. 0:64 or B[1000]:B[5000])");
    return v;
}

// One end: a row index, or the row boundary before (start) / after (end) an array element, whose
// array and index go to `named` (untouched for a row index).
std::uint64_t parse_end(std::string_view s, const RowLayout& rows, bool is_end, std::string_view option,
                        std::string_view whole, std::pair<std::string_view, std::uint64_t>& named) {
    const std::size_t open = s.find('[');
    if (open == std::string_view::npos) return parse_number(s, option, whole);
    if (s.back() != ']')
        throw InputError(std::string(option) + ": '" + std::string(s) + "' must end with ']' (NAME[I] or NAME[X,Y])");
    const std::string_view name = s.substr(0, open), inside = s.substr(open + 1, s.size() - open - 2);
    const RowGroup* group = nullptr;
    std::string names;
    for (const RowGroup& g : rows.groups()) {
        names += (names.empty() ? "" : ", ") + g.array.name;
        if (g.array.name == name) group = &g;
    }
    if (!group)
        throw InputError(std::string(option) + ": no array '" + std::string(name) + "' (arrays: " + names + ")");
    const ArrayInfo& a = group->array;
    const std::uint64_t elements = static_cast<std::uint64_t>(a.width) * a.height;
    std::uint64_t index = 0;
    if (const std::size_t comma = inside.find(','); comma != std::string_view::npos) {
        const std::uint64_t x = parse_number(inside.substr(0, comma), option, whole);
        const std::uint64_t y = parse_number(inside.substr(comma + 1), option, whole);
        // As an end, [0, height] is the element past the last, as NAME[width x height] is.
        const bool past_the_last = is_end && x == 0 && y == a.height;
        if (!past_the_last && (x >= a.width || y >= a.height))
            throw InputError(std::string(option) + ": " + std::string(s) + " is outside " + a.name + " (" +
                             std::to_string(a.width) + " x " + std::to_string(a.height) + " elements)");
        index = y * a.width + x;
    } else {
        index = parse_number(inside, option, whole);
    }
    if (index > elements || (!is_end && index == elements))
        throw InputError(std::string(option) + ": element " + std::to_string(index) + " is past the end of " + a.name +
                         " (" + std::to_string(elements) + " elements)");
    if (is_end && index == 0)
        throw InputError(std::string(option) + ": " + std::string(s) + " as the end leaves no element of " + a.name);
    named = {name, index};
    if (is_end && index == elements) return group->first_row + group->lines;
    const std::uint64_t element = is_end ? index - 1 : index;
    const std::uint64_t row = rows.row_of_address(a.base + element * a.elem_bytes);
    return is_end ? row + 1 : row;
}

}  // namespace

RowRange parse_row_range(std::string_view text, const RowLayout& rows, std::string_view option) {
    const std::size_t colon = text.find(':');
    if (colon == std::string_view::npos)
        throw InputError(std::string(option) + ": expected FROM:TO (rows, or array elements like B[1000]:B[5000]), not '" +
                         std::string(text) + "'");
    RowRange r;
    std::pair<std::string_view, std::uint64_t> first_element, end_element;
    r.first = parse_end(text.substr(0, colon), rows, false, option, text, first_element);
    r.end = parse_end(text.substr(colon + 1), rows, true, option, text, end_element);
    // Elements of one array: the range is theirs, even where both ends fall in one line's row.
    if (!first_element.first.empty() && first_element.first == end_element.first &&
        end_element.second <= first_element.second)
        throw InputError(std::string(option) + ": '" + std::string(text) + "' is empty: elements " +
                         std::to_string(first_element.second) + " to " + std::to_string(end_element.second) +
                         " (TO must be after FROM)");
    if (r.end > rows.rows())
        throw InputError(std::string(option) + ": row " + std::to_string(r.end) + " is past the last row " +
                         std::to_string(rows.rows() - 1) + " (the diagram has " + std::to_string(rows.rows()) + (rows.rows() == 1 ? " line)" : " lines)"));
    if (r.first >= r.end)
        throw InputError(std::string(option) + ": '" + std::string(text) + "' is empty: rows " + std::to_string(r.first) +
                         " to " + std::to_string(r.end) + " (TO must be after FROM)");
    return r;
}

}  // namespace cachesim::viz
