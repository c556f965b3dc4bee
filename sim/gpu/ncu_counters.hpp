#pragma once
// The counters Nsight Compute reports for a launch, under the names the GPU model fills them with.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

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

    NcuCounters& operator+=(const NcuCounters& o);
};

}  // namespace cachesim
