#include "sim/gpu/warp_rate.hpp"

#include <algorithm>
#include <cmath>

#include "sim/gpu/loop_issue_cost.hpp"
#include "sim/rng.hpp"

namespace cachesim {

double warp_issue_rate(const GpuConfig& config, std::uint64_t block, std::uint32_t warp, std::uint64_t epoch) {
    if (config.warp_rate_spread <= 0) return 1.0;
    // Two splitmix64 draws from (seed, block, warp, epoch), Box-Muller to a standard normal z; a
    // block's warps share warp 0's draw where the rate is the block's (WarpRateScope::block).
    const std::uint32_t drawer = config.warp_rate_scope == WarpRateScope::block ? 0u : warp;
    std::uint64_t state = keyed_draw_state(config.seed, DrawStream::warp_rate, block, drawer, epoch);
    auto uniform = [&] { return static_cast<double>(splitmix64(state) >> 11) * 0x1.0p-53; };  // [0, 1)
    const double u1 = 1.0 - uniform(), u2 = uniform();  // u1 in (0, 1]
    const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
    return std::min(1.0, std::exp(config.warp_rate_spread * (z - 3.0)));
}

bool lrr_rounds(const GpuConfig& config) {
    return config.scheduler == WarpScheduler::lrr && config.timing == IssueTiming::rounds && !config.timeline;
}

bool rates_drawn(const GpuConfig& config) { return lrr_rounds(config) && config.warp_rate_spread > 0; }

bool rates_drawn_below_fitted_l1(const GpuConfig& config, std::uint64_t l1_bytes) {
    return rates_drawn(config) && l1_bytes < kRatesFittedL1Bytes;
}

bool runs_rates_below_fitted_l1(const GpuConfig& config, const WorkloadSpec* spec) {
    const GpuConfig run = with_rate_form(config, spec);
    return rates_drawn_below_fitted_l1(run, gpu_occupancy(run).l1_bytes);
}

bool runs_in_lockstep(const GpuConfig& config, const WorkloadSpec* spec) {
    if (!rates_drawn(config)) return false;
    const std::uint32_t keeps_pace = lockstep_warps_for(config, spec);
    if (keeps_pace == 0) return false;
    const GpuOccupancy occupancy = gpu_occupancy(config);
    const std::uint64_t warps_per_sm = static_cast<std::uint64_t>(occupancy.warps_per_block) * occupancy.blocks_per_sm;
    return warps_per_sm <= static_cast<std::uint64_t>(keeps_pace) * std::max(1u, config.schedulers_per_sm);
}

GpuConfig with_rate_form(GpuConfig config, const WorkloadSpec* spec) {
    if (runs_in_lockstep(config, spec)) {
        config.warp_rate_spread = 0;
        config.block_start_skip = 0;
    }
    if (config.warp_rate_scope == WarpRateScope::automatic)
        config.warp_rate_scope = gpu_occupancy(config).l1_bytes < kRatesFittedL1Bytes ? WarpRateScope::block
                                                                                       : WarpRateScope::warp;
    if (config.block_start_skip == kBlockStartSkipAuto)
        config.block_start_skip = config.warp_rate_scope == WarpRateScope::block ? kPerBlockStartSkip : kPerWarpStartSkip;
    return config;
}

std::uint64_t warp_issue_credit(const GpuConfig& config, std::uint64_t block, std::uint32_t warp,
                                std::uint64_t epoch) {
    const double rate = warp_issue_rate(config, block, warp, epoch);
    return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(rate * static_cast<double>(kWarpCreditOne)));
}

}  // namespace cachesim
