#pragma once
// Which shared-memory carve-out the driver takes for a launch, and so how much of an SM's unified
// L1/shared array is left to the L1 (--l1-size auto). Two rules:
//  - occupancy: the smallest carve-out that holds the resident blocks' shared memory, as CUDA's
//    occupancy calculation reasons;
//  - hopper: what the H200's driver took in 309 launches of gpubench's kernels (Nsight Compute's
//    launch__shared_mem_config_size, tests/data/h200/smem/carveout*.csv). It provisions for more
//    blocks than can be resident, so at 128 threads a block without shared memory the L1 gets
//    224 KiB, not the 240 the occupancy rule leaves.
#include <cstdint>
#include <vector>

#include "sim/enum_choices.hpp"

namespace cachesim {

enum class CarveoutRule : std::uint8_t {
    occupancy,  // the smallest carve-out that holds the resident blocks' shared memory
    hopper,     // the H200 driver's choice, measured
};

inline constexpr EnumChoice<CarveoutRule> kCarveoutRuleChoices[] = {
    {CarveoutRule::occupancy, "occupancy", "the smallest carve-out that holds the resident blocks' shared memory"},
    {CarveoutRule::hopper, "hopper",
     "as the H200's driver chose: 32/16/8 KiB without shared memory (blocks of up to 15/23/more warps); with "
     "some, room for twice the resident blocks (once from 30 warps a block), up to 132 KiB unless they need more"},
};

struct CarveoutLaunch {
    std::uint32_t warps_per_block = 0;
    std::uint32_t resident_blocks = 0;       // per SM, from threads, blocks, registers and shared memory
    std::uint32_t max_blocks_per_sm = 0;     // the SM's own limit (0: none)
    std::uint64_t smem_per_block = 0;        // the kernel's own, bytes
    std::uint64_t smem_block_total = 0;      // with what CUDA reserves per block
};

// The carve-out in bytes: one of `carveouts_kib` no larger than `unified_bytes` (an empty list: exactly
// the resident blocks' shared memory). Throws SimulationError when none holds the resident blocks'.
std::uint64_t choose_carveout_bytes(CarveoutRule rule, const CarveoutLaunch& launch,
                                    const std::vector<std::uint32_t>& carveouts_kib, std::uint64_t unified_bytes);

}  // namespace cachesim
