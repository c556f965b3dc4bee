#pragma once
// Pane configurations from command-line style options (the same as `cachesim simulate`).
#include <string>
#include <vector>

#include "apps/cacheviz/app.hpp"
#include "apps/common/options.hpp"
#include "traces/atomic_output.hpp"

namespace cachesim::gui {

// The options that describe a pane's run, as `cachesim simulate` takes them: general, workload,
// cache and GPU model options, --warp-times and --hit-sources. The first pane's command line and --compare's
// options are both read against these, so the two panes accept the same options.
cli::po::options_description simulation_options();

// Parses simulation options ("--schedule", "column:4", "--preset=thesis-matmul", ...) into a
// pane configuration. Throws InputError / SimulationError with a clear message. `inputs`, when
// given, receives the files the pane reads (--trace, --config, ...: cli::input_files);
// `hit_sources`, whether the options (a --config file's included) give --hit-sources, which the
// caller checks once it knows the pane's model (--start-gpu may change it).
PaneConfig config_from_args(const std::vector<std::string>& args, std::vector<NamedPath>* inputs = nullptr,
                            bool* hit_sources = nullptr);
// The pane configuration of read simulation options; `vm` gives --trace as the user wrote it. A
// trace must have an array layout to draw (apps/common/drawable_trace.hpp).
PaneConfig pane_config(const cli::SimulationOptions& options, const cli::po::variables_map& vm);
// `base` with every option that `overrides` names replaced by the override's value.
std::vector<std::string> merge_args(const std::vector<std::string>& base, const std::vector<std::string>& overrides);
// Splits a string into shell-like words (spaces separate; no quoting).
std::vector<std::string> split_words(const std::string& text);

}  // namespace cachesim::gui
