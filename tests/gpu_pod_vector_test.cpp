// PodVector (sim/gpu/pod_vector.hpp), the GPU model's buffer of events and coalesced lines: it
// keeps what is appended, in order, across growth, copies, moves and clears, as std::vector does.
#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "sim/gpu/pod_vector.hpp"

namespace cachesim {
namespace {

struct Pair {
    std::uint64_t a;
    std::uint32_t b;
};

std::vector<std::uint64_t> firsts(const PodVector<Pair>& v) {
    std::vector<std::uint64_t> out;
    for (const Pair& p : v) out.push_back(p.a);
    return out;
}

TEST(PodVector, KeepsAppendsInOrderAcrossGrowth) {
    PodVector<Pair> v;
    EXPECT_TRUE(v.empty());
    std::vector<std::uint64_t> expected;
    for (std::uint64_t i = 0; i < 1000; ++i) {  // several doublings from the first 16
        v.push_back({i * 3, static_cast<std::uint32_t>(i)});
        expected.push_back(i * 3);
    }
    ASSERT_EQ(v.size(), 1000u);
    EXPECT_EQ(firsts(v), expected);
    EXPECT_EQ(v[999].b, 999u);
    EXPECT_EQ(v.back().a, 2997u);
    v.back().b = 7;
    EXPECT_EQ(v[999].b, 7u);
}

TEST(PodVector, ClearKeepsNothingAndAppendsAgain) {
    PodVector<Pair> v;
    for (std::uint64_t i = 0; i < 40; ++i) v.push_back({i, 0});
    v.clear();
    EXPECT_TRUE(v.empty());
    EXPECT_EQ(v.begin(), v.end());
    v.push_back({5, 1});
    ASSERT_EQ(v.size(), 1u);
    EXPECT_EQ(v[0].a, 5u);
}

TEST(PodVector, CopiesAreIndependentAndMovesTakeTheContents) {
    PodVector<Pair> v;
    for (std::uint64_t i = 0; i < 20; ++i) v.push_back({i, 0});
    PodVector<Pair> copy(v);
    copy.push_back({99, 0});
    copy[0].a = 42;
    EXPECT_EQ(v.size(), 20u);
    EXPECT_EQ(v[0].a, 0u);
    EXPECT_EQ(copy.size(), 21u);
    EXPECT_EQ(copy[0].a, 42u);

    PodVector<Pair> assigned;
    assigned.push_back({1, 1});
    assigned = v;
    EXPECT_EQ(firsts(assigned), firsts(v));
    assigned = assigned;  // self-assignment keeps the contents
    EXPECT_EQ(assigned.size(), 20u);

    PodVector<Pair> moved(std::move(copy));
    EXPECT_EQ(moved.size(), 21u);
    EXPECT_EQ(moved[20].a, 99u);
    EXPECT_TRUE(copy.empty());  // NOLINT(bugprone-use-after-move): a moved-from vector is empty
    PodVector<Pair> target;
    target = std::move(moved);
    EXPECT_EQ(target.size(), 21u);
    EXPECT_TRUE(moved.empty());  // NOLINT(bugprone-use-after-move)
    moved.push_back({3, 3});     // and usable again
    EXPECT_EQ(moved.size(), 1u);
}

TEST(PodVector, ReserveKeepsTheContentsAndSpanSeesThem) {
    PodVector<Pair> v;
    v.push_back({8, 0});
    v.reserve(5000);
    v.push_back({9, 0});
    const std::span<const Pair> s = v;
    ASSERT_EQ(s.size(), 2u);
    EXPECT_EQ(s[0].a, 8u);
    EXPECT_EQ(s[1].a, 9u);
}

}  // namespace
}  // namespace cachesim
