#pragma once
// Named bundles of option values. A preset fills in options the user did not give; explicit
// options always win. Each entry documents where its values come from (see README).
#include <string>
#include <utility>
#include <vector>

namespace cachesim::cli {

struct Preset {
    std::string name;
    std::string description;
    std::vector<std::pair<std::string, std::string>> options;  // option name (no --) -> value
};

const std::vector<Preset>& presets();
const Preset* find_preset(const std::string& name);
std::string preset_names();  // "a, b, c" for messages

}  // namespace cachesim::cli
