// The diagram model on small runs worked by hand (see the comments for each step).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/stencil_reference.hpp"
#include "traces/workload_source.hpp"
#include "viz/record.hpp"
#include "sim/gpu/gpu_model.hpp"

using namespace cachesim;
using namespace cachesim::viz;

namespace {

// Stencil 8x1 with a 5x1 box: item x reads in[clamp(x-2 .. x+2)], then writes out[x]. 4-byte
// elements, 16-byte lines: `in` is lines 0 (x 0-3) and 1 (x 4-7) = rows 0, 1; `out` starts at
// 4096 = lines 256, 257 = rows 2, 3. L2: 4 lines of 16 B, fully associative LRU, write-back.
WorkloadSpec small_stencil() {
    WorkloadSpec w;
    w.kind = WorkloadKind::stencil;
    w.width = 8;
    w.height = 1;
    w.stencil_w = 5;
    w.stencil_h = 1;
    return w;
}

HierarchyConfig hierarchy(std::uint64_t l1_lines) {
    HierarchyConfig h;
    h.l1.size_bytes = l1_lines * 16;
    h.l1.line_bytes = 16;
    h.l2.size_bytes = 64;
    h.l2.line_bytes = 16;
    return h;
}

RecordedRun run(const HierarchyConfig& h, RecorderOptions options = {}) {
    const WorkloadSpec w = small_stencil();
    WorkloadSource source(w);
    return record_thread_model(source, h, options, w);
}

// One character per state: . not cached, 2 in L2, 1 in L1, S stored (written through the L1, no
// L1 hit), F fetched from L2, M fetched from memory, A accessed (an L1 hit).
std::string row_string(const Diagram& d, std::uint64_t row) {
    std::string s;
    const CellGrid& g = d.level(0, 0);
    for (std::uint64_t c = 0; c < g.columns(); ++c) s += ".21SFMA"[static_cast<int>(g.get(c, row))];
    return s;
}

}  // namespace

TEST(VizDiagram, RowsAreLinesGroupedByArray) {
    const RecordedRun r = run(hierarchy(2));
    const RowLayout& rows = r.diagram.layout();
    ASSERT_EQ(rows.rows(), 4u);
    ASSERT_EQ(rows.groups().size(), 2u);
    EXPECT_EQ(rows.groups()[0].array.name, "in");
    EXPECT_EQ(rows.groups()[1].array.name, "out");
    EXPECT_EQ(rows.row_of_line(1), 1u);
    EXPECT_EQ(rows.row_of_line(256), 2u);
    EXPECT_EQ(rows.row_of_line(2), kNoRow);
    const RowInfo info = rows.describe(3);
    EXPECT_EQ(info.group->array.name, "out");
    EXPECT_EQ(info.first_element, 4u);
    EXPECT_EQ(info.x, 4u);
    EXPECT_EQ(info.elements, 4u);
}

// L1 of 2 lines: line 0 is fetched from memory at step 0, line 1 at step 2 (x = 4 is first
// read by item 2); from step 6 no item reads line 0 any more, so it shows as resident in L1.
// `out` line 0 is written at steps 0-3 (stores forwarded through the write-through L1 to L2, which
// allocates: stored, not an L1 hit), then stays in L2; `out` line 1 is first written at step 4.
TEST(VizDiagram, ExactStatesWithTwoLineL1) {
    const RecordedRun r = run(hierarchy(2));
    const Diagram& d = r.diagram;
    ASSERT_TRUE(d.exact());
    EXPECT_EQ(d.steps(), 8u);
    EXPECT_EQ(row_string(d, 0), "MAAAAA11");
    EXPECT_EQ(row_string(d, 1), "..MAAAAA");
    EXPECT_EQ(row_string(d, 2), "SSSS2222");
    EXPECT_EQ(row_string(d, 3), "....SSSS");
    EXPECT_EQ(r.result.levels[0].read_misses, 2u);
}

// L1 of 1 line: items 3-5 read both lines, so each fetch evicts the other line and the next
// fetch comes back from L2 (which holds both). Item 2 hits line 0, then misses line 1 to
// memory: line 0 shows accessed (a hit this step), line 1 fetched from memory. From step 6 only
// line 1 is read; line 0 lives in L2 only.
TEST(VizDiagram, FetchSourceFromL2OrMemory) {
    const RecordedRun r = run(hierarchy(1));
    const Diagram& d = r.diagram;
    EXPECT_EQ(row_string(d, 0), "MAAFFF22");
    EXPECT_EQ(row_string(d, 1), "..MFFFAA");
    EXPECT_EQ(row_string(d, 2), "SSSS2222");
    EXPECT_EQ(row_string(d, 3), "....SSSS");
    // 2 compulsory misses + 2 per item for items 3, 4, 5.
    EXPECT_EQ(r.result.levels[0].read_misses, 8u);
    EXPECT_EQ(r.result.levels[1].read_misses, 2u);
}

// Only L1 (no L2): fills come from memory; stores at the write-through L1 leave no line
// resident, and show as stored (no L1 hit).
TEST(VizDiagram, L1OnlyFillsComeFromMemory) {
    HierarchyConfig h = hierarchy(1);
    h.l2.size_bytes = 0;
    const RecordedRun r = run(h);
    EXPECT_EQ(row_string(r.diagram, 0), "MAAMMM..");
    EXPECT_EQ(row_string(r.diagram, 1), "..MMMMAA");
    EXPECT_EQ(row_string(r.diagram, 2), "SSSS....");
    EXPECT_EQ(row_string(r.diagram, 3), "....SSSS");
}

TEST(VizDiagram, AggregationRulePriority) {
    EXPECT_EQ(combine(CellState::accessed, CellState::fetched_from_memory), CellState::accessed);
    EXPECT_EQ(combine(CellState::fetched_from_l2, CellState::fetched_from_memory), CellState::fetched_from_memory);
    EXPECT_EQ(combine(CellState::fetched_from_l2, CellState::in_l1), CellState::fetched_from_l2);
    EXPECT_EQ(combine(CellState::in_l2, CellState::in_l1), CellState::in_l1);
    EXPECT_EQ(combine(CellState::in_l2, CellState::not_cached), CellState::in_l2);
}

// A cap of 16 cells on 4 rows allows 4 columns: 2 steps each.
TEST(VizDiagram, TimeBucketsCombinePairsOfSteps) {
    RecorderOptions o;
    o.max_cells = 16;
    const RecordedRun r = run(hierarchy(2), o);
    const Diagram& d = r.diagram;
    EXPECT_EQ(d.steps_per_column(), 2u);
    EXPECT_EQ(row_string(d, 0), "AAA1");  // MA AA AA 11
    EXPECT_EQ(row_string(d, 1), ".AAA");  // .. MA AA AA
    EXPECT_EQ(row_string(d, 2), "SS22");  // stores: SS SS 22 22
    EXPECT_EQ(row_string(d, 3), "..SS");
}

// Without knowing the run's length up front, columns are merged as the run grows; the result is
// the same as when the bucket size is chosen up front.
TEST(VizDiagram, UnknownLengthMergesToTheSameGrid) {
    RecorderOptions o;
    o.max_cells = 16;
    const WorkloadSpec w = small_stencil();
    WorkloadSource source(w);
    DiagramRecorder recorder(source.arrays(), hierarchy(2), o, w);  // expected_steps = 0
    RunControl control;
    control.observer = &recorder;
    simulate_thread_model(source, hierarchy(2), control);
    const Diagram d = recorder.finish();
    EXPECT_EQ(d.steps_per_column(), 2u);
    EXPECT_EQ(row_string(d, 0), "AAA1");
    EXPECT_EQ(row_string(d, 1), ".AAA");
    EXPECT_EQ(row_string(d, 2), "SS22");  // stores: SS SS 22 22
    EXPECT_EQ(row_string(d, 3), "..SS");
}

TEST(VizDiagram, RowBucketsCombineLines) {
    RecorderOptions o;
    o.max_rows = 2;
    const RecordedRun r = run(hierarchy(2), o);
    const Diagram& d = r.diagram;
    EXPECT_EQ(d.rows_per_bucket(), 2u);
    EXPECT_EQ(row_string(d, 0), "MAAAAAAA");  // rows 0+1 (`in`): M. combined with ..
    EXPECT_EQ(row_string(d, 1), "SSSSSSSS");  // rows 2+3 (`out`): stores
}

TEST(VizDiagram, PyramidQueriesMatchBruteForce) {
    const RecordedRun r = run(hierarchy(1));
    const Diagram& d = r.diagram;
    EXPECT_GE(d.time_levels(), 4);  // 8, 4, 2, 1 columns
    EXPECT_GE(d.row_levels(), 3);   // 4, 2, 1 rows
    for (std::uint64_t t0 = 0; t0 < 8; ++t0)
        for (std::uint64_t t1 = t0 + 1; t1 <= 8; ++t1)
            for (std::uint64_t r0 = 0; r0 < 4; ++r0)
                for (std::uint64_t r1 = r0 + 1; r1 <= 4; ++r1) {
                    CellState expect = CellState::not_cached;
                    for (std::uint64_t t = t0; t < t1; ++t)
                        for (std::uint64_t row = r0; row < r1; ++row) expect = combine(expect, d.at_step(t, row));
                    ASSERT_EQ(d.query(t0, t1, r0, r1), expect) << t0 << " " << t1 << " " << r0 << " " << r1;
                }
    // Level (1, 1): 2 steps x 2 rows per cell. Steps 6-7, rows 0-1: in L2 / accessed -> accessed.
    EXPECT_EQ(d.level(1, 1).get(3, 0), CellState::accessed);
    // Steps 6-7, rows 2-3 (out): in L2 and accessed -> accessed; steps 0-1 rows 2-3 -> accessed.
    EXPECT_EQ(d.level(2, 0).get(1, 2), CellState::in_l2);  // steps 4-7 of out line 0
}

TEST(VizDiagram, SnapshotAtAStep) {
    RecorderOptions o;
    o.snapshot_step = 6;
    const RecordedRun r = run(hierarchy(1), o);
    ASSERT_TRUE(r.snapshot);
    EXPECT_EQ(r.snapshot->step, 6u);
    const std::vector<CellState> state = r.snapshot->state, residency = r.snapshot->residency;
    EXPECT_EQ(state, (std::vector<CellState>{CellState::in_l2, CellState::accessed, CellState::in_l2,
                                             CellState::stored}));
    EXPECT_EQ(residency, (std::vector<CellState>{CellState::in_l2, CellState::in_l1, CellState::in_l2,
                                                 CellState::in_l2}));
}

TEST(VizDiagram, WindowRecordsOnlyItsSteps) {
    RecorderOptions o;
    o.first_step = 3;
    o.window_steps = 3;
    const RecordedRun r = run(hierarchy(1), o);
    EXPECT_EQ(r.diagram.first_step(), 3u);
    EXPECT_EQ(r.diagram.steps(), 3u);
    EXPECT_EQ(row_string(r.diagram, 0), "FFF");
    EXPECT_EQ(row_string(r.diagram, 2), "S22");
    EXPECT_EQ(r.diagram.at_step(5, 3), CellState::stored);
}

// The thesis's Table 3.1 scenario: every step accesses 7 rows of `in` of 2-3 lines each.
TEST(VizDiagram, ThesisStencilCountsMatchTheSimulator) {
    WorkloadSpec w;  // 16x16, 7x7, linear
    HierarchyConfig h;
    h.l1.size_bytes = 384;
    h.l1.line_bytes = 16;
    WorkloadSource source(w);
    const RecordedRun r = record_thread_model(source, h, {}, w);
    const std::uint64_t misses = test::thesis_table31_read_misses();  // the textbook LRU cache's count
    ASSERT_EQ(r.result.levels[0].read_misses, misses);
    std::uint64_t fetched = 0;
    const Diagram& d = r.diagram;
    for (std::uint64_t t = 0; t < d.steps(); ++t)
        for (std::uint64_t row = 0; row < d.rows(); ++row)
            fetched += d.at_step(t, row) == CellState::fetched_from_memory;
    // Each miss fetches one line; a line is fetched at most once per step, so with no line
    // fetched twice in one step the fetched cells count the misses.
    EXPECT_EQ(fetched, misses);
    EXPECT_EQ(d.rows(), 128u);
    EXPECT_EQ(d.steps(), 256u);
}

// GPU model, one SM running one warp of 32 threads: a 3x1 stencil on 32x1 reads in[x-1], in[x],
// in[x+1] (three load requests of the warp, each within `in`'s single 128-byte line), then
// stores out[x]. Round 0: the first load misses all 4 sectors in L1 and L2 -> fetched from
// memory. Rounds 1, 2: hits -> accessed. Round 3: the store (write-through L1, forwarded to L2)
// -> `out` accessed, `in` stays in L1.
TEST(VizDiagram, GpuModelRoundsByHand) {
    WorkloadSpec w;
    w.width = 32;
    w.height = 1;
    w.stencil_w = 3;
    w.stencil_h = 1;
    GpuConfig g;
    g.sms = 1;
    g.block = 32;
    g.l1_auto = false;
    g.l1.size_bytes = 1024;
    g.l2.size_bytes = 4096;
    g.l2_partitions = 1;
    GpuResult gpu;
    const RecordedRun r = record_gpu_model(w, g, {}, {}, &gpu);
    ASSERT_EQ(gpu.rounds, 4u);
    const Diagram& d = r.diagram;
    ASSERT_EQ(d.rows(), 2u);  // one 128-byte line per array
    EXPECT_EQ(row_string(d, 0), "MAA1");
    EXPECT_EQ(row_string(d, 1), "...S");  // the stores to `out`

    // Without an L2 the fetch comes from memory too; a store then reaches memory with no event
    // for any level (the GPU model's L1 does not look stores up), so `out` stays blank.
    g.l2.size_bytes = 0;
    const RecordedRun no_l2 = record_gpu_model(w, g, {});
    EXPECT_EQ(row_string(no_l2.diagram, 0), "MAA1");
    EXPECT_EQ(row_string(no_l2.diagram, 1), "....");
}
