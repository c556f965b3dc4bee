// The colour-by-SM legend names only SMs that exist: the palette has 12 colours, so SM k shares
// its swatch with SMs k + 12, k + 24, ...; a swatch lists the first two of them, with ", ..."
// only where a third follows.
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>
#include <vector>

#include "sim/gpu/gpu_presets.hpp"
#include "viz/record.hpp"
#include "viz/render.hpp"

using namespace cachesim;
using namespace cachesim::viz;

namespace {

// Every SM number a label names ("SM 3, 15" names 3 and 15).
std::vector<std::uint32_t> sms_named(const std::string& label) {
    std::vector<std::uint32_t> sms;
    static const std::regex number("[0-9]+");
    for (auto it = std::sregex_iterator(label.begin(), label.end(), number); it != std::sregex_iterator(); ++it)
        sms.push_back(static_cast<std::uint32_t>(std::stoul(it->str())));
    return sms;
}

}  // namespace

TEST(VizSmLegend, SixteenSmsShareOnlyTheFirstFourColours) {
    // SMs 12-15 wrap round to the colours of SMs 0-3; SMs 4-11 have a colour of their own.
    const std::vector<std::string> expected = {"SM 0, 12", "SM 1, 13", "SM 2, 14", "SM 3, 15", "SM 4",  "SM 5",
                                               "SM 6",     "SM 7",     "SM 8",     "SM 9",     "SM 10", "SM 11"};
    EXPECT_EQ(sm_legend_labels(16), expected);
}

TEST(VizSmLegend, EllipsisOnlyWhereMoreFollow) {
    EXPECT_EQ(sm_legend_labels(4), (std::vector<std::string>{"SM 0", "SM 1", "SM 2", "SM 3"}));
    EXPECT_EQ(sm_legend_labels(12).back(), "SM 11");
    // 25 SMs: colour 0 has SMs 0, 12 and 24; colour 1 only 1 and 13.
    const std::vector<std::string> l25 = sm_legend_labels(25);
    ASSERT_EQ(l25.size(), 12u);
    EXPECT_EQ(l25[0], "SM 0, 12, ...");
    EXPECT_EQ(l25[1], "SM 1, 13");
    // The H200's 132 SMs: every colour has at least three (11 + 24 = 35 < 132).
    for (const std::string& label : sm_legend_labels(132)) EXPECT_EQ(label.substr(label.size() - 5), ", ...") << label;
    EXPECT_TRUE(sm_legend_labels(0).empty());
}

// The PNG of a 16-SM run (128 blocks of 128 threads: every SM runs blocks) names each of SMs 0 to
// 15 exactly once, each beside the swatch of its colour (SM k: colour k mod 12), and no other.
TEST(VizSmLegend, PictureOfSixteenSmsNamesEachOnce) {
    WorkloadSpec w;
    w.width = w.height = 128;
    w.stencil_w = w.stencil_h = 3;
    GpuConfig config = with_sms(find_gpu_preset("h200")->config, 16);
    config.block = 128;
    RecorderOptions o;
    o.record_sm = true;
    const RecordedRun run = record_gpu_model(w, config, o);
    TimeDiagramStyle style;
    style.colour_by = TimeDiagramStyle::ColourBy::sm;
    style.width = 1600;
    const RenderedTimeDiagram r = render_time_diagram(run.diagram, style);
    ASSERT_EQ(r.layout.sm_legend.size(), 12u);
    std::multiset<std::uint32_t> named;
    for (std::size_t swatch = 0; swatch < r.layout.sm_legend.size(); ++swatch)
        for (std::uint32_t sm : sms_named(r.layout.sm_legend[swatch])) {
            EXPECT_EQ(sm % 12, swatch) << r.layout.sm_legend[swatch];
            named.insert(sm);
        }
    std::multiset<std::uint32_t> every_sm;
    for (std::uint32_t sm = 0; sm < 16; ++sm) every_sm.insert(sm);
    EXPECT_EQ(named, every_sm);
    for (const std::string& label : r.layout.sm_legend) EXPECT_EQ(label.find("..."), std::string::npos) << label;
}
