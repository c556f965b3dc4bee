#pragma once
// Running sweep configurations: validation through the simulate option code path, one
// configuration -> its CSV columns, and a thread pool over many configurations.
#include <atomic>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "apps/common/options.hpp"
#include "apps/cachesim/sweep_expand.hpp"

namespace cachesim::cli {

using SweepColumns = std::vector<std::pair<std::string, std::string>>;

// parse_command_line + read_simulation_options for every configuration, so a bad value
// anywhere is an InputError (naming the configuration) before anything runs.
std::vector<SimulationOptions> prepare_configurations(const std::vector<SweepConfiguration>& configs,
                                                      const po::options_description& simulate_options);

// Simulates one configuration; the columns are report.hpp's to_columns (as simulate --format csv)
// without timing measurements (seconds, *_per_second), which would make reruns differ.
SweepColumns run_configuration(const SimulationOptions& sim, const std::atomic<bool>* cancel = nullptr);

// The columns run_configuration reports for `sim`, found without simulating (from an empty
// result): what a resumed record must hold, and what --plot-value may name. `numeric` (optional)
// receives, per column, whether its values are numbers.
std::vector<std::string> expected_columns(const SimulationOptions& sim, std::vector<bool>* numeric = nullptr);

// Runs sims[i] for every i in `todo` on `jobs` threads. on_done(i, columns) is called under a
// lock as each finishes. The first exception stops the others and is rethrown here.
void run_in_parallel(const std::vector<SimulationOptions>& sims, const std::vector<std::size_t>& todo,
                     unsigned jobs, const std::function<void(std::size_t, SweepColumns)>& on_done);

}  // namespace cachesim::cli
