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
// threads: the GPU model's (results do not depend on it); progress: the fraction of the run done.
SweepColumns run_configuration(const SimulationOptions& sim, const std::atomic<bool>* cancel = nullptr,
                               unsigned threads = 1, const std::function<void(double)>& progress = {});

// A configuration's work, known before it runs, for progress estimates: warp requests (GPU model)
// or accesses (thread model; a trace's bound from its header or size).
double configuration_work(const SimulationOptions& sim);

// How many configurations run at once (jobs) and on how many threads each (the GPU model's).
// By default jobs x threads <= cores: the jobs fill the cores (one per configuration at most) and
// the GPU model's threads share what is left. A count given (non-zero) is kept and the other
// chosen to fit; both given are obeyed. `note`: what was chosen and why, when the user gave one
// of them, or a warning when the two given oversubscribe the cores; empty otherwise.
struct Parallelism {
    unsigned jobs = 1, threads = 1;
    std::string note;
    bool warning = false;  // the note warns of oversubscribed cores
};
Parallelism choose_parallelism(const std::string& command, unsigned jobs, unsigned threads, unsigned cores,
                               std::size_t configurations, bool gpu);

// The columns run_configuration reports for `sim`, found without simulating (from an empty
// result): what a resumed record must hold, and what --plot-value may name. `numeric` (optional)
// receives, per column, whether its values are numbers.
std::vector<std::string> expected_columns(const SimulationOptions& sim, std::vector<bool>* numeric = nullptr);

// Runs sims[i] for every i in `todo` on `jobs` threads, each GPU-model run on `threads`. on_done(i,
// columns) is called under a lock as each finishes; on_progress(i, fraction), when given, as a
// run reports its progress (from its own thread). The first exception stops the others and is
// rethrown here.
void run_in_parallel(const std::vector<SimulationOptions>& sims, const std::vector<std::size_t>& todo,
                     unsigned jobs, const std::function<void(std::size_t, SweepColumns)>& on_done,
                     unsigned threads = 1, const std::function<void(std::size_t, double)>& on_progress = {});

}  // namespace cachesim::cli
