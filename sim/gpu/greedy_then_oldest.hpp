#pragma once
// Greedy then oldest (GpuConfig::scheduler gto): the warp that issued last goes on until its
// request misses in L1; then the oldest warp not waiting for memory issues.
#include <cstdint>

#include "sim/gpu/warp_slot.hpp"

namespace cachesim {

// The slot among warps[0, count) that issues next; `current` (kNoWarp: none) is the warp run
// greedily, and becomes the one returned. At least one warp must be live.
inline std::uint32_t pick_greedy_then_oldest(WarpSlot* warps, std::uint32_t count, std::uint32_t& current) {
    if (current != kNoWarp && warps[current].live() && !warps[current].stalled) return current;
    std::uint32_t best = kNoWarp;
    for (std::uint32_t c = 0; c < count; ++c)
        if (warps[c].live() && !warps[c].stalled && (best == kNoWarp || warps[c].age < warps[best].age)) best = c;
    if (best == kNoWarp) {  // every warp waits for memory: the replies arrive, oldest goes first
        for (std::uint32_t c = 0; c < count; ++c) {
            warps[c].stalled = false;
            if (warps[c].live() && (best == kNoWarp || warps[c].age < warps[best].age)) best = c;
        }
    }
    current = best;
    return best;
}

}  // namespace cachesim
