#pragma once
// Which L2 partition an SM's requests reach first (its near partition), and which partition is the
// home of a line when partitions fill from their home (PartitionFill::home).
#include <cstdint>
#include <vector>

#include "sim/gpu/gpu_config.hpp"

namespace cachesim {

// With two L2 partitions and PartitionFill::home: the partition (0 or 1) that is the home of an L2
// line (a hash of the line address, so that both halves get half of any address range).
std::uint32_t l2_home_partition(std::uint64_t line);

// SM -> its near partition among `partitions` (1: all 0), by GpuConfig::partition_map.
std::vector<std::uint32_t> near_partitions(const GpuConfig& config, std::uint32_t partitions);

}  // namespace cachesim
