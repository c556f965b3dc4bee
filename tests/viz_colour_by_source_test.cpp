// --colour-by source on the matmul where the sharing is known by hand (as in
// gpu_l1_hit_sources_test): one 128-column strip, column:128, blocks of 128 threads, each block
// one row of C, the h200 preset cut to two SMs. Warp w of a block reads sectors 4w..4w+3 of B's
// row k (line w of that row) once, as warp w of every other block on its SM does; A's row is its
// block's alone. So every L1 hit in B's lines was brought by another block, none in A's was, and
// with one block an SM nothing at all comes from another block.
#include <gtest/gtest.h>

#include <array>
#include <map>
#include <string>

#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "tests/gpu_test_util.hpp"
#include "viz/record.hpp"
#include "viz/render.hpp"

using namespace cachesim;
using namespace cachesim::viz;

namespace {

constexpr std::uint32_t kSms = 2, kDepth = 64;

GpuConfig two_sms() {
    GpuConfig c = with_sms(find_gpu_preset("h200")->config, kSms);
    c.block = 128;
    return c;
}

WorkloadSpec strip(std::uint32_t blocks_per_sm) { return test::matmul(128, kSms * blocks_per_sm, kDepth, "column:128"); }

// The hit-source events by source, as an observer beside the recorder sees them.
struct SourceEvents : SimObserver {
    std::array<std::uint64_t, 4> by_source{};
    void on_l1_hit_source(std::uint64_t, HitSource s) override { ++by_source[static_cast<std::size_t>(s)]; }
};

// Tagged cells of the array named `name`, by tag.
std::array<std::uint64_t, 4> tags_in(const Diagram& d, const std::string& name) {
    std::array<std::uint64_t, 4> n{};
    for (const RowGroup& g : d.layout().groups()) {
        if (g.array.name != name) continue;
        for (std::uint64_t c = 0; c < d.hit_sources().columns(); ++c)
            for (std::uint64_t r = g.first_row; r < g.first_row + g.lines; ++r) ++n[d.hit_sources().at(c, r)];
    }
    return n;
}

RecordedRun record(std::uint32_t blocks_per_sm) {
    RecorderOptions o;
    o.record_hit_sources = true;
    o.max_cells = std::uint64_t{1} << 26;
    return record_gpu_model(strip(blocks_per_sm), two_sms(), o);
}

constexpr auto kWarp = static_cast<std::size_t>(HitSource::own_warp);
constexpr auto kBlock = static_cast<std::size_t>(HitSource::own_block);
constexpr auto kOther = static_cast<std::size_t>(HitSource::other_block);

}  // namespace

TEST(VizColourBySource, TheEventsCountTheHitsWorkedByHand) {
    // A full wave: 16 blocks an SM. Per SM and iteration: each of B's 16 sectors filled once and
    // found by 15 other blocks; A's sector found 7 times in 8 by its filler, 24 in 8 by the
    // block's three other warps.
    GpuConfig c = two_sms();
    c.count_l1_hit_sources = true;
    SourceEvents events;
    RunControl control;
    control.observer = &events;
    simulate_gpu_model(strip(16), c, control);
    const std::uint64_t per_sm_iteration = std::uint64_t{kSms} * kDepth;
    EXPECT_EQ(events.by_source[kOther], per_sm_iteration * 16 * 15);
    EXPECT_EQ(events.by_source[kWarp], per_sm_iteration * 16 * 7 / 8);
    EXPECT_EQ(events.by_source[kBlock], per_sm_iteration * 16 * 24 / 8);
}

TEST(VizColourBySource, BsHitsComeFromOtherBlocksAndAsFromTheirOwn) {
    const RecordedRun run = record(16);
    const Diagram& d = run.diagram;
    ASSERT_FALSE(d.hit_sources().empty());
    const auto b = tags_in(d, "B"), a = tags_in(d, "A");
    EXPECT_GT(b[kOther], 0u);
    EXPECT_EQ(b[kWarp] + b[kBlock], 0u);
    EXPECT_EQ(a[kOther], 0u);
    // Three of A's hits in four are the block's other warps': some cell has them as its most.
    EXPECT_GT(a[kBlock], 0u);

    // The picture: B's cells in the colour of other blocks, none of A's.
    TimeDiagramStyle style;
    style.colour_by = ColourBy::hit_source;
    const RenderedTimeDiagram r = render_time_diagram(d, style);
    std::map<std::string, std::uint64_t> other_pixels;  // by array
    ASSERT_EQ(r.layout.groups.size(), d.layout().groups().size());
    for (std::size_t band = 0; band < r.layout.groups.size(); ++band) {
        const PixelRect& g = r.layout.groups[band];
        std::uint64_t& n = other_pixels[d.layout().groups()[band].array.name];
        for (int y = g.y; y < g.y + g.h; ++y)
            for (int x = g.x; x < g.x + g.w; ++x) n += r.image.pixel(x, y) == hit_source_color(HitSource::other_block);
    }
    EXPECT_EQ(other_pixels["A"], 0u);
    EXPECT_GT(other_pixels["B"], 0u);
    EXPECT_EQ(other_pixels["C"], 0u);
}

TEST(VizColourBySource, OneBlockAnSmHasNoHitFromAnotherBlock) {
    const RecordedRun run = record(1);
    const auto a = tags_in(run.diagram, "A"), b = tags_in(run.diagram, "B"), c = tags_in(run.diagram, "C");
    EXPECT_EQ(a[kOther] + b[kOther] + c[kOther], 0u);
    EXPECT_EQ(b[kWarp] + b[kBlock], 0u);  // each sector of B read once an SM
    EXPECT_GT(a[kWarp] + a[kBlock], 0u);
}
