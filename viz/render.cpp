#include "viz/render.hpp"

#include <algorithm>
#include <cmath>

namespace cachesim::viz {

namespace {

constexpr Rgba kAxis{60, 60, 60, 255};
constexpr Rgba kGrid{225, 225, 225, 255};
constexpr Rgba kLineBoundary{150, 150, 150, 255};
constexpr Rgba kPlayhead{0, 160, 60, 255};

// Draws the legend (swatches, then notes) from (x, y) downwards; returns the entries.
std::vector<LegendEntry> draw_legend(Canvas& c, int x, int y, double font, const std::string& heading,
                                     bool array_labels, const std::vector<std::string>& notes) {
    std::vector<LegendEntry> entries;
    c.draw_text(x, y, heading, {.size_px = font, .color = kAxis});
    const int line = static_cast<int>(font * 1.7);
    y += line;
    const int sw = static_cast<int>(font * 1.2);
    for (CellState s : kLegendOrder) {
        PixelRect r{x, y, sw, sw};
        c.fill_rect(r.x, r.y, r.w, r.h, cell_color(s));
        c.draw_rect(r.x, r.y, r.w, r.h, kAxis);
        const std::string label(array_labels ? array_state_name(s) : cell_state_name(s));
        c.draw_text(x + sw + 8, y + sw / 2.0, label, {.size_px = font, .valign = VAlign::middle});
        entries.push_back({s, label, r});
        y += line;
    }
    y += line / 2;
    for (const std::string& n : notes) {
        c.draw_text(x, y, n, {.size_px = font * 0.92, .color = kAxis});
        y += static_cast<int>(font * 1.45);
    }
    return entries;
}

int legend_width(double font, bool array_labels, const std::vector<std::string>& notes) {
    int w = 0;
    for (CellState s : kLegendOrder)
        w = std::max(w, measure_text(array_labels ? array_state_name(s) : cell_state_name(s), font).width);
    w += static_cast<int>(font * 1.2) + 8;
    for (const std::string& n : notes) w = std::max(w, measure_text(n, font * 0.92).width);
    return w;
}

std::string with_thousands(std::uint64_t v) {
    std::string s = std::to_string(v);
    for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), ",");
    return s;
}

}  // namespace

std::uint64_t nice_tick(std::uint64_t range, int max_ticks) {
    if (range == 0 || max_ticks <= 0) return 1;
    const double raw = static_cast<double>(range) / max_ticks;
    double p = std::pow(10.0, std::floor(std::log10(std::max(raw, 1.0))));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * p >= raw) return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(m * p));
    return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(10 * p));
}

std::string_view array_state_name(CellState s) {
    switch (s) {
        case CellState::accessed: return "accessed now, L1 hit";
        case CellState::fetched_from_memory: return "accessed now, fetched from memory";
        case CellState::fetched_from_l2: return "accessed now, fetched from L2";
        case CellState::in_l1: return "line in L1";
        case CellState::in_l2: return "line in L2 only";
        case CellState::not_cached: default: return "in memory only";
    }
}

int TimeDiagramLayout::x_of_step(std::uint64_t step) const {
    if (step < from || step >= to || plot.w <= 0) return -1;
    const double span = static_cast<double>(to - from);
    return plot.x + static_cast<int>((static_cast<double>(step - from) + 0.5) * plot.w / span);
}

int TimeDiagramLayout::y_of_row(const RowLayout& rows, std::uint64_t row) const {
    const auto& gs = rows.groups();
    for (std::size_t i = 0; i < gs.size() && i < groups.size(); ++i) {
        if (row - gs[i].first_row >= gs[i].lines) continue;
        const PixelRect& band = groups[i];
        return band.y + static_cast<int>((static_cast<double>(row - gs[i].first_row) + 0.5) * band.h /
                                         static_cast<double>(gs[i].lines));
    }
    return -1;
}

RenderedTimeDiagram render_time_diagram(const Diagram& d, const TimeDiagramStyle& style) {
    RenderedTimeDiagram out;
    Canvas& c = out.image;
    c = Canvas(style.width, style.height, colors::white);
    TimeDiagramLayout& lay = out.layout;
    const double font = style.font_px;
    const RowLayout& rows = d.layout();

    lay.from = style.from.value_or(d.first_step());
    lay.to = style.to.value_or(d.first_step() + d.steps());
    if (lay.to <= lay.from) lay.to = lay.from + 1;

    // Margins: title on top, array names and row ticks left, legend right, time axis below.
    const int top = style.title.empty() ? 12 : static_cast<int>(font * 2.6);
    int name_w = 0;
    for (const RowGroup& g : rows.groups()) name_w = std::max(name_w, measure_text(g.array.name, font * 1.1).width);
    const int tick_w = measure_text("y=0000", font * 0.85).width;
    const int left = 16 + name_w + 10 + tick_w + 8;
    const int right = legend_width(font, false, style.notes) + 40;
    const int bottom = static_cast<int>(font * 4.2);
    lay.plot = {left, top, std::max(10, style.width - left - right), std::max(10, style.height - top - bottom)};
    if (!style.title.empty())
        c.draw_text(style.width / 2.0, font * 0.8, style.title, {.size_px = font * 1.3, .halign = HAlign::center});

    // Bands per group, proportional to lines, separated by a gap.
    const int gap = 8;
    const auto& gs = rows.groups();
    const int n = static_cast<int>(gs.size());
    const int usable = lay.plot.h - gap * std::max(0, n - 1);
    std::uint64_t total_rows = std::max<std::uint64_t>(rows.rows(), 1);
    int y = lay.plot.y;
    for (int i = 0; i < n; ++i) {
        int h = i + 1 == n ? lay.plot.y + lay.plot.h - y
                           : static_cast<int>(static_cast<double>(usable) * gs[i].lines / total_rows);
        h = std::max(h, 1);
        lay.groups.push_back({lay.plot.x, y, lay.plot.w, h});
        y += h + gap;
    }

    // Cells: each pixel shows the combined state of the steps and lines it covers.
    const std::uint64_t span = lay.to - lay.from;
    std::vector<std::uint64_t> col_lo(lay.plot.w + 1);
    for (int px = 0; px <= lay.plot.w; ++px)
        col_lo[px] = lay.from + static_cast<std::uint64_t>(static_cast<double>(span) * px / lay.plot.w);
    for (int i = 0; i < n; ++i) {
        const PixelRect& band = lay.groups[i];
        const RowGroup& g = gs[i];
        for (int py = 0; py < band.h; ++py) {
            const std::uint64_t r0 = g.first_row + g.lines * py / band.h;
            const std::uint64_t r1 = std::max(r0 + 1, g.first_row + g.lines * (py + 1) / band.h);
            for (int px = 0; px < lay.plot.w; ++px) {
                const std::uint64_t t0 = col_lo[px];
                const std::uint64_t t1 = std::max(t0 + 1, col_lo[px + 1]);
                c.set_pixel(band.x + px, band.y + py, cell_color(d.query(t0, t1, r0, r1)));
            }
        }
        // Cell borders when cells are large enough to tell apart.
        const double cw = static_cast<double>(lay.plot.w) / static_cast<double>(span);
        const double ch = static_cast<double>(band.h) / static_cast<double>(g.lines);
        if (cw >= 5 && ch >= 5) {
            for (std::uint64_t t = 1; t < span; ++t) {
                const int x = band.x + static_cast<int>(std::lround(t * cw));
                for (int yy = band.y; yy < band.y + band.h; ++yy)
                    if (c.pixel(x, yy) == cell_color(CellState::not_cached)) c.set_pixel(x, yy, kGrid);
            }
            for (std::uint64_t r = 1; r < g.lines; ++r) {
                const int yy = band.y + static_cast<int>(std::lround(r * ch));
                for (int x = band.x; x < band.x + band.w; ++x)
                    if (c.pixel(x, yy) == cell_color(CellState::not_cached)) c.set_pixel(x, yy, kGrid);
            }
        }
        c.draw_rect(band.x - 1, band.y - 1, band.w + 2, band.h + 2, kAxis);
        // Array name and element-row ticks.
        c.draw_text(16, band.y + band.h / 2.0, g.array.name,
                    {.size_px = font * 1.1, .valign = VAlign::middle});
        const ArrayInfo& a = g.array;
        if (a.width > 0 && a.height > 1) {
            const std::uint64_t row_bytes = static_cast<std::uint64_t>(a.width) * a.elem_bytes;
            const int min_gap = static_cast<int>(font * 1.3);
            const double px_per_y = static_cast<double>(band.h) * row_bytes / rows.line_bytes() / g.lines;
            const std::uint64_t every = nice_tick(a.height, std::max(1, static_cast<int>(band.h / min_gap)));
            (void)px_per_y;
            for (std::uint64_t yy = 0; yy < a.height; yy += every) {
                const std::uint64_t line = (a.base + yy * row_bytes) / rows.line_bytes();
                const double fy = band.y + static_cast<double>(line - g.first_line) * band.h / g.lines;
                c.hline(band.x - 5, band.x - 2, static_cast<int>(fy), kAxis);
                c.draw_text(band.x - 8, fy, "y=" + std::to_string(yy),
                            {.size_px = font * 0.85, .color = kAxis, .halign = HAlign::right, .valign = VAlign::middle});
            }
        }
    }

    // Time axis.
    const int axis_y = lay.plot.y + lay.plot.h + 4;
    const std::uint64_t tick = nice_tick(span, std::max(2, lay.plot.w / 90));
    for (std::uint64_t t = (lay.from + tick - 1) / tick * tick; t <= lay.to; t += tick) {
        const int x = lay.plot.x + static_cast<int>(static_cast<double>(t - lay.from) * lay.plot.w / span);
        c.vline(x, axis_y, axis_y + 5, kAxis);
        c.draw_text(x, axis_y + 7, with_thousands(t), {.size_px = font * 0.9, .color = kAxis, .halign = HAlign::center});
    }
    c.draw_text(lay.plot.x + lay.plot.w / 2.0, axis_y + font * 2.2, style.time_label,
                {.size_px = font, .halign = HAlign::center});

    if (style.playhead && *style.playhead >= lay.from && *style.playhead < lay.to) {
        const int x = lay.x_of_step(*style.playhead);
        c.fill_rect(x - 1, lay.plot.y - 4, 2, lay.plot.h + 8, kPlayhead);
    }

    const int lx = lay.plot.x + lay.plot.w + 28;
    std::vector<std::string> notes = style.notes;
    if (!d.exact())
        notes.push_back("1 cell = " + with_thousands(d.steps_per_column()) + " steps x " +
                        with_thousands(d.rows_per_bucket()) + " lines");
    lay.legend = draw_legend(c, lx, lay.plot.y, font, "legend (most important first)", false, notes);
    return out;
}

PixelRect ArrayViewLayout::cell(std::size_t array, std::uint32_t x, std::uint32_t y) const {
    const PixelRect& a = arrays[array];
    const int s = cell_size[array];
    return {a.x + static_cast<int>(x) * s, a.y + static_cast<int>(y) * s, s, s};
}

RenderedArrayView render_array_view(const ArrayView& view, const ArrayViewStyle& style) {
    RenderedArrayView out;
    Canvas& c = out.image;
    c = Canvas(style.width, style.height, colors::white);
    ArrayViewLayout& lay = out.layout;
    const double font = style.font_px;
    const int top = static_cast<int>(font * (style.title.empty() ? 1.0 : 2.6)) + static_cast<int>(font * 1.8);
    if (!style.title.empty())
        c.draw_text(style.width / 2.0, font * 0.8, style.title, {.size_px = font * 1.3, .halign = HAlign::center});
    const int right = legend_width(font, true, style.notes) + 40;
    const int area_w = std::max(50, style.width - right - 20);
    const int area_h = std::max(50, style.height - top - 20);
    const int n = static_cast<int>(view.arrays.size());
    const int gap = 30;
    // One cell size for all arrays (same scale), the largest that fits side by side.
    std::uint64_t total_w = 0, max_h = 1;
    for (const ArrayGrid& g : view.arrays) {
        total_w += g.width;
        max_h = std::max<std::uint64_t>(max_h, g.height);
    }
    const int by_w = total_w ? static_cast<int>((area_w - gap * std::max(0, n - 1)) / total_w) : 1;
    const int by_h = static_cast<int>(area_h / max_h);
    const int s = std::max(1, std::min(by_w, by_h));
    int x = 20;
    for (const ArrayGrid& g : view.arrays) {
        PixelRect r{x, top, static_cast<int>(g.width) * s, static_cast<int>(g.height) * s};
        lay.arrays.push_back(r);
        lay.cell_size.push_back(s);
        c.draw_text(r.x, r.y - font * 0.5, g.name + "  (" + std::to_string(g.width) + " x " + std::to_string(g.height) + ")",
                    {.size_px = font * 1.1, .valign = VAlign::bottom});
        for (std::uint32_t yy = 0; yy < g.height; ++yy)
            for (std::uint32_t xx = 0; xx < g.width; ++xx)
                c.fill_rect(r.x + static_cast<int>(xx) * s, r.y + static_cast<int>(yy) * s, s, s, cell_color(g.at(xx, yy)));
        if (s >= 4) {
            // Thin element borders, darker line boundaries.
            for (std::uint32_t xx = 1; xx < g.width; ++xx) {
                const bool boundary = (xx + g.first_element_offset) % g.elements_per_line == 0;
                c.vline(r.x + static_cast<int>(xx) * s, r.y, r.y + r.h - 1, boundary ? kLineBoundary : kGrid);
            }
            for (std::uint32_t yy = 1; yy < g.height; ++yy) c.hline(r.x, r.x + r.w - 1, r.y + static_cast<int>(yy) * s, kGrid);
        }
        c.draw_rect(r.x - 1, r.y - 1, r.w + 2, r.h + 2, kAxis);
        x += r.w + gap;
    }
    std::string heading = "step " + with_thousands(view.step);
    if (view.work_item)
        heading += ": work item (" + std::to_string(view.item_x) + ", " + std::to_string(view.item_y) + ")";
    lay.legend = draw_legend(c, style.width - right + 20, top, font, heading, true, style.notes);
    return out;
}

}  // namespace cachesim::viz
