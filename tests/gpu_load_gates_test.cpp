// Load gates (cycle timing, --load-gates sass): a load that follows an add in the compiled loop
// waits for the loads the add consumes. The gates read off SASS strings by hand, and one warp's
// issue cycles with them worked by hand (L1 hit 10 cycles, miss 100).
#include <gtest/gtest.h>

#include <vector>

#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "sim/gpu/load_gates.hpp"
#include "tests/gpu_issue_order.hpp"
#include "tests/gpu_test_util.hpp"

namespace cachesim {
namespace {

using Gates = std::vector<std::uint32_t>;

TEST(GpuLoadGates, ReadOffTheSass) {
    // Multiply-adds consume two loads each: the third load follows one add (loads 0-1); the
    // fourth follows three, which would consume loads 0-5, but only loads 0-2 come before it;
    // the fifth likewise waits for loads 0-3.
    EXPECT_EQ(gates_of("LLFLFFLL", 2, 2), (Gates{0, 0, 2, 3, 4}));
    // Stencil adds: the first consumes two loads, every later one one more.
    EXPECT_EQ(gates_of("LLLFLFFL", 1, 2), (Gates{0, 0, 0, 2, 4}));
    // An add never waits for a load that comes after it.
    EXPECT_EQ(gates_of("LFFFFL", 2, 2), (Gates{0, 1}));
    // gpubench's matmul as compiled (index64): 32 loads, 16 multiply-adds, in
    // LLLLLL F LL F LLL F L FF LL F LLLL F LL F L F LLL FF LLLLLLLL FFFFF.
    GpuConfig c = find_gpu_preset("h200")->config;
    const Gates want{0,  0,  0,  0,  0,  0,  2,  2,  4,  4,  4,  6,  10, 10, 12, 12,
                     12, 12, 14, 14, 16, 18, 18, 18, 22, 22, 22, 22, 22, 22, 22, 22};
    EXPECT_EQ(load_gates(c, test::matmul(64, 64, 64), 32), want);
    EXPECT_TRUE(load_gates(c, test::matmul(64, 64, 64), 16).empty()) << "another burst: another loop";
    c.load_gates = LoadGates::burst;
    EXPECT_TRUE(load_gates(c, test::matmul(64, 64, 64), 32).empty());
    c.load_gates = LoadGates::sass;
    EXPECT_TRUE(load_gates(c, test::stencil(64, 64, 11), 121).empty()) << "no SASS of that loop";
    EXPECT_EQ(load_gates(c, test::stencil(64, 64, 3), 9), Gates(9, 0)) << "3x3: every load before the first add";
}

// One warp of a matmul 32x1, depth 16: one iteration, loads A[0][i] (even k) and B row i (odd k).
// A's sector 0 (i 0-7) misses at cycle 0 (data at 100), its later reads hit it on its way; every B
// row misses. Loads 0-5 issue in cycles 0-5 (data at 100, 101, 100, 103, 100, 105). Load 6 waits
// for loads 0-1 (101); load 7 needs the same; loads 8-10 need 0-3 (103), load 11 needs 0-5 (105):
// cycles 101-106. Load 12 needs loads 0-9, and B row 4 (load 9, issued at 104) arrives at 204.
TEST(GpuLoadGates, AWarpWaitsInsideItsIteration) {
    GpuConfig c = find_gpu_preset("h200")->config;
    c.timing = IssueTiming::cycles;
    c.lat_l1_hit = 10;
    c.lat_l1_miss = 100;
    const std::vector<GpuIssue> log = test::issue_log_on_one_sm(test::matmul(32, 1, 16), c);
    const std::vector<std::uint64_t> cycles{0, 1, 2, 3, 4, 5, 101, 102, 103, 104, 105, 106, 204};
    ASSERT_GE(log.size(), cycles.size());
    for (std::size_t k = 0; k < cycles.size(); ++k) {
        EXPECT_EQ(log[k].k, k);
        EXPECT_EQ(log[k].round, 4 * cycles[k]) << "load " << k << ": scheduler 0, tick 4c";
    }
}

}  // namespace
}  // namespace cachesim
