#pragma once
// Cycle timing's view of an SM's L1 (GpuConfig::timing cycles): when each sector's data arrives.
// A sector that hits is there after the hit latency, or when it arrives if it is still on its way
// (the chip counts such a request a hit, and the warp waits for the data); a sector that misses
// arrives after the L1-miss latency. Indexed by the L1's slot, so it follows the L1's lines.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "sim/gpu/gpu_config.hpp"

namespace cachesim {

class L1Timing {
public:
    // l1_lines: lines of one SM's L1 (0: no L1, every load misses); sectors_per_line of the L1.
    L1Timing(const GpuConfig& config, std::uint64_t l1_lines, std::uint32_t sectors_per_line)
        : hit_(config.lat_l1_hit), miss_(config.lat_l1_miss), sectors_per_line_(sectors_per_line) {
        arrival_.assign(config.sms, std::vector<std::uint64_t>(l1_lines * sectors_per_line, 0));
    }

    // The sectors `wanted` of the line in L1 slot `slot` of SM s, looked up at cycle `now`; `hit`:
    // those found valid (the others were just requested). Returns when all of them are there.
    std::uint64_t serve(std::uint32_t s, std::uint32_t slot, std::uint64_t wanted, std::uint64_t hit,
                        std::uint64_t now) {
        std::uint64_t* arrival = &arrival_[s][static_cast<std::size_t>(slot) * sectors_per_line_];
        std::uint64_t ready = now;
        for (std::uint64_t m = wanted; m; m &= m - 1) {
            const int i = std::countr_zero(m);
            if ((hit >> i) & 1u) {
                ready = std::max(ready, std::max(now + hit_, arrival[i]));
            } else {
                arrival[i] = now + miss_;
                ready = std::max(ready, arrival[i]);
            }
        }
        return ready;
    }
    // A load with no L1: every sector comes from the L2.
    std::uint64_t uncached(std::uint64_t now) const { return now + miss_; }

private:
    std::uint64_t hit_, miss_;
    std::uint32_t sectors_per_line_;
    std::vector<std::vector<std::uint64_t>> arrival_;  // per SM: per L1 slot and sector
};

}  // namespace cachesim
