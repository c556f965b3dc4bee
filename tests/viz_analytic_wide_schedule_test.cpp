// A column or tile wider than the array is the array (the schedule cuts it at the edge), so the
// thesis's figures for it are those of a column or tile exactly as wide as the array.
#include <gtest/gtest.h>

#include "traces/workload_spec.hpp"
#include "viz/analytic.hpp"

using namespace cachesim;
using namespace cachesim::viz::analytic;

namespace {

WorkloadSpec workload(WorkloadKind kind, const char* schedule) {
    WorkloadSpec w;  // 16x16 work items, 7x7 stencil, D = 16, 4-byte elements
    w.kind = kind;
    w.schedule = parse_schedule(schedule);
    return w;
}

CacheConfig cache(std::uint64_t bytes) {
    CacheConfig c;
    c.size_bytes = bytes;
    c.line_bytes = 16;  // L = 4 elements
    return c;
}

void expect_same_summary(const Summary& a, const Summary& b) {
    ASSERT_EQ(a.items.size(), b.items.size());
    for (std::size_t i = 0; i < a.items.size(); ++i) {
        EXPECT_EQ(a.items[i].equation, b.items[i].equation);
        EXPECT_EQ(a.items[i].meaning, b.items[i].meaning);
        EXPECT_DOUBLE_EQ(a.items[i].value, b.items[i].value) << a.items[i].meaning;
        EXPECT_EQ(a.items[i].comparison, b.items[i].comparison);
    }
    EXPECT_EQ(a.fetch_bound, b.fetch_bound);
    EXPECT_EQ(a.fetch_equation, b.fetch_equation);
    EXPECT_EQ(a.fetch_condition, b.fetch_condition);
    // A reason that names the schedule names it as the user gave it; any other must agree.
    if (a.no_bound_reason.find("with schedule") == std::string::npos) EXPECT_EQ(a.no_bound_reason, b.no_bound_reason);
}

const Item* find(const Summary& s, const std::string& equation) {
    for (const Item& i : s.items)
        if (i.equation == equation) return &i;
    return nullptr;
}

}  // namespace

TEST(VizAnalyticWideSchedule, ColumnWiderThanTheArrayIsTheArray) {
    for (std::uint64_t bytes : {384u, 1024u})
        expect_same_summary(summarize(workload(WorkloadKind::stencil, "column:100"), cache(bytes)),
                            summarize(workload(WorkloadKind::stencil, "column:16"), cache(bytes)));
}

TEST(VizAnalyticWideSchedule, ZigzagAndTilesWiderThanTheArrayAreTheArray) {
    expect_same_summary(summarize(workload(WorkloadKind::stencil, "zigzag:100"), cache(1024)),
                        summarize(workload(WorkloadKind::stencil, "zigzag:16"), cache(1024)));
    expect_same_summary(summarize(workload(WorkloadKind::stencil, "tiled:100x100"), cache(1024)),
                        summarize(workload(WorkloadKind::stencil, "tiled:16x16"), cache(1024)));
    expect_same_summary(summarize(workload(WorkloadKind::stencil, "tiled:100x4"), cache(1024)),
                        summarize(workload(WorkloadKind::stencil, "tiled:16x4"), cache(1024)));
    expect_same_summary(summarize(workload(WorkloadKind::matmul, "column:100"), cache(512)),
                        summarize(workload(WorkloadKind::matmul, "column:16"), cache(512)));
}

// By hand, 7x7 stencil on 16x16, L = 4, M_l = 1024 B / 16 B = 64 lines, c = 16 (not 100):
// a column row needs ceil((16 + 7) / 4) * 7 = 6 * 7 = 42 lines <= 64, so eq. 4.8 applies:
// ceil(16 / 16) * ceil((16 + 7) / 4) * (16 + 7) = 1 * 6 * 23 = 138 fetches.
// (Unclamped, c = 100 would give 1 * ceil(107 / 4) * 23 = 27 * 23 = 621.)
TEST(VizAnalyticWideSchedule, StencilColumnBoundByHand) {
    const Summary s = summarize(workload(WorkloadKind::stencil, "column:100"), cache(1024));
    ASSERT_TRUE(s.fetch_bound);
    EXPECT_EQ(*s.fetch_bound, 138.0);
    EXPECT_EQ(s.fetch_equation, "eq. 4.8");
    const Item* row = find(s, "eq. 3.3");
    ASSERT_NE(row, nullptr);
    EXPECT_EQ(row->value, 42.0);
    EXPECT_NE(row->meaning.find("c = 16"), std::string::npos) << row->meaning;
}

// By hand, 16x16 matmul, D = 16, L = 4, c = 16 (not 100): ceil(16 / 4) + 16 * ceil(16 / 4) = 4 + 64 = 68.
TEST(VizAnalyticWideSchedule, MatmulColumnLinesByHand) {
    const Summary s = summarize(workload(WorkloadKind::matmul, "column:100"), cache(512));
    const Item* lines = nullptr;
    for (const Item& i : s.items)
        if (i.meaning.rfind("lines a column needs", 0) == 0) lines = &i;
    ASSERT_NE(lines, nullptr);
    EXPECT_EQ(lines->value, 68.0);
}
