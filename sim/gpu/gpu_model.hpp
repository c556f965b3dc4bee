#pragma once
// The GPU execution model: a launch of blocks of threads, warps issuing coalesced requests on SMs
// that advance in step, a private sectored L1 per SM and a shared (optionally two-partition) L2.
// See README "GPU model" for the semantics.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sim/gpu/gpu_config.hpp"
#include "sim/level_stats.hpp"
#include "sim/thread_model.hpp"
#include "traces/workload_spec.hpp"

namespace cachesim {

// The counters Nsight Compute reports for the same launch, summed over SMs (global loads only).
struct NcuCounters {
    std::uint64_t l1_requests_ld = 0;           // l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
    std::uint64_t l1_sectors_ld = 0;            // l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
    std::uint64_t l1_sectors_ld_hit = 0;        // l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
    std::uint64_t l2_sectors_tex_read = 0;      // lts__t_sectors_srcunit_tex_op_read.sum
    std::uint64_t l2_sectors_tex_read_hit = 0;  // lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
    // Sectors the near partition asked of DRAM or the far half on those lookups' misses: the
    // --dram-fetch granule less what it held, as the H200 counts them (l1probe --pending).
    std::uint64_t l2_sectors_tex_read_miss = 0;  // lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum
    std::uint64_t l2_sectors_fabric_read = 0;      // lts__t_sectors_srcunit_ltcfabric_op_read.sum
    std::uint64_t l2_sectors_fabric_read_hit = 0;  // lts__t_sectors_srcunit_ltcfabric_op_read_lookup_hit.sum
    std::uint64_t dram_bytes_read = 0;          // dram__bytes_read.sum
    // L1 sector misses that joined another SM's identical request on its way to the L2 (no L2
    // lookup of their own): L1 misses = L2 tex reads + these.
    std::uint64_t l2_sectors_coalesced = 0;  // lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum

    double l1_hit_rate_pct() const {  // l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct
        return l1_sectors_ld ? 100.0 * static_cast<double>(l1_sectors_ld_hit) / static_cast<double>(l1_sectors_ld) : 0.0;
    }
    double l2_hit_rate_pct() const {  // of the lookups from the L1s (srcunit tex)
        return l2_sectors_tex_read ? 100.0 * static_cast<double>(l2_sectors_tex_read_hit) / static_cast<double>(l2_sectors_tex_read) : 0.0;
    }
    // Over all L2 read lookups, from the L1s and over the link between the partitions
    // (lts__t_sector_op_read_hit_rate.pct, the rate the H200 measurements compare against).
    double l2_read_hit_rate_pct() const {
        const double lookups = static_cast<double>(l2_sectors_tex_read + l2_sectors_fabric_read);
        return lookups > 0 ? 100.0 * static_cast<double>(l2_sectors_tex_read_hit + l2_sectors_fabric_read_hit) / lookups
                           : 0.0;
    }
    // Metric name -> value, in a fixed order.
    std::vector<std::pair<std::string, double>> metrics() const;
};

struct GpuResult {
    // levels: "L1" (summed over SMs), "L2" (summed over partitions); steps: work items;
    // accesses/reads/writes: thread-level (active lanes of each request).
    SimulationResult result;
    NcuCounters ncu;
    GpuOccupancy occupancy;
    CacheConfig l1;  // the L1 as simulated (size resolved from the carve-out)
    std::uint64_t blocks = 0, warps = 0;
    std::uint64_t rounds = 0;  // scheduling rounds: every SM with work issues one request
    std::uint64_t load_requests = 0, store_requests = 0;
    std::uint64_t load_sectors = 0, store_sectors = 0;
    // Two partitions: sectors near misses looked up in the far partition, and those it served
    // (no DRAM read); the ncu fabric counters under their own names.
    std::uint64_t l2_far_lookups() const { return ncu.l2_sectors_fabric_read; }
    std::uint64_t l2_far_hits() const { return ncu.l2_sectors_fabric_read_hit; }

    double l2_read_hit_rate_pct() const { return ncu.l2_read_hit_rate_pct(); }

    std::uint64_t requests() const { return load_requests + store_requests; }
    double requests_per_second() const { return result.seconds > 0 ? requests() / result.seconds : 0.0; }
    double sector_lookups_per_second() const {
        return result.seconds > 0 ? (load_sectors + store_sectors) / result.seconds : 0.0;
    }
};

// With two L2 partitions and PartitionFill::home: the partition (0 or 1) that is the home of an L2
// line (a hash of the line address, so that both halves get half of any address range).
std::uint32_t l2_home_partition(std::uint64_t line);

// Later waves: among the SMs that free a block slot in the same round, the one with the smallest
// rank receives the next block first (CtaRefill::sm_order: the SM index itself).
std::uint64_t cta_refill_rank(const GpuConfig& config, std::uint64_t round, std::uint32_t sm);
// The most requests per turn of the round robin that warp `warp` of launch block `block` issues
// (GpuConfig::warp_rate_spread): min(1, exp(spread * (z - 3))), z a standard normal drawn from the
// seed, the block and the warp. 1 when the spread is 0.
double warp_issue_rate(const GpuConfig& config, std::uint64_t block, std::uint32_t warp);
// The same rate as the scheduler uses it: fixed point, kWarpCreditOne = one request (>= 1).
inline constexpr std::uint64_t kWarpCreditOne = 1ull << 32;
std::uint64_t warp_issue_credit(const GpuConfig& config, std::uint64_t block, std::uint32_t warp);
// The requests a warp issues per turn of the round robin (GpuConfig::issue_burst, "auto" resolved
// for the workload); 1 under gto, which issues greedily anyway.
std::uint32_t issue_burst_for(const GpuConfig& config, const WorkloadSpec& spec);
// The turns of the round robin that the warps of launch block `block` are passed over before their
// first request (GpuConfig::block_start_skip): drawn from the seed and the block, 0..skip.
std::uint32_t block_start_skip_turns(const GpuConfig& config, std::uint64_t block);

// Runs one launch of `spec` (block size and hardware from `config`). RunControl: the observer sees
// every SM's L1 as level 0 and the L2 as level 1, and on_step_end once per round; progress and
// cancel are checked between rounds. Throws SimulationError for an invalid configuration.
GpuResult simulate_gpu_model(const WorkloadSpec& spec, const GpuConfig& config,
                             const RunControl& control = {});

}  // namespace cachesim
