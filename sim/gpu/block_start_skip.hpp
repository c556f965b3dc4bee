#pragma once
// Block start skip (GpuConfig::block_start_skip): a new block's warps are passed over by the round
// robin for a few turns before their first request, as blocks on the GPU start at staggered
// times. The pickers (loose_round_robin.hpp, warp_rate.hpp) use the turns up.
#include <cstdint>

#include "sim/gpu/gpu_config.hpp"

namespace cachesim {

// The turns of the round robin that the warps of launch block `block` are passed over before their
// first request (GpuConfig::block_start_skip): drawn from the seed and the block, 0..skip. The
// configuration is a run's, its automatic skip resolved (with_rate_form, warp_rate.hpp).
std::uint32_t block_start_skip_turns(const GpuConfig& config, std::uint64_t block);

}  // namespace cachesim
