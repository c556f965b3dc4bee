#pragma once
// Loose round robin (GpuConfig::scheduler lrr): the turn passes to the next live warp after the
// one that issued last. A warp whose block starts late (block start skip) is passed over, which
// uses up one of its skipped turns.
#include <cstdint>

#include "sim/gpu/warp_slot.hpp"

namespace cachesim {

// The slot among warps[0, count) that issues next; `last` is the slot that issued last and
// becomes the one returned. At least one warp must be live.
inline std::uint32_t pick_round_robin(WarpSlot* warps, std::uint32_t count, std::uint32_t& last) {
    std::uint32_t c = last;
    for (;;) {  // ends: every pass lowers the skips, and a warp is live
        if (++c == count) c = 0;
        if (!warps[c].live()) continue;
        if (warps[c].skip == 0) break;
        --warps[c].skip;
    }
    last = c;
    return c;
}

}  // namespace cachesim
