#include "apps/cachesim/presets.hpp"

#include <cstdio>

#include "sim/gpu/gpu_presets.hpp"

namespace cachesim::cli {

namespace {

// A GPU preset as options: --model gpu and the hardware (SMs, residency limits, the unified L1
// with its carve-outs, both caches, the first wave's block order, how unevenly warps progress,
// how many requests a warp issues per turn and how far apart blocks start).
// The launch (--block), the later waves and the warp scheduler stay as given.
Preset gpu_preset(const GpuPreset& p) {
    const GpuConfig& c = p.config;
    std::string carveouts;
    for (std::uint32_t kib : c.carveouts_kib) carveouts += (carveouts.empty() ? "" : ",") + std::to_string(kib);
    auto n = [](std::uint64_t v) { return std::to_string(v); };
    char rate_spread[32];
    std::snprintf(rate_spread, sizeof rate_spread, "%.17g", c.warp_rate_spread);
    return {p.name, p.description,
            {{"model", "gpu"},
             {"sms", n(c.sms)},
             {"warp-size", n(c.warp_size)},
             {"threads-per-sm", n(c.max_threads_per_sm)},
             {"blocks-per-sm", n(c.max_blocks_per_sm)},
             {"regs-per-sm", n(c.regs_per_sm)},
             {"smem-reserved", n(c.smem_reserved_per_block)},
             {"unified-l1", n(c.unified_l1_bytes)},
             {"carveouts", carveouts},
             {"l1-size", c.l1_auto ? "auto" : n(c.l1.size_bytes)},
             {"l1-line", n(c.l1.line_bytes)},
             {"l1-sector", n(c.l1.sector_bytes)},
             {"l1-ways", c.l1.ways == 0 ? "full" : n(c.l1.ways)},
             {"l1-policy", std::string(policy_name(c.l1.policy))},
             {"l1-write", "through"},
             {"l2-size", n(c.l2.size_bytes)},
             {"l2-line", n(c.l2.line_bytes)},
             {"l2-sector", n(c.l2.sector_bytes)},
             {"l2-ways", c.l2.ways == 0 ? "full" : n(c.l2.ways)},
             {"l2-policy", std::string(policy_name(c.l2.policy))},
             {"l2-write", "back"},
             {"cta-order", std::string(cta_order_name(c.cta_order))},
             {"l2-partitions", n(c.l2_partitions)},
             {"l2-partition-map", std::string(partition_map_name(c.partition_map))},
             {"l2-fill", std::string(partition_fill_name(c.partition_fill))},
             {"l2-index", c.l2_hashed_sets ? "hash" : "mod"},
             {"dram-fetch", n(c.dram_fetch_bytes)},
             {"l2-coalesce-hit", n(c.l2_coalesce_hit_rounds)},
             {"l2-coalesce-miss", n(c.l2_coalesce_miss_rounds)},
             {"l2-coalesce-max", n(c.l2_coalesce_requesters)},
             {"l2-coalesce-among", std::string(coalesce_scope_name(c.l2_coalesce_scope))},
             {"warp-rate-spread", rate_spread},
             {"issue-burst", c.issue_burst == kIssueBurstAuto ? "auto" : n(c.issue_burst)},
             {"block-start-skip", n(c.block_start_skip)}}};
}

}  // namespace

const std::vector<Preset>& presets() {
    static const std::vector<Preset> table = [] {
        std::vector<Preset> t = {
        {"thesis-stencil",
         "thesis Table 3.1: 7x7 stencil on 16x16, one fully associative LRU cache of 24 lines of "
         "16 B, no L2 (the default)",
         {{"workload", "stencil"}, {"size", "16x16"}, {"stencil", "7x7"}, {"l1-size", "384"},
          {"l1-line", "16"}, {"l1-ways", "full"}, {"l1-policy", "lru"}, {"l2-size", "0"}}},
        {"thesis-matmul",
         "thesis Table 3.2: 16x16x16 matmul, one fully associative LRU cache of 32 lines of 16 B, "
         "no L2",
         {{"workload", "matmul"}, {"size", "16x16"}, {"depth", "16"}, {"l1-size", "512"},
          {"l1-line", "16"}, {"l1-ways", "full"}, {"l1-policy", "lru"}, {"l2-size", "0"}}},
        };
        for (const GpuPreset& p : gpu_presets()) t.push_back(gpu_preset(p));
        return t;
    }();
    return table;
}

const Preset* find_preset(const std::string& name) {
    for (const Preset& p : presets())
        if (p.name == name) return &p;
    return nullptr;
}

std::string preset_names() {
    std::string names;
    for (const Preset& p : presets()) names += (names.empty() ? "" : ", ") + p.name;
    return names;
}

}  // namespace cachesim::cli
