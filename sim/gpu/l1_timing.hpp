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
#include "sim/gpu/partition_routing.hpp"

namespace cachesim {

class L1Timing {
public:
    // l1_lines: lines of one SM's L1 (0: no L1, every load misses); sectors_per_line of the L1.
    L1Timing(const GpuConfig& config, std::uint64_t l1_lines, std::uint32_t sectors_per_line)
        : hit_(config.lat_l1_hit), miss_(config.lat_l1_miss), dram_(config.lat_dram),
          sectors_per_line_(sectors_per_line),
          sector_shift_(static_cast<std::uint32_t>(std::countr_zero(config.l1.sector_bytes))),
          presence_(config.sms, static_cast<std::uint32_t>(std::countr_zero(config.dram_fetch_bytes))),
          copies_(config.sms, static_cast<std::uint32_t>(std::countr_zero(config.dram_fetch_bytes))) {
        if (config.lat_l2_far && config.l2.enabled() && config.l2_partitions == 2 &&
            config.partition_fill == PartitionFill::home) {
            far_ = config.lat_l2_far;
            near_ = near_partitions(config, 2);
            l2_line_shift_ = static_cast<std::uint32_t>(std::countr_zero(config.l2.line_bytes));
        }
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
                arrival[i] = miss_arrival(s, line_address + (static_cast<std::uint64_t>(i) << sector_shift_), sent(s, now));
                ready = std::max(ready, arrival[i]);
            }
        }
        return ready;
    }
    // A load of the line at `line_address` with no L1: every sector comes from the L2 (or DRAM).
    std::uint64_t uncached(std::uint32_t s, std::uint64_t line_address, std::uint64_t now) {
        return miss_arrival(s, line_address, sent(s, now));
    }
    // Between chunks of cycles (lockstep_run.hpp): what the SMs asked of the L2 is there now.
    void end_chunk() {
        if (dram_) presence_.merge();
        if (far_) copies_.merge();
    }
    // A new launch on the same L2 (GpuConfig::l2_start warm): the L1s start empty and the clock at
    // 0, the L2 keeps what the launch before asked for.
    void start_launch() {
        if (dram_) presence_.settle();
        if (far_) copies_.settle();
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

    // When the data of SM s's L1 miss for `address`, sent to the L2 at cycle `at`, arrives: from
    // the L2, or from DRAM where no earlier chunk asked for it, or when the DRAM read an earlier
    // chunk started arrives, if that is later than an L2 hit would be.
    std::uint64_t miss_arrival(std::uint32_t s, std::uint64_t address, std::uint64_t at) {
        const std::uint64_t l2_hit = at + l2_latency(s, address);
        if (dram_ == 0) return l2_hit;
        const std::uint64_t dram_read = presence_.arrival(address);
        if (dram_read != L2Presence::kAbsent) return std::max(l2_hit, dram_read);
        presence_.note(s, address, at + dram_);
        return at + dram_;
    }
    // An L2 hit's latency for SM s: from the far half where the line's home is the other
    // partition and SM s's partition has no copy yet (it keeps one from now on).
    std::uint64_t l2_latency(std::uint32_t s, std::uint64_t address) {
        if (far_ == 0) return miss_;
        const std::uint32_t near = near_[s];
        if (l2_home_partition(address >> l2_line_shift_) == near || copies_.holds(address, near)) return miss_;
        copies_.note(s, address, 0, near);
        return far_;
    }

    std::uint64_t hit_, miss_, dram_;  // dram_ 0: every miss takes miss_
    std::uint32_t sectors_per_line_, sector_shift_;
    L2Presence presence_;
    // Two partitions and lat_l2_far: the granules each partition holds a copy of (tag: partition),
    // the SMs' partitions and the L2's line size.
    L2Presence copies_;
    std::uint64_t far_ = 0;
    std::vector<std::uint32_t> near_;
    std::uint32_t l2_line_shift_ = 7;
    std::vector<std::vector<std::uint64_t>> arrival_;  // per SM: per L1 slot and sector
    std::uint64_t miss_gap_ = 0;                      // fixed point cycles between miss sectors (0: no limit)
    std::vector<std::uint64_t> port_free_;            // per SM, fixed point: when its port is free
};

}  // namespace cachesim
