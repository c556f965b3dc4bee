#pragma once
// The tooltip over a diagram cell: which step (work item, round or measured request) and which
// cache line it is, the cell's state, (GPU model) the SM that accessed it and who brought most of
// its L1 hits, and (thread model) the line's reuse distance and what evicted it, from the caches'
// contents at that step.
#include <cstdint>

#include "apps/cacheviz/sim_job.hpp"
#include "viz/cache_contents.hpp"
#include "viz/diagram.hpp"

namespace cachesim::gui {

// `exact`: the full-resolution window drawn over the coarse cells, if any.
// `history`: the line's history up to the step (nullptr while `pending`, or for the GPU model).
// `other`: in the difference view, pane A's run, whose state of the cell is shown too.
void cell_tooltip(const JobOutput& out, const viz::Diagram& d, const viz::Diagram* exact, std::uint64_t step,
                  std::uint64_t row, const viz::LineHistory* history = nullptr, bool pending = false,
                  const JobOutput* other = nullptr);

}  // namespace cachesim::gui
