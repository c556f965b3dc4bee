#pragma once
// compare --config: a GPU description, `preset = NAME` and GPU-model parameters, `name = value`
// per line ('#' starts a comment), as gpubench --describe writes it.
#include <string>
#include <vector>

namespace cachesim::cli {

struct GpuDescription {
    std::string preset;
    std::vector<std::string> overrides;  // the parameters as --gpu KEY=VALUE overrides, in the file's order
    std::vector<std::size_t> lines;      // the line of each override in the file
    std::string device;                  // its `# device: NAME` line (gpubench --describe writes it), if any
};

// Reads FILE; InputError naming the file and line for a line that is not `name = value`, a key
// that is not a GPU model parameter (or is `block`, which each measured row gives), a name given
// on two lines, an unknown preset, a file without a preset line, or a directory.
GpuDescription read_gpu_description(const std::string& path);

// The GPU model parameters --gpu and a description can set: all but the block size.
std::string gpu_parameter_keys();
// The GPU presets' names, comma separated, for messages.
std::string gpu_preset_names();

}  // namespace cachesim::cli
