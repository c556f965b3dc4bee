#pragma once
// Named bundles of thread-model option values (the thesis's scenarios). A bundle fills in options
// the user did not give; explicit options always win. The GPU presets are GpuConfigs
// (sim/gpu/gpu_presets.hpp) that --preset applies directly.
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
// Every --preset name, the option bundles' and the GPU presets'.
std::vector<std::string> all_preset_names();
std::string preset_names();  // "a, b, c" for messages

}  // namespace cachesim::cli
