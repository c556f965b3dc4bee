#pragma once
// The GPU model's controls: one per row of the parameter table (sim/gpu/gpu_parameters.hpp),
// grouped as the table groups them, each with the help and the preset's provenance as tooltip.
#include <string>

#include "sim/gpu/gpu_config.hpp"

namespace cachesim::gui {

// True when a value changed; a value the table refuses leaves `gpu` as it was and sets `error`.
bool gpu_parameter_controls(GpuConfig& gpu, std::string& error);

}  // namespace cachesim::gui
