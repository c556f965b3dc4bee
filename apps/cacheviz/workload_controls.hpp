#pragma once
// The workload's controls: kernel, sizes and the thread schedule.
#include "traces/workload_spec.hpp"

namespace cachesim::gui {

// True when something changed.
bool workload_controls(WorkloadSpec& w);

}  // namespace cachesim::gui
