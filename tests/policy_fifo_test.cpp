// FIFO ignores hits: the oldest fill goes first.
#include <gtest/gtest.h>

#include "sim/policies/fifo.hpp"
#include "tests/policy_test_util.hpp"

namespace cachesim {
namespace {

TEST(Fifo, EvictsOldestFillEvenIfRecentlyUsed) {
    Cache<FifoPolicy> cache(test::geometry_for(2, 0, PolicyKind::fifo), 1);
    // A B A C B: C evicts A (filled first) despite A's recent hit; B still hits.
    EXPECT_EQ(test::replay_lines(cache, {10, 11, 10, 12, 11}), "mmhmh");
    EXPECT_FALSE(cache.contains(10));
}

TEST(Fifo, CyclesThroughWaysInFillOrder) {
    Cache<FifoPolicy> cache(test::geometry_for(3, 0, PolicyKind::fifo), 1);
    EXPECT_EQ(test::replay_lines(cache, {1, 2, 3, 4, 5, 6, 4, 5, 6, 1}), "mmmmmmhhhm");
}

}  // namespace
}  // namespace cachesim
