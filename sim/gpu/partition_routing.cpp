#include "sim/gpu/partition_routing.hpp"

namespace cachesim {

std::uint32_t l2_home_partition(std::uint64_t line) {
    std::uint64_t h = line * 0xd6e8feb86659fd93ull;
    h ^= h >> 32;
    return static_cast<std::uint32_t>(h & 1u);
}

std::vector<std::uint32_t> near_partitions(const GpuConfig& config, std::uint32_t partitions) {
    std::vector<std::uint32_t> near(config.sms, 0);
    if (partitions == 1) return near;
    for (std::uint32_t s = 0; s < config.sms; ++s)
        near[s] = config.partition_map == PartitionMap::floorplan   ? config.floorplan.sm_partition[s]
                  : config.partition_map == PartitionMap::interleaved ? s % partitions
                                                                      : static_cast<std::uint32_t>(
                                                                            static_cast<std::uint64_t>(s) * partitions /
                                                                            config.sms);
    return near;
}

}  // namespace cachesim
