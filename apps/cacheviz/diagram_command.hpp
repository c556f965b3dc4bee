#pragma once
// "Copy as a `cachesim diagram` command": the options that reproduce a pane's run (workload,
// schedule, model and every cache or GPU parameter, spelled out rather than as a preset, so that
// later edits in the GUI are kept) and the view's window of steps.
#include <string>
#include <vector>

#include "apps/cacheviz/sim_job.hpp"

namespace cachesim::gui {

// The simulation options of `input` (as `cachesim simulate` reads them).
std::vector<std::string> simulation_args(const JobInput& input);
// `cachesim diagram OPTIONS --from FROM --to TO --out OUT`, quoted for a POSIX shell.
std::string diagram_command(const JobInput& input, std::uint64_t from, std::uint64_t to, const std::string& out);

}  // namespace cachesim::gui
