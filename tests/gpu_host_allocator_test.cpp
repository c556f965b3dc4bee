// HostLineAllocator: blocks start on a host cache line; blocks of 1 MiB or more are mapped on
// their own at a 2 MiB boundary (huge pages asked for); both hold what is written to them.
#include <gtest/gtest.h>

#include <cstdint>

#include "sim/gpu/host_line_allocator.hpp"

namespace cachesim {
namespace {

std::uintptr_t address_of(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

TEST(HostAllocator, SmallBlocksStartOnAHostLine) {
    for (std::size_t n : {1u, 3u, 17u, 1000u}) {
        HostVector<std::uint64_t> v(n, 7);
        EXPECT_EQ(address_of(v.data()) % 64, 0u) << n;
        for (std::uint64_t x : v) EXPECT_EQ(x, 7u);
    }
}

TEST(HostAllocator, LargeBlocksStartOnA2MiBBoundaryAndKeepTheirValues) {
    // 1 MiB exactly (the threshold), just under 2 MiB (the L2's tag array per partition), and a
    // block of several huge pages that is not a whole number of them.
    for (std::size_t bytes : {std::size_t{1} << 20, (std::size_t{2} << 20) - 8, (std::size_t{5} << 20) + 24}) {
        const std::size_t n = bytes / sizeof(std::uint64_t);
        HostVector<std::uint64_t> v(n);
        EXPECT_EQ(address_of(v.data()) % (std::size_t{2} << 20), 0u) << bytes;
        for (std::size_t i = 0; i < n; ++i) v[i] = i * 3 + 1;
        std::uint64_t sum = 0;
        for (std::uint64_t x : v) sum += x;
        // sum of 3i + 1 over i < n
        EXPECT_EQ(sum, 3 * (static_cast<std::uint64_t>(n) * (n - 1) / 2) + n) << bytes;
    }
}

TEST(HostAllocator, JustUnderTheThresholdIsAnOrdinaryBlock) {
    const std::size_t n = ((std::size_t{1} << 20) - 64) / sizeof(std::uint64_t);
    HostVector<std::uint64_t> v(n, 5);
    EXPECT_EQ(address_of(v.data()) % 64, 0u);
    EXPECT_EQ(v.front(), 5u);
    EXPECT_EQ(v.back(), 5u);
}

TEST(HostAllocator, OverAlignedElementsKeepTheirAlignment) {
    struct alignas(128) Wide {
        std::uint64_t x = 9;
    };
    HostVector<Wide> small(3), large((std::size_t{3} << 20) / sizeof(Wide));
    EXPECT_EQ(address_of(small.data()) % 128, 0u);
    EXPECT_EQ(address_of(large.data()) % (std::size_t{2} << 20), 0u);
    EXPECT_EQ(large.back().x, 9u);
}

}  // namespace
}  // namespace cachesim
