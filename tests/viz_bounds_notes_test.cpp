// The thesis's bounds are shown only where they apply: a GPU-model run gets the reason instead of
// eq. 4.8; a thread-model run of the thesis's stencil keeps its bound with the condition it
// needs; a recommended column width at or past the image width is replaced by why none is needed;
// a GPU run's L1 hits by who brought the sector are given as shares.
#include <gtest/gtest.h>

#include <algorithm>

#include "sim/gpu/gpu_presets.hpp"
#include "tests/viz_thesis_run.hpp"
#include "viz/notes.hpp"

using namespace cachesim;
using namespace cachesim::viz;

namespace {

bool has(const std::vector<std::string>& notes, const std::string& text) {
    return std::any_of(notes.begin(), notes.end(), [&](const std::string& n) { return n.find(text) != std::string::npos; });
}

}  // namespace

TEST(VizBoundsNotes, ThesisRunKeepsItsBound) {
    const WorkloadSpec w = viz::testing::thesis_stencil(parse_schedule("column:4"));
    const HierarchyConfig h = viz::testing::thesis_cache();
    const RecordedRun run = viz::testing::record(w, h, {});
    const auto notes = run_notes(w, h, run.result);
    // eq. 4.8 for Table 3.1 with c = 4 (docs/gui.md): 276; eq. 3.3: (4 + 6) / 4 rounded up,
    // plus one, times 7 rows = 21 lines, which fit in 24.
    EXPECT_TRUE(has(notes, "thesis eq. 4.8: fetches <= 276 (simulated 160)"));
    EXPECT_TRUE(has(notes, "a column row's 21 lines (eq. 3.3) fit in 24"));
    EXPECT_FALSE(has(notes, "not shown"));
}

TEST(VizBoundsNotes, GpuRunGetsTheReasonInstead) {
    WorkloadSpec w;
    w.width = w.height = 128;
    w.stencil_w = w.stencil_h = 5;
    w.schedule = parse_schedule("column:32");
    GpuConfig config = with_sms(find_gpu_preset("h200")->config, 4);
    config.block = 128;
    const RecordedRun run = record_gpu_model(w, config, {});
    const auto notes = run_notes(w, gpu_hierarchy(config), run.result, {true, 4});
    EXPECT_FALSE(has(notes, "eq. 4.8"));
    EXPECT_FALSE(has(notes, "recommended column width"));
    EXPECT_TRUE(has(notes, "thesis bounds not shown"));
    EXPECT_TRUE(has(notes, "here 4 SMs with their own L1s"));
}

TEST(VizBoundsNotes, RecommendedWidthOnlyBelowTheImageWidth) {
    WorkloadSpec w;
    w.width = w.height = 128;
    w.stencil_w = w.stencil_h = 5;
    HierarchyConfig h;
    h.l1.size_bytes = 240 * 1024;  // sec. 4.3: (245,760 - 4 (25 + 1)) / (5 x 4) = 12,282 columns
    h.l1.line_bytes = 128;
    SimulationResult r;
    r.levels.push_back({});
    r.levels[0].name = "L1";
    const auto notes = run_notes(w, h, r);
    EXPECT_FALSE(has(notes, "recommended column width: 12282"));
    EXPECT_TRUE(has(notes, "none needed (sec. 4.3/4.4 give 12,282 >= the image width 128"));
    // The thesis's cache: 6 columns, narrower than the 16-wide image.
    const auto thesis = run_notes(viz::testing::thesis_stencil(), viz::testing::thesis_cache(), r);
    EXPECT_TRUE(has(thesis, "recommended column width: 6"));
}

TEST(VizBoundsNotes, HitSourcesAsShares) {
    L1HitSourceCounts h;
    h.own_warp = 230;
    h.own_block = 52;
    h.other_block = 718;
    EXPECT_EQ(hit_sources_note(h),
              "L1 hits from: own warp 23.0%, block 5.2%, other blocks 71.8%");
    EXPECT_EQ(hit_sources_note(L1HitSourceCounts{}), "");
}

// A launch where the GPU model is known to miss the chip ends its notes with the regions, a line
// each under one heading; a launch in none adds nothing.
TEST(VizBoundsNotes, KnownMissesAreAHeadingAndALinePerRegion) {
    WorkloadSpec w;
    w.kind = WorkloadKind::matmul;
    w.width = w.height = 1024;
    w.schedule = parse_schedule("column:512");
    GpuConfig c = find_gpu_preset("h200")->config;
    c.block = 128;
    EXPECT_EQ(known_miss_notes(known_misses(&w, c)),
              (std::vector<std::string>{"model known off here (the list: docs/cli.md):",
                                        "  matmul strips wider than 128 columns: L1 4 to 17 points high"}));
    c.block = 32;
    EXPECT_EQ(known_miss_notes(known_misses(&w, c)),
              (std::vector<std::string>{"model known off here (the list: docs/cli.md):",
                                        "  one-warp matmul blocks, naive, tiles or strips >= 128: L1 3 to 22 points low"}));
    w.schedule = parse_schedule("column:128");
    c.block = 128;
    EXPECT_TRUE(known_miss_notes(known_misses(&w, c)).empty());
}
