#pragma once
// The tooltip over a diagram cell: which step (work item, round or measured request) and which
// cache line it is, and the cell's state.
#include <cstdint>

#include "apps/cacheviz/sim_job.hpp"
#include "viz/diagram.hpp"

namespace cachesim::gui {

// `exact`: the full-resolution window drawn over the coarse cells, if any.
void cell_tooltip(const JobOutput& out, const viz::Diagram& d, const viz::Diagram* exact, std::uint64_t step,
                  std::uint64_t row);

}  // namespace cachesim::gui
