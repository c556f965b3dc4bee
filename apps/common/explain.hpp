#pragma once
// --explain: every GPU model parameter of a configuration with its value and where the value
// comes from (measured, documented, fitted, assumed, or set by the user).
#include <ostream>

#include "apps/common/options.hpp"

namespace cachesim::cli {

// `sim` must be a GPU model configuration (read_simulation_options).
void print_explanation(std::ostream& out, const SimulationOptions& sim);

}  // namespace cachesim::cli
