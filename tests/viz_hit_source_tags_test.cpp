// The recorder's hit-source tags (RecorderOptions::record_hit_sources) from hand-made GPU events:
// one array of four 16-byte lines (rows 0-3); each cell is tagged with the source most of its L1
// hits had, a tie going to the farther source; a column of several steps counts the hits of all
// of them; columns merged as a run outgrows the grid keep the later one's tag.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "viz/detail_window.hpp"
#include "viz/diagram_recorder.hpp"

using namespace cachesim;
using namespace cachesim::viz;

namespace {

constexpr std::uint8_t kNone = 0;
constexpr auto kWarp = static_cast<std::uint8_t>(HitSource::own_warp);
constexpr auto kBlock = static_cast<std::uint8_t>(HitSource::own_block);
constexpr auto kOther = static_cast<std::uint8_t>(HitSource::other_block);

std::vector<ArrayInfo> four_lines() { return {ArrayInfo{"x", 0, 4, 16, 1}}; }

HierarchyConfig sixteen_byte_lines() {
    HierarchyConfig h;
    h.l1.size_bytes = 64;
    h.l1.line_bytes = 16;
    h.l2.size_bytes = 256;
    h.l2.line_bytes = 16;
    return h;
}

RecorderOptions gpu_options() {
    RecorderOptions o;
    o.gpu_events = true;
    o.record_hit_sources = true;
    return o;
}

// One L1 sector hit of `line`, as the GPU model reports it: its source, then the lookup.
void hit(DiagramRecorder& r, std::uint64_t line, HitSource source) {
    r.on_l1_hit_source(line, source);
    r.on_lookup(0, line, true, false, 0);
}

// Each step: (line, source) hits.
Diagram record(RecorderOptions o, const std::vector<std::vector<std::pair<std::uint64_t, HitSource>>>& steps) {
    DiagramRecorder r(four_lines(), sixteen_byte_lines(), o);
    for (std::size_t s = 0; s < steps.size(); ++s) {
        for (const auto& [line, source] : steps[s]) hit(r, line, source);
        r.on_step_end(s);
    }
    return r.finish();
}

}  // namespace

TEST(VizHitSourceTags, EachCellTakesTheSourceOfMostOfItsHitsTiesToTheFartherOne) {
    const Diagram d = record(gpu_options(),
                             {{{0, HitSource::own_block}, {0, HitSource::own_warp}, {0, HitSource::own_block},
                               {1, HitSource::own_warp}, {1, HitSource::other_block},
                               {2, HitSource::own_block}, {2, HitSource::own_warp}},
                              {{0, HitSource::own_warp}}});
    const TagGrid& g = d.hit_sources();
    ASSERT_EQ(g.columns(), 2u);
    ASSERT_EQ(g.rows(), 4u);
    EXPECT_EQ(g.at(0, 0), kBlock);  // two own-block hits against one of the warp's own
    EXPECT_EQ(g.at(0, 1), kOther);  // one each: the farther source
    EXPECT_EQ(g.at(0, 2), kBlock);  // one each
    EXPECT_EQ(g.at(0, 3), kNone);   // no hit
    EXPECT_EQ(g.at(1, 0), kWarp);
    for (std::uint64_t row = 1; row < 4; ++row) EXPECT_EQ(g.at(1, row), kNone);
    // As the tooltip reads them: by step and line.
    EXPECT_EQ(d.tag_at_step(ColourBy::hit_source, 0, 1), kOther);
    EXPECT_EQ(shown_cell(d, nullptr, 1, 0).hit_source, kWarp);
    EXPECT_EQ(shown_cell(d, nullptr, 1, 0).sm, 0);
    EXPECT_EQ(d.tags(ColourBy::hit_source), &g);
    EXPECT_EQ(d.tags(ColourBy::sm), nullptr);  // not recorded
    EXPECT_EQ(d.tags(ColourBy::state), nullptr);
}

TEST(VizHitSourceTags, AColumnOfTwoStepsCountsTheHitsOfBoth) {
    // Four steps expected, two columns of cells for four rows: two steps a column.
    RecorderOptions o = gpu_options();
    o.expected_steps = 4;
    o.max_cells = 8;
    const Diagram d = record(o, {{{0, HitSource::own_warp}, {0, HitSource::own_warp}},
                                 {{0, HitSource::own_block}, {0, HitSource::other_block}},
                                 {{0, HitSource::own_warp}},
                                 {{0, HitSource::other_block}}});
    ASSERT_EQ(d.steps_per_column(), 2u);
    EXPECT_EQ(d.hit_sources().at(0, 0), kWarp);   // 2 against 1 and 1
    EXPECT_EQ(d.hit_sources().at(1, 0), kOther);  // 1 each over steps 2 and 3
}

TEST(VizHitSourceTags, ColumnsMergedAsTheRunGrowsKeepTheLaterTag) {
    // Room for two columns, the length unknown: the third step halves the grid.
    RecorderOptions o = gpu_options();
    o.max_cells = 8;
    const Diagram d = record(o, {{{0, HitSource::own_block}}, {{0, HitSource::own_warp}}, {{1, HitSource::other_block}}});
    ASSERT_EQ(d.steps_per_column(), 2u);
    EXPECT_EQ(d.hit_sources().at(0, 0), kWarp);   // step 1's over step 0's
    EXPECT_EQ(d.hit_sources().at(1, 1), kOther);  // step 2
    EXPECT_EQ(d.hit_sources().at(0, 1), kNone);
}

TEST(VizHitSourceTags, OnlyTheWindowOfLinesIsTagged) {
    RecorderOptions o = gpu_options();
    o.first_row = 2;
    o.window_rows = 2;
    const Diagram d = record(o, {{{0, HitSource::other_block}, {3, HitSource::own_warp}}});
    ASSERT_EQ(d.hit_sources().rows(), 2u);
    EXPECT_EQ(d.hit_sources().at(0, 0), kNone);  // line 2
    EXPECT_EQ(d.hit_sources().at(0, 1), kWarp);  // line 3
}

TEST(VizHitSourceTags, NothingRecordedUnlessAsked) {
    RecorderOptions o = gpu_options();
    o.record_hit_sources = false;
    const Diagram d = record(o, {{{0, HitSource::own_warp}}});
    EXPECT_TRUE(d.hit_sources().empty());
    EXPECT_EQ(d.tags(ColourBy::hit_source), nullptr);
}
