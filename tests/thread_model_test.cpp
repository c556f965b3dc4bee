// The thread model end to end on the thesis's scenarios and the hierarchy's write semantics.
#include <gtest/gtest.h>

#include "sim/thread_model.hpp"
#include "tests/stencil_reference.hpp"
#include "traces/workload_source.hpp"

namespace cachesim {
namespace {

HierarchyConfig toy_cache(std::uint64_t lines, std::uint32_t line_bytes = 16) {
    HierarchyConfig h;
    h.l1.size_bytes = lines * line_bytes;
    h.l1.line_bytes = line_bytes;
    h.l1.ways = 0;
    return h;
}

// The misses are the textbook LRU cache's on the stencil's loads written out from its definition
// (tests/stencil_reference.hpp); the other counts follow from the sizes.
TEST(ThreadModel, ThesisTable31Scenario) {
    WorkloadSpec w;  // defaults: stencil 16x16, 7x7, linear
    WorkloadSource source(w);
    const SimulationResult r = simulate_thread_model(source, toy_cache(24));
    ASSERT_EQ(r.levels.size(), 1u);
    const LevelStats& l1 = r.levels[0];
    const std::uint64_t misses = test::thesis_table31_read_misses();
    EXPECT_EQ(l1.reads, 16u * 16 * 7 * 7);
    EXPECT_EQ(l1.read_misses, misses);
    EXPECT_EQ(l1.writes, 0u);  // stores do not touch L1
    EXPECT_EQ(l1.writes_forwarded, 16u * 16);
    EXPECT_EQ(l1.compulsory, 64u);  // 16x16 floats = 64 lines of 16 B
    EXPECT_EQ(l1.compulsory + l1.capacity + l1.conflict, l1.read_misses);
    EXPECT_EQ(r.memory_bytes_read, misses * 16);
    EXPECT_EQ(r.memory_bytes_written, 256u * 4);
    EXPECT_EQ(r.steps, 256u);
}

// Thesis eq. 3.2: a naive stencil whose cache holds ceil((Iw + Sw) / L) * Sh lines keeps every
// line until its last reuse, so it misses only compulsorily.
TEST(ThreadModel, NaiveStencilBoundGivesOnlyCompulsoryMisses) {
    struct Case { std::uint32_t iw, ih, sw, sh, line_bytes; };
    for (const Case c : {Case{16, 16, 7, 7, 16}, Case{32, 20, 5, 3, 32}, Case{50, 9, 3, 9, 64},
                         Case{21, 13, 9, 5, 16}}) {
        WorkloadSpec w;
        w.width = c.iw;
        w.height = c.ih;
        w.stencil_w = c.sw;
        w.stencil_h = c.sh;
        const std::uint32_t per_line = c.line_bytes / 4;
        const std::uint64_t lines = (c.iw + c.sw + per_line - 1) / per_line * c.sh;
        WorkloadSource source(w);
        const SimulationResult r = simulate_thread_model(source, toy_cache(lines, c.line_bytes));
        const LevelStats& l1 = r.levels[0];
        const std::uint64_t array_lines = (static_cast<std::uint64_t>(c.iw) * c.ih * 4 + c.line_bytes - 1) / c.line_bytes;
        EXPECT_EQ(l1.read_misses, l1.compulsory) << c.iw << "x" << c.ih;
        EXPECT_LE(l1.read_misses, array_lines + c.ih);  // rows may straddle lines
        // And one line fewer than the bound per stencil row is not enough in general.
    }
}

TEST(ThreadModel, ColumnScheduleBeatsLinearOnAWideStencilWithSmallCache) {
    WorkloadSpec w;
    w.width = 256;
    w.height = 64;
    w.stencil_w = 5;
    w.stencil_h = 5;
    WorkloadSource linear(w);
    w.schedule = parse_schedule("column:16");
    WorkloadSource column(w);
    const auto h = toy_cache(48);
    const auto a = simulate_thread_model(linear, h);
    const auto b = simulate_thread_model(column, h);
    EXPECT_LT(b.levels[0].read_misses * 2, a.levels[0].read_misses);
}

TEST(ThreadModel, L2IsLookedUpOnlyOnL1MissAndIsWriteBack) {
    WorkloadSpec w;
    WorkloadSource source(w);
    HierarchyConfig h = toy_cache(24);
    h.l2.size_bytes = 64 * 1024;  // holds everything
    h.l2.line_bytes = 64;
    h.l2.ways = 4;
    const SimulationResult r = simulate_thread_model(source, h);
    ASSERT_EQ(r.levels.size(), 2u);
    const LevelStats& l1 = r.levels[0];
    const LevelStats& l2 = r.levels[1];
    EXPECT_EQ(l2.reads, l1.read_misses);
    EXPECT_EQ(l2.writes, 256u);        // every store reaches L2
    EXPECT_EQ(l2.read_misses, 16u);    // 1 KiB of `in` in 64 B lines
    EXPECT_EQ(l2.write_misses, 16u);   // `out` allocates on write
    EXPECT_EQ(r.memory_bytes_written, 0u);  // dirty lines stay in the write-back L2
    EXPECT_EQ(l2.writebacks, 0u);
}

TEST(ThreadModel, WriteBackL2EvictsDirtyLinesToMemory) {
    WorkloadSpec w;
    w.width = 64;
    w.height = 64;
    w.stencil_w = 1;
    w.stencil_h = 1;
    WorkloadSource source(w);
    HierarchyConfig h;
    h.l2.size_bytes = 1024;
    h.l2.line_bytes = 64;
    h.l2.ways = 0;
    const SimulationResult r = simulate_thread_model(source, h);
    const LevelStats& l2 = r.levels[0];
    // `in` and `out` lines alternate in a 16-line cache: at the end it holds the last 8 lines of
    // each, so all but 8 of the 256 dirty `out` lines were written back.
    EXPECT_EQ(l2.writebacks, 256u - 8u);
    EXPECT_EQ(r.memory_bytes_written, (256u - 8u) * 64);
}

TEST(ThreadModel, DisabledLevelsPassStraightToMemory) {
    WorkloadSpec w;
    WorkloadSource source(w);
    HierarchyConfig h;  // both sizes 0
    const SimulationResult r = simulate_thread_model(source, h);
    EXPECT_TRUE(r.levels.empty());
    EXPECT_EQ(r.memory_bytes_read, 12544u * 4);
}

TEST(ThreadModel, OptOnBothLevelsRunsItsPrePasses) {
    WorkloadSpec w;
    w.width = 32;
    w.height = 32;
    w.stencil_w = 3;
    w.stencil_h = 3;
    HierarchyConfig h = toy_cache(16);
    h.l2.size_bytes = 2048;
    h.l2.line_bytes = 64;
    h.l2.ways = 4;
    HierarchyConfig opt = h;
    opt.l1.policy = PolicyKind::opt;
    opt.l2.policy = PolicyKind::opt;
    WorkloadSource source(w);
    const auto lru_run = simulate_thread_model(source, h);
    const auto opt_run = simulate_thread_model(source, opt);
    EXPECT_LE(opt_run.levels[0].read_misses, lru_run.levels[0].read_misses);
    EXPECT_EQ(opt_run.levels[0].compulsory, lru_run.levels[0].compulsory);
}

TEST(ThreadModel, OptRefusesStreamsOverItsLimit) {
    WorkloadSpec w;
    WorkloadSource source(w);
    HierarchyConfig h = toy_cache(24);
    h.l1.policy = PolicyKind::opt;
    h.opt_max_lookups = 1000;
    EXPECT_THROW(simulate_thread_model(source, h), SimulationError);
}

TEST(ThreadModel, ImpossibleGeometryIsASimulationError) {
    WorkloadSpec w;
    WorkloadSource source(w);
    HierarchyConfig h = toy_cache(24);
    h.l1.ways = 5;
    EXPECT_THROW(simulate_thread_model(source, h), SimulationError);
}

TEST(ThreadModel, CancelStopsTheRun) {
    WorkloadSpec w;
    w.width = 512;
    w.height = 512;
    WorkloadSource source(w);
    std::atomic<bool> cancel{true};
    RunControl control;
    control.cancel = &cancel;
    EXPECT_THROW(simulate_thread_model(source, toy_cache(24), control), Cancelled);
}

}  // namespace
}  // namespace cachesim
