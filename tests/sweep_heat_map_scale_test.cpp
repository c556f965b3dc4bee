// A sweep heat map whose cells all hold one value has no colour scale to show: a single swatch
// says "all X" instead of a gradient labelled X at both ends. The check looks for the gradient's
// own colour on one row of the bar, worked out from the drawing rule: the bar is 60 px tall
// (one 30-px row of cells, less than the 60-px minimum) from y = 48, high at the top, so row
// 48 + 45 is viridis(1 - 45/59).
#include <gtest/gtest.h>

#include "apps/cachesim/sweep_plot.hpp"

namespace cachesim::cli {
namespace {

HeatMap one_row(double a, double b) {
    HeatMap map;
    map.title = map.value_label = "l1_hit_rate";
    map.x_label = "l1-size";
    map.xs = {"8K", "16K"};
    map.ys = {""};
    map.values = {a, b};
    map.counts = {1, 1};
    return map;
}

bool row_has(const viz::Canvas& canvas, int y, viz::Rgba colour) {
    for (int x = 0; x < canvas.width(); ++x)
        if (canvas.pixel(x, y) == colour) return true;
    return false;
}

const viz::Rgba kGradientAt45 = viz::viridis(1.0 - 45.0 / 59.0);

TEST(SweepHeatMapScale, DifferentValuesGetAGradient) {
    EXPECT_TRUE(row_has(render_heat_map(one_row(90.0, 97.5)), 48 + 45, kGradientAt45));
}

TEST(SweepHeatMapScale, OneValueEverywhereGetsNoGradient) {
    const viz::Canvas canvas = render_heat_map(one_row(97.5, 97.5));
    EXPECT_FALSE(row_has(canvas, 48 + 45, kGradientAt45));
    // The cells and the swatch beside them take the middle of the scale.
    EXPECT_TRUE(row_has(canvas, 48 + 7, viz::viridis(0.5)));
}

}  // namespace
}  // namespace cachesim::cli
