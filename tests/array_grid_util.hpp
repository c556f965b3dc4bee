#pragma once
// An array view's grid for layout tests: w x h elements, four to a line, none cached.
#include <cstdint>
#include <string>

#include "viz/array_view.hpp"

namespace cachesim::test {

inline viz::ArrayGrid blank_grid(const std::string& name, std::uint32_t w, std::uint32_t h) {
    viz::ArrayGrid g;
    g.name = name;
    g.width = w;
    g.height = h;
    g.elements = static_cast<std::uint64_t>(w) * h;
    g.elements_per_line = 4;
    g.cells.assign(static_cast<std::size_t>(w) * h, viz::CellState::not_cached);
    return g;
}

}  // namespace cachesim::test
