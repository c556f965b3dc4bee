// Stores at a write-through, no-write-allocate L1 are not L1 hits: the diagram draws them in a
// state of their own, with their own colour and legend entry.
#include <gtest/gtest.h>

#include "tests/vector_source.hpp"
#include "viz/record.hpp"
#include "viz/render.hpp"

using namespace cachesim;
using namespace cachesim::viz;

namespace {

Access load(std::uint64_t address) { return {address, 4, 0, false}; }
Access store(std::uint64_t address) { return {address, 4, 0, true}; }

// One step per access; one array of 8 four-byte elements = lines 0 and 1 (16 B lines).
RecordedRun run(WritePolicy l1_write) {
    test::VectorSource source({load(0), load(4), store(8), store(16), load(16)}, {"a", 0, 4, 8, 1});
    HierarchyConfig h;
    h.l1.size_bytes = 32;  // two lines: nothing is evicted
    h.l1.line_bytes = 16;
    h.l1.write_policy = l1_write;
    h.l2.size_bytes = 0;
    return record_thread_model(source, h, {}, std::nullopt);
}

}  // namespace

// By hand, write-through L1 (stores go to memory, never allocate):
//   step 0 load 0:   line 0 misses, fetched from memory
//   step 1 load 4:   line 0 hits                       -> accessed (L1 hit)
//   step 2 store 8:  line 0, written through            -> stored (line 0 stays in L1)
//   step 3 store 16: line 1, written through, not kept  -> stored
//   step 4 load 16:  line 1 misses (the store did not allocate), fetched from memory
TEST(VizStoreCells, WriteThroughStoresAreNotL1Hits) {
    const Diagram d = run(WritePolicy::write_through_no_allocate).diagram;
    using S = CellState;
    const S line0[] = {S::fetched_from_memory, S::accessed, S::stored, S::in_l1, S::in_l1};
    const S line1[] = {S::not_cached, S::not_cached, S::not_cached, S::stored, S::fetched_from_memory};
    for (std::uint64_t t = 0; t < 5; ++t) {
        EXPECT_EQ(d.at_step(t, 0), line0[t]) << "step " << t;
        EXPECT_EQ(d.at_step(t, 1), line1[t]) << "step " << t;
    }
}

// The same trace at a write-back, write-allocate L1: the store at step 2 finds line 0 (an L1
// hit), the one at step 3 misses and fetches line 1, so the load at step 4 hits.
TEST(VizStoreCells, WriteBackStoresAreL1Lookups) {
    const Diagram d = run(WritePolicy::write_back_allocate).diagram;
    EXPECT_EQ(d.at_step(2, 0), CellState::accessed);
    EXPECT_EQ(d.at_step(3, 1), CellState::fetched_from_memory);
    EXPECT_EQ(d.at_step(4, 1), CellState::accessed);
}

// A pixel holding a store and an L1 hit shows the hit (the more important state); one holding a
// store and a fetch shows the fetch under either rule.
TEST(VizStoreCells, StoresRankBelowHitsAndFetches) {
    const CellCode st = encode(CellState::stored);
    EXPECT_EQ(decode(st), CellState::stored);
    EXPECT_EQ(decode(combine_codes(st, encode(CellState::accessed))), CellState::accessed);
    EXPECT_EQ(decode(combine_codes(st, encode(CellState::in_l1))), CellState::stored);
    for (AggregateRule rule : {AggregateRule::priority, AggregateRule::any_miss})
        EXPECT_EQ(decode(combine_codes(st, encode(CellState::fetched_from_l2)), rule), CellState::fetched_from_l2);
}

TEST(VizStoreCells, LegendNamesStoresInTheirOwnColour) {
    const RecordedRun r = run(WritePolicy::write_through_no_allocate);
    TimeDiagramStyle style;
    style.width = 700;
    style.height = 400;
    const RenderedTimeDiagram drawn = render_time_diagram(r.diagram, style);
    bool found = false;
    for (const LegendEntry& e : drawn.layout.legend)
        if (e.state == CellState::stored) {
            found = true;
            EXPECT_NE(e.label.find("stored"), std::string::npos) << e.label;
            EXPECT_EQ(drawn.image.pixel(e.swatch.cx(), e.swatch.cy()), cell_color(CellState::stored));
        }
    EXPECT_TRUE(found);
    EXPECT_NE(cell_color(CellState::stored), cell_color(CellState::accessed));
    const int x = drawn.layout.x_of_step(2), y = drawn.layout.y_of_row(r.diagram.layout(), 0);
    EXPECT_EQ(drawn.image.pixel(x, y), cell_color(CellState::stored));
}
