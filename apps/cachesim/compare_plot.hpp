#pragma once
// The comparison picture: simulated vs measured hit rates as a scatter with the identity line,
// and per-schedule bars (mean over the runs with that schedule).
#include <string>
#include <vector>

#include "apps/cachesim/compare_stats.hpp"

namespace cachesim::cli {

// PNG bytes of a width x height plot.
std::string render_compare_plot(const std::vector<ComparedRun>& runs, const CompareSummary& summary,
                                const std::string& title, int width = 1400, int height = 640);

}  // namespace cachesim::cli
