#include "apps/common/presets.hpp"

#include "sim/gpu/gpu_presets.hpp"

namespace cachesim::cli {

const std::vector<Preset>& presets() {
    static const std::vector<Preset> table = {
        {"thesis-stencil",
         "thesis Table 3.1: 7x7 stencil on 16x16, one fully associative LRU cache of 24 lines of "
         "16 B, no L2 (the default)",
         {{"workload", "stencil"}, {"size", "16x16"}, {"stencil", "7x7"}, {"l1-size", "384"},
          {"l1-line", "16"}, {"l1-ways", "full"}, {"l1-policy", "lru"}, {"l2-size", "0"}}},
        {"thesis-matmul",
         "thesis Table 3.2: 16x16x16 matmul, one fully associative LRU cache of 32 lines of 16 B, "
         "no L2",
         {{"workload", "matmul"}, {"size", "16x16"}, {"depth", "16"}, {"l1-size", "512"},
          {"l1-line", "16"}, {"l1-ways", "full"}, {"l1-policy", "lru"}, {"l2-size", "0"}}},
    };
    return table;
}

const Preset* find_preset(const std::string& name) {
    for (const Preset& p : presets())
        if (p.name == name) return &p;
    return nullptr;
}

std::vector<std::string> all_preset_names() {
    std::vector<std::string> names;
    for (const Preset& p : presets()) names.push_back(p.name);
    for (const GpuPreset& p : gpu_presets()) names.push_back(p.name);
    return names;
}

std::string preset_names() {
    std::string names;
    for (const std::string& name : all_preset_names()) names += (names.empty() ? "" : ", ") + name;
    return names;
}

}  // namespace cachesim::cli
