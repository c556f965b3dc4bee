// The array view of a GPU-model run: a step is one scheduling round of all SMs, so the view marks
// the lines that every request of the round touched, whatever work items they belong to, and says
// "round N". The expected lines come from the model's issue log of a separate run: request k of
// (block, warp) is the k-th access of its lanes' work items (thread tid runs item
// schedule_map(tid), as the launch's threads do).
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "tests/cli_util.hpp"
#include "traces/schedule.hpp"
#include "viz/array_view.hpp"
#include "viz/notes.hpp"
#include "viz/record.hpp"
#include "viz/render.hpp"

using namespace cachesim;
using namespace cachesim::viz;

namespace {

// The run of `cachesim diagram --model gpu --size 64x64 --sms 4 --block 64` (7x7 stencil, the
// h200 preset's caches, the L1's hits counted by source for the legend).
WorkloadSpec workload() {
    WorkloadSpec w;
    w.width = w.height = 64;
    return w;
}

GpuConfig config() {
    GpuConfig c = with_sms(find_gpu_preset("h200")->config, 4);
    c.block = 64;
    c.count_l1_hit_sources = true;
    return c;
}

// Lines (address / line bytes) that the requests of `round` touch, per the issue log.
std::set<std::uint64_t> lines_of_round(const std::vector<GpuIssue>& log, std::uint64_t round, const WorkloadSpec& w,
                                       const GpuConfig& c, std::uint32_t line_bytes) {
    std::set<std::uint64_t> lines;
    const StencilWorkload s = w.stencil();
    for (const GpuIssue& i : log) {
        if (i.round != round) continue;
        for (std::uint32_t lane = 0; lane < c.warp_size; ++lane) {
            const std::uint64_t in_block = static_cast<std::uint64_t>(i.warp) * c.warp_size + lane;
            const std::uint64_t tid = i.block * c.block + in_block;
            if (in_block >= c.block || tid >= w.items()) continue;
            const std::uint64_t item = schedule_map(w.schedule, tid, w.width, w.height);
            lines.insert(s.access(item, i.k).address / line_bytes);
        }
    }
    return lines;
}

bool marked(CellState s) {
    return s == CellState::accessed || s == CellState::stored || s == CellState::fetched_from_memory ||
           s == CellState::fetched_from_l2;
}

struct Snapshot {
    RecordedRun run;
    GpuResult gpu;
};

Snapshot record_round(std::uint64_t round) {
    RecorderOptions o;
    o.first_step = round;
    o.window_steps = 1;
    o.snapshot_step = round;
    Snapshot s;
    s.run = record_gpu_model(workload(), config(), o, {}, &s.gpu);
    return s;
}

}  // namespace

TEST(DiagramGpuArrayView, MarksTheLinesTheRoundTouched) {
    const WorkloadSpec w = workload();
    const GpuConfig c = config();
    std::vector<GpuIssue> log;
    GpuConfig logged = c;
    logged.issue_log = &log;
    const GpuResult whole = simulate_gpu_model(w, logged);
    const std::uint32_t line = gpu_hierarchy(c).l1.line_bytes;
    ASSERT_GT(whole.rounds, 40u);

    // Round 10 reads lines of several image rows (a round issues one request per SM, 4 SMs on 4
    // blocks of 64 items); the last round holds stores to `out`.
    for (const std::uint64_t round : {std::uint64_t{0}, std::uint64_t{10}, std::uint64_t{37}, whole.rounds - 1}) {
        SCOPED_TRACE("round " + std::to_string(round));
        const std::set<std::uint64_t> expected = lines_of_round(log, round, w, c, line);
        ASSERT_FALSE(expected.empty());
        const Snapshot s = record_round(round);
        ASSERT_TRUE(s.run.snapshot);
        const ArrayView v = make_array_view(s.run.diagram.layout(), *s.run.snapshot, w, step_unit(true, false, false));
        if (round == 10) EXPECT_EQ(array_view_heading(v), "round 10 (where each line is after the round)");
        EXPECT_FALSE(v.work_item);
        const std::vector<ArrayInfo> arrays = w.arrays();
        ASSERT_EQ(v.arrays.size(), arrays.size());
        std::set<std::uint64_t> shown;
        for (std::size_t a = 0; a < arrays.size(); ++a)
            for (std::uint64_t e = 0; e < v.arrays[a].elements; ++e) {
                const std::uint64_t l = (arrays[a].base + e * arrays[a].elem_bytes) / line;
                if (marked(v.arrays[a].cells[e])) shown.insert(l);
                EXPECT_EQ(marked(v.arrays[a].cells[e]), expected.count(l) == 1) << arrays[a].name << " element " << e;
            }
        EXPECT_EQ(shown, expected);
    }
}

TEST(DiagramGpuArrayView, ThreadModelStepsStayWorkItems) {
    EXPECT_EQ(step_unit(false, false, false), StepUnit::work_item);
    EXPECT_EQ(step_unit(false, true, false), StepUnit::recorded_thread);
    EXPECT_EQ(step_unit(true, false, false), StepUnit::round);
    EXPECT_EQ(step_unit(true, true, true), StepUnit::measured_request);
    ArrayView v;
    v.step = 40;
    v.work_item = 40;
    v.item_x = 8;
    v.item_y = 2;
    EXPECT_EQ(array_view_heading(v), "step 40: work item (8, 2)");
    v.unit = StepUnit::measured_request;
    v.step = 1234;
    EXPECT_EQ(array_view_heading(v), "request 1,234 of the measured order (where each line is after it)");
}

// The command draws the same picture as the view above, legend and all.
TEST(DiagramGpuArrayView, CliDrawsTheRound) {
    const auto png = test::temp_dir() / "gpu_round.png";
    const auto r = test::run_cachesim("diagram --model gpu --size 64x64 --sms 4 --block 64 --view array --time 10 -q --out '" +
                                      png.string() + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const Canvas drawn = decode_png(test::read_file(png));

    const WorkloadSpec w = workload();
    const GpuConfig c = config();
    const Snapshot s = record_round(10);
    ArrayViewStyle style;
    style.title = w.describe() + " (GPU model, block 64)";
    style.notes = run_notes(w, gpu_hierarchy(c), s.run.result, {true, c.sms});
    style.notes.push_back(hit_sources_note(s.gpu.l1_hit_sources));
    const ArrayView v = make_array_view(s.run.diagram.layout(), *s.run.snapshot, w, StepUnit::round);
    const RenderedArrayView expected = render_array_view(v, style);
    ASSERT_EQ(drawn.width(), expected.image.width());
    ASSERT_EQ(drawn.height(), expected.image.height());
    int differing = 0;
    for (int y = 0; y < drawn.height(); ++y)
        for (int x = 0; x < drawn.width(); ++x) differing += drawn.pixel(x, y) != expected.image.pixel(x, y);
    EXPECT_EQ(differing, 0);
}
