#pragma once
// The box stencil's loads in linear order, written out from its definition (item (x, y) reads
// in[clamp(y + dy)][clamp(x + dx)] row by row, dy and dx from -h/2 and -w/2; floats; `in` at 0),
// replayed on the textbook reference cache (tests/textbook_cache.hpp). Stores do not look up the
// thread model's write-through, no-allocate L1, so the L1's read misses are these.
#include <algorithm>
#include <cstdint>

#include "tests/textbook_cache.hpp"

namespace cachesim::test {

// Read misses of a fully associative LRU cache of `lines` lines of `line_bytes` bytes.
inline std::uint64_t reference_stencil_read_misses(std::int64_t width, std::int64_t height, std::int64_t box_w,
                                                   std::int64_t box_h, std::uint64_t lines,
                                                   std::uint64_t line_bytes) {
    TextbookCache l1(lines * line_bytes, line_bytes, lines, nullptr);
    for (std::int64_t y = 0; y < height; ++y)
        for (std::int64_t x = 0; x < width; ++x)
            for (std::int64_t dy = -(box_h / 2); dy <= box_h / 2; ++dy)
                for (std::int64_t dx = -(box_w / 2); dx <= box_w / 2; ++dx) {
                    const std::int64_t yy = std::clamp<std::int64_t>(y + dy, 0, height - 1);
                    const std::int64_t xx = std::clamp<std::int64_t>(x + dx, 0, width - 1);
                    l1.access(static_cast<std::uint64_t>(yy * width + xx) * 4, false);
                }
    return l1.read_misses;
}

// The thesis's Table 3.1 scenario: 7x7 box on 16x16, 24 lines of 16 B.
inline std::uint64_t thesis_table31_read_misses() { return reference_stencil_read_misses(16, 16, 7, 7, 24, 16); }

}  // namespace cachesim::test
