#include "sim/gpu/ncu_counters.hpp"

#include "traces/ncu_metrics.hpp"

namespace cachesim {

std::vector<std::pair<std::string, double>> NcuCounters::metrics() const {
    return {
        {std::string(ncu::kL1Requests), static_cast<double>(l1_requests_ld)},
        {std::string(ncu::kL1Sectors), static_cast<double>(l1_sectors_ld)},
        {std::string(ncu::kL1SectorHits), static_cast<double>(l1_sectors_ld_hit)},
        {std::string(ncu::kL1HitRate), l1_hit_rate_pct()},
        {std::string(ncu::kL2Sectors), static_cast<double>(l2_sectors_tex_read)},
        {std::string(ncu::kL2SectorHits), static_cast<double>(l2_sectors_tex_read_hit)},
        {std::string(ncu::kL2SectorMisses), static_cast<double>(l2_sectors_tex_read_miss)},
        {std::string(ncu::kL2FabricSectors), static_cast<double>(l2_sectors_fabric_read)},
        {std::string(ncu::kL2FabricSectorHits), static_cast<double>(l2_sectors_fabric_read_hit)},
        {std::string(ncu::kL2CoalescedSectors), static_cast<double>(l2_sectors_coalesced)},
        {std::string(ncu::kL2ReadHitRate), l2_read_hit_rate_pct()},
        {std::string(ncu::kDramBytesRead), static_cast<double>(dram_bytes_read)},
    };
}

NcuCounters& NcuCounters::operator+=(const NcuCounters& o) {
    l1_requests_ld += o.l1_requests_ld;
    l1_sectors_ld += o.l1_sectors_ld;
    l1_sectors_ld_hit += o.l1_sectors_ld_hit;
    l2_sectors_tex_read += o.l2_sectors_tex_read;
    l2_sectors_tex_read_hit += o.l2_sectors_tex_read_hit;
    l2_sectors_tex_read_miss += o.l2_sectors_tex_read_miss;
    l2_sectors_fabric_read += o.l2_sectors_fabric_read;
    l2_sectors_fabric_read_hit += o.l2_sectors_fabric_read_hit;
    dram_bytes_read += o.dram_bytes_read;
    l2_sectors_coalesced += o.l2_sectors_coalesced;
    return *this;
}

}  // namespace cachesim
