// What the GPU model's threads write at every request lies on host cache lines (64 bytes) of its
// own: blocks made one after another share no line, so that two threads running neighbouring SMs,
// or writing their own counters, never write the same line (which cost two threads a third of
// their CPU time on the matmul).
#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "sim/gpu/gpu_counters.hpp"
#include "sim/gpu/host_line_allocator.hpp"
#include "sim/gpu/l2_event.hpp"
#include "sim/gpu/pod_vector.hpp"

namespace cachesim {
namespace {

constexpr std::uintptr_t kLine = 64;

// The host lines [first, last] that `bytes` bytes at p occupy.
std::pair<std::uintptr_t, std::uintptr_t> lines_of(const void* p, std::size_t bytes) {
    const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(p);
    return {at / kLine, (at + bytes - 1) / kLine};
}

// No two of the ranges share a line.
void expect_disjoint(const std::vector<std::pair<std::uintptr_t, std::uintptr_t>>& ranges) {
    for (std::size_t i = 0; i < ranges.size(); ++i)
        for (std::size_t j = i + 1; j < ranges.size(); ++j)
            EXPECT_TRUE(ranges[i].second < ranges[j].first || ranges[j].second < ranges[i].first)
                << "blocks " << i << " and " << j << " share a host line";
}

TEST(GpuHostLines, SmallHostVectorsMadeInTurnShareNoLine) {
    // A one-set cache's list head (one word), a few counters, a block just over a line.
    for (std::size_t n : {1u, 3u, 17u}) {
        std::vector<HostVector<std::uint32_t>> blocks;
        for (int i = 0; i < 32; ++i) blocks.emplace_back(n, 1u);
        std::vector<std::pair<std::uintptr_t, std::uintptr_t>> ranges;
        for (const auto& b : blocks) {
            EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b.data()) % kLine, 0u);
            ranges.push_back(lines_of(b.data(), b.size() * sizeof(std::uint32_t)));
        }
        expect_disjoint(ranges);
    }
}

TEST(GpuHostLines, EventListsGrownSideBySideShareNoLine) {
    // Lists appended to in turn, as SMs on different threads append their L2 events.
    std::vector<L2EventVector> lists(16);
    for (std::uint32_t round = 0; round < 40; ++round)
        for (L2EventVector& list : lists) list.push_back({round, round, 0, L2EventKind::load, 0});
    std::vector<std::pair<std::uintptr_t, std::uintptr_t>> ranges;
    for (const L2EventVector& list : lists) {
        ASSERT_EQ(list.size(), 40u);
        EXPECT_EQ(list[39].address, 39u);
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(list.begin()) % kLine, 0u);
        ranges.push_back(lines_of(list.begin(), list.size() * sizeof(L2Event)));
    }
    expect_disjoint(ranges);
}

TEST(GpuHostLines, EachThreadsCountersHaveLinesOfTheirOwn) {
    GpuCounters zero;
    zero.l1.per_array.assign(3, ArrayCounters{});  // the matmul's A, B and C
    zero.l2.per_array.assign(3, ArrayCounters{});
    const std::vector<GpuCounters> per_thread(4, zero);  // as the model makes them
    std::vector<std::pair<std::uintptr_t, std::uintptr_t>> ranges;
    for (const GpuCounters& c : per_thread) {
        ranges.push_back(lines_of(&c, sizeof c));
        ranges.push_back(lines_of(c.l1.per_array.data(), c.l1.per_array.size() * sizeof(ArrayCounters)));
        ranges.push_back(lines_of(c.l2.per_array.data(), c.l2.per_array.size() * sizeof(ArrayCounters)));
    }
    expect_disjoint(ranges);
}

}  // namespace
}  // namespace cachesim
