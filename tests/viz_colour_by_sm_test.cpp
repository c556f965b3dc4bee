// --colour-by sm: the recording keeps the SM of each accessed cell. Checked against the GPU
// model's own issue log from a second run: at full resolution, every recorded SM is one that
// issued a request in that round, and round 0's first line belongs to SM 0 (it runs block 0).
#include <gtest/gtest.h>

#include <set>

#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "viz/record.hpp"
#include "viz/render.hpp"

using namespace cachesim;
using namespace cachesim::viz;

TEST(VizColourBySm, CellsCarryTheirSm) {
    WorkloadSpec w;
    w.width = w.height = 32;
    w.stencil_w = w.stencil_h = 3;
    GpuConfig config = with_sms(find_gpu_preset("h200")->config, 2);
    config.block = 64;
    config.block_start_skip = 0;  // blocks start at their first turn: round 0 is SM 0's first request
    std::vector<GpuIssue> issues;
    GpuConfig logged = config;
    logged.issue_log = &issues;
    simulate_gpu_model(w, logged);
    std::vector<std::set<std::uint32_t>> sms_of_round;
    for (const GpuIssue& i : issues) {
        if (sms_of_round.size() <= i.round) sms_of_round.resize(i.round + 1);
        sms_of_round[i.round].insert(i.sm);
    }

    RecorderOptions o;
    o.record_sm = true;
    o.max_cells = std::uint64_t{1} << 26;
    const RecordedRun run = record_gpu_model(w, config, o);
    const Diagram& d = run.diagram;
    ASSERT_TRUE(d.exact());
    ASSERT_EQ(d.sms().columns(), d.steps());
    EXPECT_EQ(d.sms().at(0, 0), 1);  // SM 0
    std::set<std::uint32_t> seen;
    for (std::uint64_t t = 0; t < d.sms().columns(); ++t)
        for (std::uint64_t r = 0; r < d.sms().rows(); ++r) {
            const std::uint8_t code = d.sms().at(t, r);
            if (!code) continue;
            ASSERT_LT(t, sms_of_round.size());
            EXPECT_TRUE(sms_of_round[t].count(code - 1u)) << "round " << t << " row " << r;
            EXPECT_NE(d.at_step(t, r), CellState::not_cached);
            seen.insert(code - 1u);
        }
    EXPECT_EQ(seen, (std::set<std::uint32_t>{0, 1}));

    TimeDiagramStyle style;
    style.colour_by = TimeDiagramStyle::ColourBy::sm;
    const RenderedTimeDiagram r = render_time_diagram(d, style);
    const auto& lay = r.layout;
    // Round 0, line 0: SM 0's colour, whatever the aggregation.
    EXPECT_EQ(r.image.pixel(lay.x_of_step(0), lay.y_of_row(d.layout(), 0)), sm_color(0));
}
