#include "sim/gpu/block_start_skip.hpp"

#include "sim/rng.hpp"

namespace cachesim {

std::uint32_t block_start_skip_turns(const GpuConfig& config, std::uint64_t block) {
    if (config.block_start_skip == 0) return 0;
    std::uint64_t state = config.seed * 0x9e3779b97f4a7c15ull + (block + 1) * 0xa0761d6478bd642full;
    return static_cast<std::uint32_t>(splitmix64(state) % (static_cast<std::uint64_t>(config.block_start_skip) + 1));
}

}  // namespace cachesim
