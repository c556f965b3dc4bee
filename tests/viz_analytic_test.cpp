// The thesis's formulas evaluated by hand for its Tables 3.1 / 3.2, and checked against the
// simulator where the thesis states a bound.
#include <gtest/gtest.h>

#include "sim/thread_model.hpp"
#include "tests/stencil_reference.hpp"
#include "traces/workload_source.hpp"
#include "viz/analytic.hpp"

using namespace cachesim;
using namespace cachesim::viz::analytic;

// Table 3.1: 7x7 stencil on 16x16, L = 16 B / 4 B = 4 elements, M_l = 24 lines (384 B).
TEST(VizAnalytic, StencilFormulasByHand) {
    EXPECT_EQ(naive_stencil_lines(16, 7, 7, 4), 42u);          // ceil(23/4) * 7 = 6 * 7
    EXPECT_EQ(tiled_stencil_lines(4, 7, 7, 4), 21u);           // ceil(11/4) * 7 = 3 * 7
    EXPECT_NEAR(max_stencil_tile(4, 24, 7, 7), 96.0 / 7 - 7, 1e-12);  // 6.714...
    EXPECT_EQ(naive_stencil_fetches_worst(16, 16, 7, 7, 4), 672u);    // 6 * 16 * 7
    EXPECT_EQ(naive_stencil_fetches_fitting(16, 16, 7, 4), 96u);      // 6 * 16
    EXPECT_EQ(tiled_stencil_fetches(16, 16, 4, 4, 7, 7, 4), 4u * 3 * 4 * 11);  // eq. 3.5 = 528
    EXPECT_EQ(column_stencil_fetches(16, 16, 4, 7, 7, 4), 4u * 3 * 23);        // eq. 4.8 = 276
    EXPECT_NEAR(recommended_stencil_column(384, 4, 7, 7, 1), (384.0 - 4 * 50) / 28, 1e-12);  // 6.57
}

// Table 3.2: 16x16 matmul, D = 16, L = 4, M_l = 32 lines (512 B); the thesis's column 8.
TEST(VizAnalytic, MatmulFormulasByHand) {
    EXPECT_EQ(naive_matmul_lines(16, 4), 20u);                      // 4 + 16
    EXPECT_EQ(full_reuse_matmul_lines(16, 16, 4), 68u);             // 4 + 64
    EXPECT_EQ(naive_matmul_fetches_row_reuse(16, 16, 16, 4), 4160u);   // 4*16 + 16*16*16
    EXPECT_EQ(naive_matmul_fetches_no_reuse(16, 16, 16, 4), 5120u);    // 20 * 256
    EXPECT_EQ(full_reuse_matmul_fetches(16, 16, 16, 4), 128u);         // 4*16 + 4*16
    EXPECT_EQ(column_matmul_lines(16, 16, 8, 4), 36u);                 // 4 + 16*2
    EXPECT_DOUBLE_EQ(recommended_matmul_column(512, 4, 16), 8.0);       // Table 3.2's column size
}

TEST(VizAnalytic, SummaryPicksTheApplicableFetchFigure) {
    WorkloadSpec w;
    CacheConfig l1;
    l1.size_bytes = 384;
    l1.line_bytes = 16;
    Summary s = summarize(w, l1);
    ASSERT_TRUE(s.fetch_bound);
    EXPECT_EQ(*s.fetch_bound, 672.0);  // eq. 3.2 not satisfied (24 < 42): worst case
    EXPECT_EQ(s.recommended_column, 6u);
    w.schedule = parse_schedule("column:4");
    s = summarize(w, l1);
    ASSERT_TRUE(s.fetch_bound);
    EXPECT_EQ(*s.fetch_bound, 276.0);
    EXPECT_EQ(s.fetch_equation, "eq. 4.8");

    WorkloadSpec m;
    m.kind = WorkloadKind::matmul;
    CacheConfig c32;
    c32.size_bytes = 512;
    c32.line_bytes = 16;
    s = summarize(m, c32);
    ASSERT_TRUE(s.fetch_bound);
    EXPECT_EQ(s.fetch_equation, "eq. 3.7");  // 32 > 20 but not > 68
    EXPECT_EQ(*s.fetch_bound, 4160.0);
    EXPECT_EQ(s.recommended_column, 8u);
}

namespace {

std::uint64_t input_read_misses(const WorkloadSpec& w, std::uint64_t l1_bytes) {
    HierarchyConfig h;
    h.l1.size_bytes = l1_bytes;
    h.l1.line_bytes = 16;
    WorkloadSource source(w);
    const SimulationResult r = simulate_thread_model(source, h);
    return r.levels[0].read_misses;  // stores do not look up L1; every read is of an input array
}

}  // namespace

// The bounds hold for the simulator: naive within [fitting, worst], column 4 under eq. 4.8, and
// a cache satisfying eq. 3.2 reaches the fitting figure exactly.
TEST(VizAnalytic, SimulatedFetchesRespectTheBounds) {
    WorkloadSpec w;
    const std::uint64_t naive = input_read_misses(w, 384);
    EXPECT_EQ(naive, test::thesis_table31_read_misses());  // the textbook LRU cache's count
    EXPECT_LE(naive, 672u);
    EXPECT_GE(naive, 96u);
    w.schedule = parse_schedule("column:4");
    EXPECT_LE(input_read_misses(w, 384), 276u);
    w.schedule = parse_schedule("linear");
    EXPECT_EQ(input_read_misses(w, 42 * 16), 64u);  // whole `in` (64 lines) fetched once
}
