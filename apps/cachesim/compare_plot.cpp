#include "apps/cachesim/compare_plot.hpp"
#include "apps/cachesim/number_text.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <string>

#include "viz/canvas.hpp"

namespace cachesim::cli {

namespace {

using viz::Canvas;
using viz::HAlign;
using viz::Rgba;
using viz::TextStyle;
using viz::VAlign;
namespace colors = viz::colors;

struct Frame {
    int x, y, w, h;  // plot area in pixels
    double x_of(double v) const { return x + v / 100.0 * w; }
    double y_of(double v) const { return y + h - v / 100.0 * h; }
};

void draw_percent_axes(Canvas& c, const Frame& f, const char* x_title, const char* y_title, bool x_ticks) {
    for (int v = 0; v <= 100; v += 10) {
        const int gy = static_cast<int>(std::lround(f.y_of(v)));
        c.hline(f.x, f.x + f.w, gy, colors::light_gray);
        c.draw_text(f.x - 6, gy, std::to_string(v), {11, colors::dark_gray, HAlign::right, VAlign::middle});
        if (x_ticks) {
            const int gx = static_cast<int>(std::lround(f.x_of(v)));
            c.vline(gx, f.y, f.y + f.h, colors::light_gray);
            c.draw_text(gx, f.y + f.h + 6, std::to_string(v), {11, colors::dark_gray, HAlign::center, VAlign::top});
        }
    }
    c.draw_rect(f.x, f.y, f.w + 1, f.h + 1, colors::dark_gray);
    if (x_title) c.draw_text(f.x + f.w / 2.0, f.y + f.h + 24, x_title, {13, colors::black, HAlign::center, VAlign::top});
    TextStyle vertical{13, colors::black, HAlign::center, VAlign::bottom};
    vertical.vertical = true;
    c.draw_text(f.x - 34, f.y + f.h / 2.0, y_title, vertical);
}

void legend_entry(Canvas& c, int x, int y, Rgba color, const std::string& label) {
    c.fill_rect(x, y - 6, 12, 12, color);
    c.draw_text(x + 18, y, label, {12, colors::black, HAlign::left, VAlign::middle});
}

}  // namespace

std::string render_compare_plot(const std::vector<ComparedRun>& runs, const CompareSummary& summary,
                                const std::string& title, int width, int height) {
    Canvas c(width, height, colors::white);
    c.draw_text(width / 2.0, 12, title, {16, colors::black, HAlign::center, VAlign::top});
    // fixed_text gives "n/a" where no run has a measured rate at a level (a NaN mean).
    const std::string line = counted(summary.runs, "run") + " | L1 hit rate: mean |error| " +
                             fixed_text(summary.l1_mean_abs_pp, 2) + " pp, worst " + fixed_text(summary.l1_worst_abs_pp, 2) +
                             " pp | L2: mean " + fixed_text(summary.l2_mean_abs_pp, 2) + " pp, worst " +
                             fixed_text(summary.l2_worst_abs_pp, 2) + " pp | schedule rank correlation L1 " +
                             fixed_text(summary.l1_rank_correlation, 2) + ", L2 " + fixed_text(summary.l2_rank_correlation, 2);
    c.draw_text(width / 2.0, 34, line, {12, colors::dark_gray, HAlign::center, VAlign::top});

    const Rgba l1_color = colors::blue, l2_color = colors::orange;
    const Rgba l1_light = viz::mix(colors::blue, colors::white, 0.55), l2_light = viz::mix(colors::orange, colors::white, 0.55);

    // Left: scatter, simulated (y) against measured (x), identity line and the +-3 pp band.
    const int side = std::min(height - 200, width / 2 - 140);  // room below for rotated labels
    const Frame scatter{80, 84, side, side};
    draw_percent_axes(c, scatter, "measured hit rate (%)", "simulated hit rate (%)", true);
    c.draw_line(scatter.x_of(0), scatter.y_of(3), scatter.x_of(97), scatter.y_of(100), colors::light_gray, 1.0);
    c.draw_line(scatter.x_of(3), scatter.y_of(0), scatter.x_of(100), scatter.y_of(97), colors::light_gray, 1.0);
    c.draw_line(scatter.x_of(0), scatter.y_of(0), scatter.x_of(100), scatter.y_of(100), colors::gray, 1.5);
    // A level whose chip counted no lookups has no measured rate to place (not a 0% one).
    for (const ComparedRun& r : runs) {
        if (r.l2_rate_measured())
            c.fill_circle(scatter.x_of(r.measured.metrics.l2_hit_rate_pct()), scatter.y_of(r.simulated_l2_hit_rate_pct()), 4, l2_color);
        if (r.l1_rate_measured())
            c.fill_circle(scatter.x_of(r.measured.metrics.l1_hit_rate_pct), scatter.y_of(r.simulated.l1_hit_rate_pct()), 4, l1_color);
    }
    legend_entry(c, scatter.x, scatter.y - 14, l1_color, "L1 (global loads)");
    legend_entry(c, scatter.x + 150, scatter.y - 14, l2_color, "L2 (all reads)");

    // Right: per-schedule mean hit rates, measured (light) beside simulated (solid).
    std::vector<std::string> order;
    // Per schedule: L1 measured, L1 simulated, L2 measured, L2 simulated, then the runs with an L1
    // rate and those with an L2 rate (each level's mean is over its own rated runs).
    std::map<std::string, std::array<double, 6>> sums;
    for (const ComparedRun& r : runs) {
        const std::string s = measured_schedule_name(r.measured);
        if (!sums.count(s)) order.push_back(s);
        auto& a = sums[s];
        if (r.l1_rate_measured()) {
            a[0] += r.measured.metrics.l1_hit_rate_pct;
            a[1] += r.simulated.l1_hit_rate_pct();
            a[4] += 1;
        }
        if (r.l2_rate_measured()) {
            a[2] += r.measured.metrics.l2_hit_rate_pct();
            a[3] += r.simulated_l2_hit_rate_pct();
            a[5] += 1;
        }
    }
    const int bars_x = scatter.x + scatter.w + 110;
    const Frame bars{bars_x, 84, width - bars_x - 30, side};
    draw_percent_axes(c, bars, nullptr, "mean hit rate (%)", false);
    const double slot = order.empty() ? 0 : static_cast<double>(bars.w) / static_cast<double>(order.size());
    const Rgba palette[4] = {l1_light, l1_color, l2_light, l2_color};
    for (std::size_t i = 0; i < order.size(); ++i) {
        const auto& a = sums[order[i]];
        const double bar = slot * 0.8 / 4;
        for (int k = 0; k < 4; ++k) {
            const double rated = a[k < 2 ? 4 : 5];
            if (rated == 0) continue;  // no bar for a level this schedule has no measured rate at
            const double v = a[k] / rated;
            const double x0 = bars.x + slot * static_cast<double>(i) + slot * 0.1 + bar * k;
            const double y0 = bars.y_of(v);
            c.fill_rect(static_cast<int>(std::lround(x0)), static_cast<int>(std::lround(y0)),
                        std::max(1, static_cast<int>(std::lround(bar)) - 1),
                        static_cast<int>(std::lround(bars.y_of(0) - y0)), palette[k]);
        }
        TextStyle label{11, colors::black, HAlign::right, VAlign::middle};
        label.vertical = order.size() > 6;
        if (label.vertical)
            c.draw_text(bars.x + slot * (static_cast<double>(i) + 0.5), bars.y + bars.h + 8, order[i], label);
        else
            c.draw_text(bars.x + slot * (static_cast<double>(i) + 0.5), bars.y + bars.h + 8, order[i],
                        {11, colors::black, HAlign::center, VAlign::top});
    }
    // The legend runs along the top of the panel, where no bar reaches.
    const int legend_y = bars.y - 14;
    legend_entry(c, bars.x, legend_y, l1_light, "L1 measured");
    legend_entry(c, bars.x + 120, legend_y, l1_color, "L1 simulated");
    legend_entry(c, bars.x + 240, legend_y, l2_light, "L2 measured");
    legend_entry(c, bars.x + 360, legend_y, l2_color, "L2 simulated");
    return viz::encode_png(c);
}

}  // namespace cachesim::cli
