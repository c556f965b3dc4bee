// Partition routing alone: each SM's near L2 partition under each GpuConfig::partition_map, and
// the home partitions' split of the lines.
#include <gtest/gtest.h>

#include <vector>

#include "sim/gpu/gpu_presets.hpp"
#include "sim/gpu/partition_routing.hpp"

namespace cachesim {
namespace {

using Parts = std::vector<std::uint32_t>;

GpuConfig gpu(std::uint32_t sms) {
    GpuConfig c = with_sms(find_gpu_preset("h200")->config, sms);
    c.floorplan = {};
    return c;
}

TEST(GpuPartitionRouting, NearPartitionBySmIndex) {
    GpuConfig c = gpu(5);
    c.partition_map = PartitionMap::halves;  // s * 2 / 5: 0 0 0 1 1
    EXPECT_EQ(near_partitions(c, 2), (Parts{0, 0, 0, 1, 1}));
    c.partition_map = PartitionMap::interleaved;
    EXPECT_EQ(near_partitions(c, 2), (Parts{0, 1, 0, 1, 0}));
    EXPECT_EQ(near_partitions(c, 1), (Parts{0, 0, 0, 0, 0}));  // one partition: all near it
}

TEST(GpuPartitionRouting, FloorplanTableIsTakenAsMeasured) {
    GpuConfig c = gpu(4);
    c.partition_map = PartitionMap::floorplan;
    c.floorplan.sm_partition = {1, 0, 0, 1};
    EXPECT_EQ(near_partitions(c, 2), (Parts{1, 0, 0, 1}));
}

// Any run of consecutive lines is split about evenly between the two homes.
TEST(GpuPartitionRouting, HomesSplitAddressRangesInHalves) {
    for (std::uint64_t start : {0ull, 1ull << 20, 123456789ull}) {
        std::uint64_t at_one = 0;
        for (std::uint64_t line = start; line < start + 4096; ++line) {
            const std::uint32_t home = l2_home_partition(line);
            ASSERT_LE(home, 1u);
            at_one += home;
        }
        EXPECT_NEAR(static_cast<double>(at_one), 2048.0, 160.0) << start;
    }
}

}  // namespace
}  // namespace cachesim
