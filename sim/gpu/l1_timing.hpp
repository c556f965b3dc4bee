#pragma once
// Cycle timing's view of an SM's L1 (GpuConfig::timing cycles): when each sector's data arrives.
// A sector that hits is there after the hit latency, or when it arrives if it is still on its way
// (the chip counts such a request a hit, and the warp waits for the data); a sector that misses
// arrives after the L1-miss latency, or the DRAM latency where the L2 is not thought to hold it
// (l2_presence.hpp, with GpuConfig::lat_dram). Indexed by the L1's slot, so it follows the L1's
// lines.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "sim/gpu/gpu_config.hpp"
#include "sim/gpu/l2_presence.hpp"

namespace cachesim {

class L1Timing {
public:
    // l1_lines: lines of one SM's L1 (0: no L1, every load misses); sectors_per_line of the L1.
    L1Timing(const GpuConfig& config, std::uint64_t l1_lines, std::uint32_t sectors_per_line)
        : hit_(config.lat_l1_hit), miss_(config.lat_l1_miss), dram_(config.lat_dram),
          sectors_per_line_(sectors_per_line),
          sector_shift_(static_cast<std::uint32_t>(std::countr_zero(config.l1.sector_bytes))),
          presence_(config.sms, static_cast<std::uint32_t>(std::countr_zero(config.dram_fetch_bytes))) {
        arrival_.assign(config.sms, std::vector<std::uint64_t>(l1_lines * sectors_per_line, 0));
        if (config.l1_miss_bandwidth > 0)
            miss_gap_ = static_cast<std::uint64_t>(static_cast<double>(kFixed) / config.l1_miss_bandwidth + 0.5);
        port_free_.assign(config.sms, 0);
    }

    // The sectors `wanted` of the line at byte address `line_address`, in L1 slot `slot` of SM s,
    // looked up at cycle `now`; `hit`: those found valid (the others were just requested). Returns
    // when all of them are there.
    std::uint64_t serve(std::uint32_t s, std::uint32_t slot, std::uint64_t line_address, std::uint64_t wanted,
                        std::uint64_t hit, std::uint64_t now) {
        std::uint64_t* arrival = &arrival_[s][static_cast<std::size_t>(slot) * sectors_per_line_];
        std::uint64_t ready = now;
        for (std::uint64_t m = wanted; m; m &= m - 1) {
            const int i = std::countr_zero(m);
            if ((hit >> i) & 1u) {
                ready = std::max(ready, std::max(now + hit_, arrival[i]));
            } else {
                arrival[i] = sent(s, now) + miss_latency(s, line_address + (static_cast<std::uint64_t>(i) << sector_shift_));
                ready = std::max(ready, arrival[i]);
            }
        }
        return ready;
    }
    // A load of the line at `line_address` with no L1: every sector comes from the L2 (or DRAM).
    std::uint64_t uncached(std::uint32_t s, std::uint64_t line_address, std::uint64_t now) {
        return sent(s, now) + miss_latency(s, line_address);
    }
    // Between chunks of cycles (lockstep_run.hpp): what the SMs asked of the L2 is there now.
    void end_chunk() {
        if (dram_) presence_.merge();
    }
    // A new launch on the same L2 (GpuConfig::l2_start warm): the L1s start empty and the clock at
    // 0, the L2 keeps what the launch before asked for.
    void start_launch() {
        end_chunk();
        for (std::vector<std::uint64_t>& a : arrival_) std::fill(a.begin(), a.end(), 0);
        std::fill(port_free_.begin(), port_free_.end(), 0);
    }

private:
    static constexpr std::uint64_t kFixed = 1u << 16;  // port times in 1/65536 cycles
    // The cycle an L1 miss sector leaves SM s for the L2: with a bandwidth limit, the SM's port
    // to the L2 sends one sector every 1/bandwidth cycles, in the order the misses come.
    std::uint64_t sent(std::uint32_t s, std::uint64_t now) {
        if (miss_gap_ == 0) return now;
        std::uint64_t& free = port_free_[s];
        free = std::max(free, now * kFixed) + miss_gap_;
        return (free - miss_gap_) / kFixed;
    }

    // An L1 miss of SM s for `address`: from the L2, or from DRAM where no earlier chunk asked for it.
    std::uint64_t miss_latency(std::uint32_t s, std::uint64_t address) {
        if (dram_ == 0 || presence_.holds(address)) return miss_;
        presence_.note(s, address);
        return dram_;
    }

    std::uint64_t hit_, miss_, dram_;  // dram_ 0: every miss takes miss_
    std::uint32_t sectors_per_line_, sector_shift_;
    L2Presence presence_;
    std::vector<std::vector<std::uint64_t>> arrival_;  // per SM: per L1 slot and sector
    std::uint64_t miss_gap_ = 0;                      // fixed point cycles between miss sectors (0: no limit)
    std::vector<std::uint64_t> port_free_;            // per SM, fixed point: when its port is free
};

}  // namespace cachesim
