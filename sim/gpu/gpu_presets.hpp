#pragma once
// Hardware presets of the GPU model (v100, t4, a100, h100, h200). --preset applies a preset's
// GpuConfig directly; where each parameter's value comes from, per preset, is in the parameter
// table (sim/gpu/gpu_parameters.cpp), and `sources` summarizes the same facts per preset.
#include <string>
#include <string_view>
#include <vector>

#include "sim/gpu/gpu_config.hpp"

namespace cachesim {

struct GpuPresetSource {
    std::string what;    // which values
    std::string source;  // where they come from
};

struct GpuPreset {
    std::string name;
    std::string description;
    // The CUDA device names (cudaDeviceProp::name, gpubench's `gpu` column) of the GPUs it describes.
    std::vector<std::string> devices;
    GpuConfig config;
    std::vector<GpuPresetSource> sources;
};

const std::vector<GpuPreset>& gpu_presets();
const GpuPreset* find_gpu_preset(std::string_view name);
// The preset whose devices include `device` (letter case and surrounding spaces aside), or null.
const GpuPreset* find_gpu_preset_for_device(std::string_view device);
inline constexpr std::string_view kDefaultGpuPreset = "h200";

}  // namespace cachesim
