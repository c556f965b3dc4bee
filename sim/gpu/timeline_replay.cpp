#include "sim/gpu/timeline_replay.hpp"

#include <string>

namespace cachesim {

void validate_timeline(const WorkloadSpec& spec, const GpuConfig& config) {
    const WarpTimeline& t = *config.timeline;
    const std::string what = "warp timeline " + t.source + ": ";
    if (t.block != config.block)
        throw SimulationError(what + "measured with blocks of " + std::to_string(t.block) + " threads, the launch has " +
                              std::to_string(config.block));
    const std::uint32_t warps_per_block = (config.block + config.warp_size - 1) / config.warp_size;
    if (t.warps_per_block != warps_per_block)
        throw SimulationError(what + std::to_string(t.warps_per_block) + " warps per block, the launch has " +
                              std::to_string(warps_per_block) + " (warp size " + std::to_string(config.warp_size) + ")");
    const std::uint64_t warps = warps_in_range(spec.items(), config.block, config.warp_size);
    if (t.warps.size() != warps)
        throw SimulationError(what + std::to_string(t.warps.size()) + " warps, the launch has " + std::to_string(warps));
    for (std::size_t i = 0; i < t.warps.size(); ++i) {
        const WarpInterval& w = t.warps[i];
        if (w.sm >= config.sms)
            throw SimulationError(what + "block " + std::to_string(i / warps_per_block) + " warp " +
                                  std::to_string(i % warps_per_block) + " ran on SM " + std::to_string(w.sm) +
                                  ", the GPU has " + std::to_string(config.sms));
        if (w.end_ns < w.start_ns)
            throw SimulationError(what + "block " + std::to_string(i / warps_per_block) + " warp " +
                                  std::to_string(i % warps_per_block) + " ends before it starts");
    }
}

}  // namespace cachesim
