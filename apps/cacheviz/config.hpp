#pragma once
// Pane configurations from command-line style options (the same as `cachesim simulate`).
#include <string>
#include <vector>

#include "apps/cacheviz/app.hpp"

namespace cachesim::gui {

// Parses simulation options ("--schedule", "column:4", "--preset=thesis-matmul", ...) into a
// pane configuration. Throws InputError / SimulationError with a clear message.
PaneConfig config_from_args(const std::vector<std::string>& args);
// `base` with every option that `overrides` names replaced by the override's value.
std::vector<std::string> merge_args(const std::vector<std::string>& base, const std::vector<std::string>& overrides);
// Splits a string into shell-like words (spaces separate; no quoting).
std::vector<std::string> split_words(const std::string& text);

}  // namespace cachesim::gui
