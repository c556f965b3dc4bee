#pragma once
// The tests' LRU reference, written from the definition rather than from the simulator: a list
// of lines, most recent first, that a touch moves to the front. Its position is the stack (reuse)
// distance; with a capacity, the back line falls out when the list outgrows it, as in a fully
// associative LRU cache. And the thesis stencil's loads (Table 3.1) to replay through it.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <list>
#include <optional>
#include <vector>

namespace cachesim::test {

class LruList {
public:
    explicit LruList(std::size_t capacity = 0) : capacity_(capacity) {}  // 0: unbounded

    struct Touch {
        std::optional<std::uint64_t> distance;  // distinct lines touched since; none on a first touch
        std::optional<std::uint64_t> evicted;   // the line that fell out of a full list
    };
    Touch touch(std::uint64_t line) {
        Touch t;
        const auto it = std::find(lines_.begin(), lines_.end(), line);
        if (it != lines_.end()) {
            t.distance = static_cast<std::uint64_t>(std::distance(lines_.begin(), it));
            lines_.erase(it);
        }
        lines_.push_front(line);
        if (capacity_ > 0 && lines_.size() > capacity_) {
            t.evicted = lines_.back();
            lines_.pop_back();
        }
        return t;
    }
    std::vector<std::uint64_t> most_recent_first() const { return {lines_.begin(), lines_.end()}; }
    std::uint64_t least_recent() const { return lines_.back(); }
    std::size_t size() const { return lines_.size(); }

private:
    std::size_t capacity_;
    std::list<std::uint64_t> lines_;
};

// The lines of `in` that item `item` of the thesis stencil loads, in order: 7x7 box on 16x16
// floats in linear order, 16 B lines; item (x, y) loads in[clamp(y + dy)][clamp(x + dx)] row by row.
inline std::vector<std::uint64_t> thesis_stencil_load_lines(std::uint64_t item) {
    std::vector<std::uint64_t> lines;
    const std::int64_t x = static_cast<std::int64_t>(item % 16), y = static_cast<std::int64_t>(item / 16);
    for (std::int64_t dy = -3; dy <= 3; ++dy)
        for (std::int64_t dx = -3; dx <= 3; ++dx) {
            const std::int64_t yy = std::clamp<std::int64_t>(y + dy, 0, 15), xx = std::clamp<std::int64_t>(x + dx, 0, 15);
            lines.push_back(static_cast<std::uint64_t>(yy * 16 + xx) * 4 / 16);
        }
    return lines;
}

}  // namespace cachesim::test
