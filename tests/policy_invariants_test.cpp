// Invariants every policy must keep, on workloads and random traces.
#include <gtest/gtest.h>

#include "sim/thread_model.hpp"
#include "traces/workload_source.hpp"

namespace cachesim {
namespace {

TEST(PolicyInvariants, CountersAddUpAndOptIsBest) {
    const char* schedules[] = {"linear", "column:4", "zigzag:3", "tiled:4x4", "morton"};
    for (const char* schedule : schedules) {
        for (WorkloadKind kind : {WorkloadKind::stencil, WorkloadKind::matmul}) {
            WorkloadSpec w;
            w.kind = kind;
            w.width = 24;
            w.height = 20;
            w.depth = 12;
            w.stencil_w = 5;
            w.stencil_h = 3;
            w.schedule = parse_schedule(schedule);
            WorkloadSource source(w);
            std::uint64_t opt_misses = 0, best_other = ~0ull, compulsory = 0;
            for (PolicyKind p : kAllPolicies) {
                HierarchyConfig h;
                h.l1.size_bytes = 32 * 16;
                h.l1.line_bytes = 16;
                h.l1.ways = 8;
                h.l1.policy = p;
                h.l2.size_bytes = 8 * 1024;
                h.l2.line_bytes = 64;
                h.l2.ways = 4;
                const SimulationResult r = simulate_thread_model(source, h);
                for (const LevelStats& s : r.levels) {
                    EXPECT_EQ(s.hits() + s.misses(), s.accesses());
                    EXPECT_EQ(s.compulsory + s.capacity + s.conflict, s.misses());
                    EXPECT_LE(s.evictions, s.misses());
                    std::uint64_t per_array_reads = 0;
                    for (const ArrayCounters& a : s.per_array) per_array_reads += a.reads;
                    EXPECT_EQ(per_array_reads, s.reads);
                }
                const LevelStats& l1 = r.levels[0];
                EXPECT_EQ(l1.reads, r.reads);  // aligned 4-byte loads: one lookup each
                EXPECT_EQ(r.levels[1].reads, l1.read_misses);
                if (p == PolicyKind::opt) opt_misses = l1.read_misses;
                else best_other = std::min(best_other, l1.read_misses);
                if (compulsory == 0) compulsory = l1.compulsory;
                EXPECT_EQ(l1.compulsory, compulsory) << policy_name(p);  // policy-independent
            }
            EXPECT_LE(opt_misses, best_other) << schedule;
        }
    }
}

TEST(PolicyInvariants, SameSeedSameCountersForRandomPolicies) {
    WorkloadSpec w;
    w.width = 40;
    w.height = 40;
    WorkloadSource source(w);
    for (PolicyKind p : {PolicyKind::random, PolicyKind::random4}) {
        HierarchyConfig h;
        h.l1.size_bytes = 16 * 16;
        h.l1.line_bytes = 16;
        h.l1.ways = 8;
        h.l1.policy = p;
        h.seed = 1234;
        const auto a = simulate_thread_model(source, h);
        const auto b = simulate_thread_model(source, h);
        EXPECT_EQ(a.levels[0].read_misses, b.levels[0].read_misses);
        h.seed = 99;
        const auto c = simulate_thread_model(source, h);
        EXPECT_NE(a.levels[0].read_misses, c.levels[0].read_misses) << policy_name(p);
    }
}

}  // namespace
}  // namespace cachesim
