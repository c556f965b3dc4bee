#include "viz/render.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "viz/cell_colouring.hpp"

namespace cachesim::viz {

namespace {

constexpr Rgba kAxis{60, 60, 60, 255};
constexpr Rgba kGrid{225, 225, 225, 255};
constexpr Rgba kLineBoundary{150, 150, 150, 255};
constexpr Rgba kPlayhead{0, 160, 60, 255};

// The box draw_text covers for `text` anchored at (x, y) (canvas.cpp's anchoring).
PixelRect text_rect(double x, double y, std::string_view text, const TextStyle& style) {
    const TextExtent e = measure_text(text, style.size_px);
    double left = std::round(x), top = std::round(y);
    if (style.halign == HAlign::center) left -= e.width / 2.0;
    else if (style.halign == HAlign::right) left -= e.width;
    switch (style.valign) {
        case VAlign::top: break;
        case VAlign::middle: top -= e.height() / 2.0; break;
        case VAlign::baseline: top -= e.ascent; break;
        case VAlign::bottom: top -= e.height(); break;
    }
    return {static_cast<int>(std::floor(left)), static_cast<int>(std::floor(top)), e.width, e.height()};
}

// Draws `text` and, where `into` is given, records its box there.
void draw_text_at(Canvas& c, std::vector<PixelRect>* into, double x, double y, const std::string& text,
                  const TextStyle& style) {
    c.draw_text(x, y, text, style);
    if (into) into->push_back(text_rect(x, y, text, style));
}

// Draws the legend (swatches, then notes) from (x, y) downwards; returns the entries. `lines`:
// where to record each line of text's box.
std::vector<LegendEntry> draw_legend(Canvas& c, int x, int y, double font, const std::string& heading,
                                     bool array_labels, const std::vector<std::string>& notes,
                                     std::vector<PixelRect>* lines = nullptr) {
    std::vector<LegendEntry> entries;
    draw_text_at(c, lines, x, y, heading, {.size_px = font, .color = kAxis});
    const int line = static_cast<int>(font * 1.7);
    y += line;
    const int sw = static_cast<int>(font * 1.2);
    for (CellState s : kLegendOrder) {
        PixelRect r{x, y, sw, sw};
        c.fill_rect(r.x, r.y, r.w, r.h, cell_color(s));
        c.draw_rect(r.x, r.y, r.w, r.h, kAxis);
        const std::string label(array_labels ? array_state_name(s) : cell_state_name(s));
        draw_text_at(c, lines, x + sw + 8, y + sw / 2.0, label, {.size_px = font, .valign = VAlign::middle});
        entries.push_back({s, label, r});
        y += line;
    }
    y += line / 2;
    for (const std::string& n : notes) {
        draw_text_at(c, lines, x, y, n, {.size_px = font * 0.92, .color = kAxis});
        y += static_cast<int>(font * 1.45);
    }
    return entries;
}

// `labels`: swatch labels beside the states'.
int legend_width(double font, bool array_labels, const std::vector<std::string>& notes,
                 const std::vector<std::string>& labels = {}) {
    int w = 0;
    for (CellState s : kLegendOrder)
        w = std::max(w, measure_text(array_labels ? array_state_name(s) : cell_state_name(s), font).width);
    for (const std::string& l : labels) w = std::max(w, measure_text(l, font).width);
    w += static_cast<int>(font * 1.2) + 8;
    for (const std::string& n : notes) w = std::max(w, measure_text(n, font * 0.92).width);
    return w;
}

std::string with_thousands(std::uint64_t v) {
    std::string s = std::to_string(v);
    for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), ",");
    return s;
}

// "1 step", "1,024 steps": a count with its noun, singular for one.
std::string counted(std::uint64_t n, const std::string& noun) { return with_thousands(n) + " " + noun + (n == 1 ? "" : "s"); }

std::string hit_source_label(HitSource source) { return "L1 hit brought by " + std::string(hit_source_name(source)); }

// The note drawn where the memory chart does not fit beside the plot.
// What the picture lacks for the memory chart: its width, or where the width is enough (0), its
// height. One at a time, so that the note is no wider than the width's, which the legend keeps
// room for.
std::string chart_note(int width, int height) {
    if (width > 0) return "memory chart: needs --width " + std::to_string(width) + " or more";
    return "memory chart: needs --height " + std::to_string(height) + " or more";
}

// The time view's legend column: its widest line (any heading, swatch label or note the legend
// may draw, whichever colouring the picture ends up with), and a margin.
int time_legend_width(const Diagram& d, const TimeDiagramStyle& style) {
    std::vector<std::string> labels = {"legend (most important first)", "legend (a fetch wins a shared pixel)",
                                       "legend: L1 misses per cell", "legend: SM that accessed the line",
                                       "legend: who brought the sectors L1 hits found", "SM 11, 23, ..."};
    if (style.colour_by == ColourBy::hit_source) {
        for (HitSource source : kHitSourceOrder) labels.push_back(hit_source_label(source));
    }
    for (CellState s : kLegendOrder)
        for (bool density : {false, true}) labels.push_back(muted_state_label(s, style.colour_by, density));
    std::vector<std::string> notes = style.notes;
    notes.push_back("misses / (steps x lines) a pixel covers, log scale");
    if (!d.exact())
        notes.push_back("1 cell = " + counted(d.steps_per_column(), "step") + " x " + counted(d.rows_per_bucket(), "line"));
    if (style.rows)
        notes.push_back("lines " + with_thousands(style.rows->first) + " to " + with_thousands(style.rows->end) + " of " +
                        with_thousands(d.layout().rows()));
    for (std::size_t l = 0; l < d.miss_rates().size() && l < 2; ++l)
        notes.push_back("strip: " + strip_level_label(d.miss_rates()[l], l));
    if (style.memory_chart) notes.push_back(chart_note(99999, 0));  // (the width it names is not known yet)
    return legend_width(style.font_px, false, notes, labels) + 40;
}

// The time view's left margin: array names and row ticks.
int time_left_margin(const std::vector<const RowGroup*>& groups, double font) {
    int name_w = 0;
    for (const RowGroup* g : groups) name_w = std::max(name_w, measure_text(g->array.name, font * 1.1).width);
    return 16 + name_w + 10 + measure_text("y=0000", font * 0.85).width + 8;
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

std::uint64_t time_axis_tick(std::uint64_t steps, int plot_width) { return nice_tick(steps, std::max(2, plot_width / 90)); }

std::vector<std::string> sm_legend_labels(std::uint32_t sm_count) {
    constexpr std::uint32_t kColours = 12;  // sm_color's palette
    std::vector<std::string> labels;
    for (std::uint32_t k = 0; k < std::min(sm_count, kColours); ++k) {
        std::string label = "SM " + std::to_string(k);
        if (k + kColours < sm_count) label += ", " + std::to_string(k + kColours);
        if (k + 2 * kColours < sm_count) label += ", ...";
        labels.push_back(label);
    }
    return labels;
}

std::string_view array_state_name(CellState s) {
    switch (s) {
        case CellState::accessed: return "accessed now, L1 hit";
        case CellState::fetched_from_memory: return "accessed now, fetched from memory";
        case CellState::fetched_from_l2: return "accessed now, fetched from L2";
        case CellState::stored: return "stored now, written through";
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

int TimeDiagramLayout::y_of_row(const RowLayout&, std::uint64_t row) const {
    for (std::size_t i = 0; i < groups.size() && i < band_rows.size(); ++i) {
        if (row < band_first_row[i] || row - band_first_row[i] >= band_rows[i]) continue;
        const PixelRect& band = groups[i];
        return band.y + static_cast<int>((static_cast<double>(row - band_first_row[i]) + 0.5) * band.h /
                                         static_cast<double>(band_rows[i]));
    }
    return -1;
}

std::pair<std::uint64_t, std::uint64_t> TimeDiagramLayout::steps_of_column(int px) const {
    const std::uint64_t span = to - from;
    auto lo = [&](int p) { return from + static_cast<std::uint64_t>(static_cast<double>(span) * p / plot.w); };
    const std::uint64_t t0 = lo(px);
    return {t0, std::max(t0 + 1, lo(px + 1))};
}

std::pair<std::uint64_t, std::uint64_t> TimeDiagramLayout::rows_of_pixel(std::size_t band, int py) const {
    const std::uint64_t n = band_rows[band], h = static_cast<std::uint64_t>(groups[band].h);
    const std::uint64_t r0 = band_first_row[band] + n * static_cast<std::uint64_t>(py) / h;
    return {r0, std::max(r0 + 1, band_first_row[band] + n * static_cast<std::uint64_t>(py + 1) / h)};
}

Rgba miss_density_color(double t) {
    static constexpr Rgba kStops[4] = {{250, 160, 60, 255}, {230, 80, 80, 255}, {160, 40, 120, 255}, {60, 15, 90, 255}};
    t = std::clamp(t, 0.0, 1.0) * 3;
    const int i = std::min(2, static_cast<int>(t));
    const double f = t - i;
    auto mix = [&](std::uint8_t a, std::uint8_t b) { return static_cast<std::uint8_t>(std::lround(a + (b - a) * f)); };
    return {mix(kStops[i].r, kStops[i + 1].r), mix(kStops[i].g, kStops[i + 1].g), mix(kStops[i].b, kStops[i + 1].b), 255};
}

Rgba muted_color(CellState s) {
    switch (s) {
        case CellState::accessed: return {150, 150, 150, 255};
        case CellState::fetched_from_memory: return cell_color(s);
        case CellState::fetched_from_l2: return cell_color(s);
        case CellState::stored: return {199, 233, 192, 255};
        case CellState::in_l1: return {198, 219, 239, 255};
        case CellState::in_l2: return {232, 241, 250, 255};
        case CellState::not_cached: default: return {255, 255, 255, 255};
    }
}

Rgba sm_color(std::uint32_t sm) {
    static constexpr Rgba kPalette[12] = {
        {31, 119, 180, 255}, {255, 127, 14, 255}, {44, 160, 44, 255},  {214, 39, 40, 255},
        {148, 103, 189, 255}, {140, 86, 75, 255}, {227, 119, 194, 255}, {127, 127, 127, 255},
        {188, 189, 34, 255}, {23, 190, 207, 255}, {0, 0, 0, 255},       {255, 215, 0, 255}};
    return kPalette[sm % 12];
}

Rgba hit_source_color(HitSource source) {
    switch (source) {
        case HitSource::own_warp: return {20, 20, 20, 255};
        case HitSource::own_block: return {27, 120, 55, 255};
        case HitSource::other_block: default: return {118, 42, 131, 255};
    }
}

std::string_view hit_source_name(HitSource source) {
    switch (source) {
        case HitSource::own_warp: return "the same warp";
        case HitSource::own_block: return "another warp of its block";
        case HitSource::other_block: default: return "another block on the SM";
    }
}

namespace {

void draw_memory_chart(Canvas& c, const MemoryChart& chart, const PixelRect& r, double font) {
    c.draw_text(r.x, r.y, chart.title, {.size_px = font, .color = kAxis});
    const int top = r.y + static_cast<int>(font * kChartTitleFonts);
    const double h = r.h - (top - r.y);
    for (const ChartBox& b : chart.boxes) {
        const int x = r.x + static_cast<int>(b.x * r.w), y = top + static_cast<int>(b.y * h);
        const int w = static_cast<int>(b.w * r.w), bh = static_cast<int>(b.h * h);
        c.fill_rect(x, y, w, bh, {240, 240, 240, 255});
        c.draw_rect(x, y, w, bh, kAxis);
        int ty = y + static_cast<int>(font * 0.4);
        const int text_x = x + static_cast<int>(kBoxTextPad);
        c.draw_text(text_x, ty, b.title, {.size_px = font * 0.95});
        for (const std::string& l : b.lines) {
            ty += static_cast<int>(font * kBoxLineFonts);
            c.draw_text(text_x, ty, l, {.size_px = font * 0.88, .color = kAxis});
        }
    }
    for (const ChartArrow& a : chart.arrows) {
        const int x0 = r.x + static_cast<int>(a.x0 * r.w), y0 = top + static_cast<int>(a.y0 * h);
        const int x1 = r.x + static_cast<int>(a.x1 * r.w), y1 = top + static_cast<int>(a.y1 * h);
        c.draw_line(x0, y0, x1, y1, kAxis, 2);
        for (int k = 0; k < 6; ++k) c.hline(x1 - k, x1 + k, y1 - 1 - k, kAxis);  // head (arrows point down)
        int ty = (y0 + y1) / 2 - static_cast<int>(a.labels.size() * font * kArrowLabelFonts / 2);
        for (const std::string& l : a.labels) {
            c.draw_text(x0 + static_cast<int>(kArrowLabelGap), ty, l, {.size_px = font * 0.88, .color = kAxis});
            ty += static_cast<int>(font * kArrowLabelFonts);
        }
    }
}

// The chart's height at which every text fits (the chart's title, then its parts in proportion).
int memory_chart_min_height(const MemoryChart& chart, double font) {
    return static_cast<int>(std::ceil(font * chart.min_height_fonts));
}

// The box titles are set at 0.95 of the font, the other texts at 0.88 (draw_memory_chart).
int memory_chart_width(const MemoryChart& chart, double font) {
    const double texts = memory_chart_least_width(chart, [&](const std::string& text, ChartText kind) {
        return static_cast<double>(measure_text(text, font * (kind == ChartText::box_title ? 0.95 : 0.88)).width);
    });
    return std::max(static_cast<int>(std::ceil(texts)), measure_text(chart.title, font).width);
}

// The picture's width at which the chart fits beside a plot of at least half of it.
int width_with_chart(int left, int legend_w, const MemoryChart& chart, double font) {
    return 2 * (left + legend_w + memory_chart_width(chart, font) + 30);
}

}  // namespace

int time_diagram_width_for_chart(const Diagram& d, const TimeDiagramStyle& style) {
    if (!style.memory_chart) return 0;
    std::vector<const RowGroup*> groups;  // (every array: a range of rows shows some of them)
    for (const RowGroup& g : d.layout().groups()) groups.push_back(&g);
    return width_with_chart(time_left_margin(groups, style.font_px), time_legend_width(d, style), *style.memory_chart,
                            style.font_px);
}

RenderedTimeDiagram render_time_diagram(const Diagram& d, const TimeDiagramStyle& style) {
    RenderedTimeDiagram out;
    Canvas& c = out.image;
    c = Canvas(style.width, style.height, colors::white);
    TimeDiagramLayout& lay = out.layout;
    const double font = style.font_px;
    const RowLayout& rows = d.layout();
    const std::uint64_t show_first = style.rows ? style.rows->first : 0;
    const std::uint64_t show_end = style.rows ? std::min(style.rows->end, rows.rows()) : rows.rows();

    lay.from = style.from.value_or(d.first_step());
    lay.to = style.to.value_or(d.first_step() + d.steps());
    if (lay.to <= lay.from) lay.to = lay.from + 1;

    // The groups (arrays) the rows cross, and their rows within the range.
    struct Shown {
        const RowGroup* group;
        std::uint64_t first, count;
    };
    std::vector<Shown> shown;
    for (const RowGroup& g : rows.groups()) {
        const std::uint64_t a = std::max(g.first_row, show_first), b = std::min(g.first_row + g.lines, show_end);
        if (a < b) shown.push_back({&g, a, b - a});
    }

    // Margins: title on top, array names and row ticks left, legend right, time axis below.
    const int top = style.title.empty() ? 12 : static_cast<int>(font * 2.6);
    std::vector<const RowGroup*> shown_groups;
    for (const Shown& g : shown) shown_groups.push_back(g.group);
    const int left = time_left_margin(shown_groups, font);
    const int legend_w = time_legend_width(d, style);
    int chart_w = style.memory_chart ? memory_chart_width(*style.memory_chart, font) + 30 : 0;
    // The chart only where the plot keeps at least half the width.
    const bool chart_wide_enough = style.width - left - legend_w - chart_w >= style.width / 2;
    const int height_for_chart = style.memory_chart ? top + memory_chart_min_height(*style.memory_chart, font) + 8 : 0;
    const bool chart_fits = chart_wide_enough && style.height >= height_for_chart;
    if (!chart_fits) chart_w = 0;
    const int right = legend_w + chart_w;
    const int bottom = static_cast<int>(font * 4.2);
    lay.plot = {left, top, std::max(10, style.width - left - right), std::max(10, style.height - top - bottom)};
    if (!style.title.empty()) {
        const TextStyle ts{.size_px = font * 1.3, .halign = HAlign::center};
        c.draw_text(style.width / 2.0, font * 0.8, style.title, ts);
        lay.title = text_rect(style.width / 2.0, font * 0.8, style.title, ts);
    }

    // Does any pixel show more than one recorded cell? Then the rule for aggregation matters.
    const std::uint64_t span = lay.to - lay.from;
    const int gap = 8;
    const int n = static_cast<int>(shown.size());
    std::uint64_t total_rows = 0;
    for (const Shown& g : shown) total_rows += g.count;
    total_rows = std::max<std::uint64_t>(total_rows, 1);
    bool aggregated = !d.exact() || span > static_cast<std::uint64_t>(lay.plot.w);
    {
        const int usable = lay.plot.h - gap * std::max(0, n - 1);
        for (const Shown& g : shown)
            aggregated |= static_cast<double>(g.count) > static_cast<double>(usable) * g.count / total_rows;
    }
    lay.aggregated = aggregated;
    const bool strip = style.miss_rate_strip == TimeDiagramStyle::Strip::on ||
                       (style.miss_rate_strip == TimeDiagramStyle::Strip::automatic && aggregated);
    const bool have_rates = strip && !d.miss_rates().empty();
    const int strip_h = have_rates ? std::max(40, static_cast<int>(font * 5)) : 0;
    const int strip_gap = have_rates ? static_cast<int>(font * 1.2) : 0;
    if (have_rates) lay.plot.h = std::max(10, lay.plot.h - strip_h - strip_gap);

    // Bands per group, proportional to lines, separated by a gap.
    const int usable = lay.plot.h - gap * std::max(0, n - 1);
    int y = lay.plot.y;
    for (int i = 0; i < n; ++i) {
        int h = i + 1 == n ? lay.plot.y + lay.plot.h - y
                           : static_cast<int>(static_cast<double>(usable) * shown[i].count / total_rows);
        h = std::max(h, 1);
        lay.groups.push_back({lay.plot.x, y, lay.plot.w, h});
        lay.band_first_row.push_back(shown[i].first);
        lay.band_rows.push_back(shown[i].count);
        y += h + gap;
    }

    const TagGrid* tags = d.tags(style.colour_by);
    CellColouring colouring = CellColouring::choose(style.aggregate, aggregated, tags ? style.colour_by : ColourBy::state);
    const AggregateRule rule = colouring.rule;
    lay.density = colouring.density;
    const bool muted = colouring.muted();

    // Cells: each pixel shows the combined state of the steps and lines it covers.
    struct PixelCell {
        CellCode code;
        double density;
        std::uint8_t tag;
    };
    const MissCounts& counts = d.miss_counts();
    std::vector<std::uint32_t> votes(256, 0);
    auto pixel_cell = [&](int i, int py, int px, bool want_density) {
        const auto [r0, r1] = lay.rows_of_pixel(static_cast<std::size_t>(i), py);
        const auto [t0, t1] = lay.steps_of_column(px);
        PixelCell pc{d.query_code(t0, t1, r0, r1), 0.0, 0};
        const auto rel_step = [&](std::uint64_t t) { return t - std::min(t, d.first_step()); };
        const auto rel_row = [&](std::uint64_t r) { return r - std::min(r, d.first_row()); };
        if (want_density && has_fetch(pc.code)) {
            pc.density = miss_density(counts.sum(rel_step(t0), rel_step(t1), rel_row(r0), rel_row(r1)));
        }
        if (tags && colouring.wants_tag(pc.code)) {
            const std::uint64_t spc = d.steps_per_column();
            const auto [b0, b1] = d.row_buckets().buckets_of(rel_row(r0), rel_row(r1));
            pc.tag = majority_tag(*tags, rel_step(t0) / spc, (rel_step(t1) + spc - 1) / spc, b0, b1, votes);
        }
        return pc;
    };
    // First pass (density only): the picture's density range.
    double dmin = 0, dmax = 0;
    if (lay.density)
        for (int i = 0; i < n; ++i)
            for (int py = 0; py < lay.groups[i].h; ++py)
                for (int px = 0; px < lay.plot.w; ++px) {
                    const PixelCell pc = pixel_cell(i, py, px, true);
                    if (!has_fetch(pc.code)) continue;
                    dmin = dmin == 0 ? pc.density : std::min(dmin, pc.density);
                    dmax = std::max(dmax, pc.density);
                }
    lay.density_min = dmin;
    lay.density_max = dmax;
    colouring.density_min = dmin;
    colouring.density_max = dmax;
    for (int i = 0; i < n; ++i) {
        const PixelRect& band = lay.groups[i];
        for (int py = 0; py < band.h; ++py)
            for (int px = 0; px < lay.plot.w; ++px) {
                const PixelCell pc = pixel_cell(i, py, px, lay.density);
                c.set_pixel(band.x + px, band.y + py, colouring.colour(pc.code, pc.density, pc.tag));
            }
    }

    for (int i = 0; i < n; ++i) {
        const PixelRect& band = lay.groups[i];
        const RowGroup& g = *shown[i].group;
        const std::uint64_t lines = shown[i].count;
        // Cell borders when cells are large enough to tell apart.
        const double cw = static_cast<double>(lay.plot.w) / static_cast<double>(span);
        const double ch = static_cast<double>(band.h) / static_cast<double>(lines);
        if (cw >= 5 && ch >= 5) {
            for (std::uint64_t t = 1; t < span; ++t) {
                const int x = band.x + static_cast<int>(std::lround(t * cw));
                for (int yy = band.y; yy < band.y + band.h; ++yy)
                    if (c.pixel(x, yy) == cell_color(CellState::not_cached)) c.set_pixel(x, yy, kGrid);
            }
            for (std::uint64_t r = 1; r < lines; ++r) {
                const int yy = band.y + static_cast<int>(std::lround(r * ch));
                for (int x = band.x; x < band.x + band.w; ++x)
                    if (c.pixel(x, yy) == cell_color(CellState::not_cached)) c.set_pixel(x, yy, kGrid);
            }
        }
        c.draw_rect(band.x - 1, band.y - 1, band.w + 2, band.h + 2, kAxis);
        // Array name and element-row ticks.
        draw_text_at(c, nullptr, 16, band.y + band.h / 2.0, g.array.name,
                    {.size_px = font * 1.1, .valign = VAlign::middle});
        const ArrayInfo& a = g.array;
        if (a.width > 0 && a.height > 1) {
            const std::uint64_t row_bytes = static_cast<std::uint64_t>(a.width) * a.elem_bytes;
            const int min_gap = static_cast<int>(font * 1.3);
            const std::uint64_t first_line = g.first_line + (shown[i].first - g.first_row);
            const double elem_rows = static_cast<double>(lines) * rows.line_bytes() / row_bytes;
            const std::uint64_t every = nice_tick(std::max<std::uint64_t>(1, static_cast<std::uint64_t>(elem_rows)),
                                                  std::max(1, static_cast<int>(band.h / min_gap)));
            for (std::uint64_t yy = 0; yy < a.height; yy += every) {
                const std::uint64_t line = (a.base + yy * row_bytes) / rows.line_bytes();
                if (line < first_line || line >= first_line + lines) continue;
                const double fy = band.y + static_cast<double>(line - first_line) * band.h / lines;
                c.hline(band.x - 5, band.x - 2, static_cast<int>(fy), kAxis);
                // A label that would touch the one above (rows sharing a line) is left out.
                const std::string label = "y=" + std::to_string(yy);
                const TextStyle ls{.size_px = font * 0.85, .color = kAxis, .halign = HAlign::right, .valign = VAlign::middle};
                const PixelRect r = text_rect(band.x - 8, fy, label, ls);
                if (!lay.y_labels.empty() && r.y < lay.y_labels.back().y + lay.y_labels.back().h) continue;
                c.draw_text(band.x - 8, fy, label, ls);
                lay.y_labels.push_back(r);
            }
        }
    }

    // Miss-rate strip: per pixel column, misses / read lookups of each level, 0-100 %.
    if (have_rates) {
        lay.strip = {lay.plot.x, lay.plot.y + lay.plot.h + strip_gap, lay.plot.w, strip_h};
        const PixelRect& s = lay.strip;
        c.draw_rect(s.x - 1, s.y - 1, s.w + 2, s.h + 2, kAxis);
        for (int q = 1; q < 4; ++q) c.hline(s.x, s.x + s.w - 1, s.y + s.h * q / 4, kGrid);
        // The scale's top: the highest rate shown, rounded up to 1, 2, 5, 10, 20, 50 or 100 %.
        double highest = 0;
        for (std::size_t l = 0; l < d.miss_rates().size() && l < 2; ++l)
            for (int px = 0; px < s.w; ++px) {
                const auto [t0, t1] = lay.steps_of_column(px);
                highest = std::max(highest, d.miss_rates()[l].sum(t0 - std::min(t0, d.first_step()), t1 - std::min(t1, d.first_step())).rate());
            }
        const double top_rate = strip_top_rate(highest);
        lay.strip_top_rate = top_rate;
        char top_label[16];
        std::snprintf(top_label, sizeof top_label, "%g%%", 100 * top_rate);
        c.draw_text(s.x - 8, s.y, top_label, {.size_px = font * 0.8, .color = kAxis, .halign = HAlign::right, .valign = VAlign::top});
        c.draw_text(s.x - 8, s.y + s.h, "0%", {.size_px = font * 0.8, .color = kAxis, .halign = HAlign::right, .valign = VAlign::bottom});
        for (std::size_t l = 0; l < d.miss_rates().size() && l < 2; ++l) {
            const MissRateSeries& series = d.miss_rates()[l];
            int last_y = -1;
            for (int px = 0; px < s.w; ++px) {
                const auto [t0, t1] = lay.steps_of_column(px);
                const auto sum = series.sum(t0 - std::min(t0, d.first_step()), t1 - std::min(t1, d.first_step()));
                if (sum.lookups == 0) {
                    last_y = -1;
                    continue;
                }
                const int yy = s.y + s.h - 1 - static_cast<int>(std::lround(std::min(1.0, sum.rate() / top_rate) * (s.h - 1)));
                if (last_y >= 0) c.vline(s.x + px, std::min(last_y, yy), std::max(last_y, yy), strip_level_colour(l));
                c.set_pixel(s.x + px, yy, strip_level_colour(l));
                last_y = yy;
            }
            lay.strip_levels.push_back(strip_level_label(series, l));
        }
    }

    // Time axis.
    const int axis_y = (have_rates ? lay.strip.y + lay.strip.h : lay.plot.y + lay.plot.h) + 4;
    const std::uint64_t tick = time_axis_tick(span, lay.plot.w);
    for (std::uint64_t t = (lay.from + tick - 1) / tick * tick; t <= lay.to; t += tick) {
        const int x = lay.plot.x + static_cast<int>(static_cast<double>(t - lay.from) * lay.plot.w / span);
        c.vline(x, axis_y, axis_y + 5, kAxis);
        c.draw_text(x, axis_y + 7, with_thousands(t), {.size_px = font * 0.9, .color = kAxis, .halign = HAlign::center});
    }
    {
        // Under the plot's middle, moved as little as keeps it off the left edge and the legend.
        const TextStyle ts{.size_px = font, .halign = HAlign::center};
        const double half = measure_text(style.time_label, font).width / 2.0;
        const double x = std::max(4 + half, std::min(lay.plot.x + lay.plot.w / 2.0, lay.plot.x + lay.plot.w + 20 - half));
        c.draw_text(x, axis_y + font * 2.2, style.time_label, ts);
        lay.time_title = text_rect(x, axis_y + font * 2.2, style.time_label, ts);
    }

    if (style.playhead && *style.playhead >= lay.from && *style.playhead < lay.to) {
        const int x = lay.x_of_step(*style.playhead);
        c.fill_rect(x - 1, lay.plot.y - 4, 2, lay.plot.h + 8, kPlayhead);
    }

    const int lx = lay.plot.x + lay.plot.w + 28;
    std::vector<std::string> notes = style.notes;
    if (!d.exact())
        notes.push_back("1 cell = " + counted(d.steps_per_column(), "step") + " x " + counted(d.rows_per_bucket(), "line"));
    if (style.rows)
        notes.push_back("lines " + with_thousands(show_first) + " to " + with_thousands(show_end - 1) + " of " +
                        with_thousands(rows.rows()));
    // Where the memory chart does not fit, the legend's last note says how wide it needs the picture.
    const std::string chart_note_text =
        style.memory_chart && !chart_fits
            ? chart_note(chart_wide_enough ? 0 : width_with_chart(left, legend_w, *style.memory_chart, font), height_for_chart)
            : "";
    std::vector<PixelRect>* const ll = &lay.legend_lines;
    if (!muted) {
        std::string heading = "legend (most important first)";
        if (aggregated && rule == AggregateRule::any_miss) heading = "legend (a fetch wins a shared pixel)";
        if (have_rates)
            for (std::size_t l = 0; l < lay.strip_levels.size(); ++l) notes.push_back("strip: " + lay.strip_levels[l]);
        if (!chart_note_text.empty()) notes.push_back(chart_note_text);
        lay.legend = draw_legend(c, lx, lay.plot.y, font, heading, false, notes, &lay.legend_lines);
    } else {
        // Muted states, then the density ramp, the SMs or the hit sources.
        const bool by_source = colouring.by == ColourBy::hit_source;
        int ly = lay.plot.y;
        draw_text_at(c, ll, lx, ly,
                    lay.density ? "legend: L1 misses per cell"
                    : by_source ? "legend: who brought the sectors L1 hits found"
                                : "legend: SM that accessed the line",
                    {.size_px = font, .color = kAxis});
        const int line = static_cast<int>(font * 1.7), sw = static_cast<int>(font * 1.2);
        ly += line;
        if (lay.density) {
            const int bar_w = std::max(120, legend_width(font, false, {}) - 20);
            for (int x = 0; x < bar_w; ++x)
                c.vline(lx + x, ly, ly + sw - 1, miss_density_color(static_cast<double>(x) / (bar_w - 1)));
            c.draw_rect(lx, ly, bar_w, sw, kAxis);
            ly += sw + 3;
            char lo[64], hi[64];
            std::snprintf(lo, sizeof lo, "%.3g", dmin);
            std::snprintf(hi, sizeof hi, "%.3g", dmax);
            // Equal ends are no scale: say that every cell has the one value.
            if (std::string_view(lo) == hi) {
                draw_text_at(c, ll, lx, ly, "all " + std::string(lo), {.size_px = font * 0.85, .color = kAxis});
            } else {
                draw_text_at(c, ll, lx, ly, lo, {.size_px = font * 0.85, .color = kAxis});
                draw_text_at(c, ll, lx + bar_w, ly, hi, {.size_px = font * 0.85, .color = kAxis, .halign = HAlign::right});
            }
            ly += static_cast<int>(font * 1.3);
            draw_text_at(c, ll, lx, ly, "misses / (steps x lines) a pixel covers, log scale", {.size_px = font * 0.85, .color = kAxis});
            ly += line;
        } else if (by_source) {
            for (HitSource source : kHitSourceOrder) {
                c.fill_rect(lx, ly, sw, sw, hit_source_color(source));
                c.draw_rect(lx, ly, sw, sw, kAxis);
                draw_text_at(c, ll, lx + sw + 8, ly + sw / 2.0, hit_source_label(source), {.size_px = font, .valign = VAlign::middle});
                ly += line;
            }
        } else {
            // A cell's tag is its SM + 1 (sm_tag), so the highest tag counts the SMs up to the last that ran.
            std::uint32_t sm_count = 0;
            for (std::uint64_t col = 0; col < d.sms().columns(); ++col)
                for (std::uint64_t r = 0; r < d.sms().rows(); ++r) sm_count = std::max<std::uint32_t>(sm_count, d.sms().at(col, r));
            lay.sm_legend = sm_legend_labels(sm_count);
            for (std::uint32_t k = 0; k < lay.sm_legend.size(); ++k) {
                c.fill_rect(lx, ly, sw, sw, sm_color(k));
                c.draw_rect(lx, ly, sw, sw, kAxis);
                draw_text_at(c, ll, lx + sw + 8, ly + sw / 2.0, lay.sm_legend[k], {.size_px = font, .valign = VAlign::middle});
                ly += line;
            }
        }
        std::vector<CellState> shown_states = {CellState::accessed, CellState::stored, CellState::in_l1, CellState::in_l2,
                                               CellState::not_cached};
        // (by source, fetches keep their colours; by SM they take the SM's)
        if (by_source) shown_states.insert(shown_states.begin(), {CellState::fetched_from_memory, CellState::fetched_from_l2});
        for (CellState st : shown_states) {
            PixelRect r{lx, ly, sw, sw};
            c.fill_rect(r.x, r.y, r.w, r.h, muted_color(st));
            c.draw_rect(r.x, r.y, r.w, r.h, kAxis);
            const std::string label = muted_state_label(st, colouring.by, lay.density);
            draw_text_at(c, ll, lx + sw + 8, ly + sw / 2.0, label, {.size_px = font, .valign = VAlign::middle});
            lay.legend.push_back({st, label, r});
            ly += line;
        }
        if (have_rates)
            for (std::size_t l = 0; l < lay.strip_levels.size(); ++l) notes.push_back("strip: " + lay.strip_levels[l]);
        if (!chart_note_text.empty()) notes.push_back(chart_note_text);
        ly += line / 2;
        for (const std::string& note : notes) {
            draw_text_at(c, ll, lx, ly, note, {.size_px = font * 0.92, .color = kAxis});
            ly += static_cast<int>(font * 1.45);
        }
    }
    if (style.memory_chart && chart_fits) {
        const int cx = style.width - chart_w + 10;
        // Down to the strips' bottom, up to 34 fonts, and never less than its text needs.
        const int chart_h = std::max(std::min(lay.plot.h + strip_h + strip_gap, static_cast<int>(font * 34)),
                                     memory_chart_min_height(*style.memory_chart, font));
        lay.memory_chart = {cx, lay.plot.y, chart_w - 30, chart_h};
        draw_memory_chart(c, *style.memory_chart, lay.memory_chart, font);
    }

    // Does it fit? The plot at its minimum or more, every recorded text inside the picture, no
    // legend line over another. The plot's minimum: wide enough that the time axis's title fits
    // between the left edge and the legend (4 px and 8 px clear); each band a few pixels high.
    const auto inside = [&](const PixelRect& r) { return r.w == 0 || r.inside(style.width, style.height); };  // w 0: none
    const int min_plot_w = std::max(60, measure_text(style.time_label, font).width - left - 16);
    const int min_plot_h = 4 * std::max(1, n) + gap * std::max(0, n - 1);
    int legend_bottom = 0;
    for (const PixelRect& r : lay.legend_lines) legend_bottom = std::max(legend_bottom, r.y + r.h);
    lay.width_needed = std::max({style.width, left + legend_w + min_plot_w, lay.title.w + 16});
    lay.height_needed = std::max({style.height, top + min_plot_h + strip_h + strip_gap + bottom, legend_bottom + 8});
    lay.fits = lay.width_needed <= style.width && lay.height_needed <= style.height && inside(lay.title) &&
               inside(lay.time_title) && inside(lay.memory_chart);
    for (std::size_t i = 0; i < lay.legend_lines.size(); ++i) {
        lay.fits = lay.fits && inside(lay.legend_lines[i]) && !lay.legend_lines[i].overlaps(lay.time_title);
        for (std::size_t j = 0; j < i; ++j) lay.fits = lay.fits && !lay.legend_lines[i].overlaps(lay.legend_lines[j]);
    }
    for (const PixelRect& r : lay.y_labels) lay.fits = lay.fits && inside(r);
    return out;
}

namespace {

constexpr int kArrayGap = 30;     // between two arrays of a row
constexpr int kArrayRowGap = 14;  // between a row of arrays and the next row's titles
constexpr int kArrayMargin = 20;  // left of the arrays, below them, and between them and the legend

std::string array_title(const ArrayGrid& g) {
    const std::string shape = g.folded ? with_thousands(g.elements) + " elements, rows of " + std::to_string(g.width)
                                       : std::to_string(g.width) + " x " + std::to_string(g.height);
    return g.name + "  (" + shape + ")";
}

// The line above a row of arrays that holds their titles.
int title_band(double font) { return static_cast<int>(font * 1.8); }

// A title's second line ("enlarged x40", "drawn 8 px wide"), under its name and shape (on the first
// line with the others' titles, so that it widens its array's column little): the array starts
// this much lower.
int note_drop(double font) { return static_cast<int>(std::ceil(font * 1.1 * 1.3)); }

// Pixels per element where the elements of `g` drawn in `r` are square whole-pixel cells, else 0.
int square_cell(const ArrayGrid& g, const PixelRect& r) {
    if (g.width == 0 || g.height == 0 || r.w < static_cast<int>(g.width) || r.h < static_cast<int>(g.height)) return 0;
    const int across = r.w / static_cast<int>(g.width), down = r.h / static_cast<int>(g.height);
    return across == down ? across : 0;
}

// The array view's legend: its heading, and how wide and tall draw_legend draws it.
struct ArrayLegend {
    std::string heading;
    int width = 0, height = 0;
};

ArrayLegend array_legend(const ArrayView& view, const ArrayViewStyle& style) {
    const double font = style.font_px;
    ArrayLegend l;
    l.heading = array_view_heading(view);
    l.width = std::max(legend_width(font, true, style.notes), measure_text(l.heading, font).width);
    const int line = static_cast<int>(font * 1.7);
    l.height = line * kCellStateCount + static_cast<int>(font * 1.2);  // the heading, then the swatches
    int y = line * (1 + kCellStateCount) + line / 2;
    for (const std::string& n : style.notes) {
        l.height = std::max(l.height, y + measure_text(n, font * 0.92).height());
        y += static_cast<int>(font * 1.45);
    }
    return l;
}

// The array's title above it: the first line bottom-aligned half a font size above the row's top,
// a note's line the same above the array (render_array_view draws them so).
PixelRect array_title_rect(const PixelRect& r, const std::string& title, const std::string& note, int row_top, double font) {
    const double title_font = font * 1.1;
    const TextExtent t = measure_text(title, title_font);
    const int bottom = static_cast<int>(std::ceil(row_top - font * 0.5));
    PixelRect rect{r.x, bottom - t.height(), t.width, t.height()};
    if (!note.empty()) {
        rect.w = std::max(rect.w, measure_text(note, title_font).width);
        rect.h = static_cast<int>(std::ceil(r.y - font * 0.5)) - rect.y;
    }
    return rect;
}

// Calls visit(state, x0, x1, y0, y1) for each element of `g` drawn in `r` with the pixels
// [x0, x1) x [y0, y1) from the corner that show it (a folded row's padding has none).
template <class Visit>
void for_each_element(const ArrayGrid& g, const PixelRect& r, Visit visit) {
    const DrawnAxis across{g.width, static_cast<std::uint64_t>(r.w)}, down{g.height, static_cast<std::uint64_t>(r.h)};
    std::vector<std::pair<int, int>> columns(g.width);
    for (std::uint32_t xx = 0; xx < g.width; ++xx) columns[xx] = across.pixels_of(xx);
    for (std::uint32_t yy = 0; yy < g.height; ++yy) {
        const std::uint64_t first = static_cast<std::uint64_t>(yy) * g.width;
        if (first >= g.elements) break;
        const auto end = static_cast<std::uint32_t>(std::min<std::uint64_t>(g.width, g.elements - first));
        const auto [y0, y1] = down.pixels_of(yy);
        for (std::uint32_t xx = 0; xx < end; ++xx) visit(g.cells[first + xx], columns[xx].first, columns[xx].second, y0, y1);
    }
}

// Each element of `g` drawn in `r`: its own cell where it has whole pixels, else each pixel the
// most important state of the elements it shows, a fetch first, so that the step's accesses stay
// visible however many elements share it. Past the elements (a folded row's padding): blank.
void draw_array_cells(Canvas& c, const ArrayGrid& g, const PixelRect& r) {
    if (r.w >= static_cast<int>(g.width) && r.h >= static_cast<int>(g.height)) {
        for_each_element(g, r, [&](CellState state, int x0, int x1, int y0, int y1) {
            c.fill_rect(r.x + x0, r.y + y0, x1 - x0, y1 - y0, cell_color(state));
        });
        return;
    }
    constexpr CellCode kNone = 0xff;
    std::vector<CellCode> codes(static_cast<std::size_t>(r.w) * r.h, kNone);
    for_each_element(g, r, [&](CellState state, int x0, int x1, int y0, int y1) {
        const CellCode e = encode(state);
        for (int py = y0; py < y1; ++py)
            for (int px = x0; px < x1; ++px) {
                CellCode& p = codes[static_cast<std::size_t>(py) * r.w + px];
                p = p == kNone ? e : combine_codes(p, e);
            }
    });
    for (int py = 0; py < r.h; ++py)
        for (int px = 0; px < r.w; ++px)
            if (const CellCode code = codes[static_cast<std::size_t>(py) * r.w + px]; code != kNone)
                c.set_pixel(r.x + px, r.y + py, cell_color(decode(code, AggregateRule::any_miss)));
}

// Thin element borders and darker line boundaries, along a side whose elements are 4 pixels or more.
void draw_array_grid(Canvas& c, const ArrayGrid& g, const PixelRect& r) {
    if (g.width && r.w >= 4 * static_cast<int>(g.width)) {
        const int s = r.w / static_cast<int>(g.width);
        for (std::uint32_t xx = 1; xx < g.width; ++xx) {
            const bool boundary = (xx + g.first_element_offset) % g.elements_per_line == 0;
            c.vline(r.x + static_cast<int>(xx) * s, r.y, r.y + r.h - 1, boundary ? kLineBoundary : kGrid);
        }
    }
    if (g.height && r.h >= 4 * static_cast<int>(g.height)) {
        const int s = r.h / static_cast<int>(g.height);
        for (std::uint32_t yy = 1; yy < g.height; ++yy) c.hline(r.x, r.x + r.w - 1, r.y + static_cast<int>(yy) * s, kGrid);
    }
}

}  // namespace

PixelRect ArrayViewLayout::cell(std::size_t array, std::uint32_t x, std::uint32_t y) const {
    const PixelRect& a = arrays[array];
    const auto [x0, x1] = DrawnAxis{columns[array], static_cast<std::uint64_t>(a.w)}.pixels_of(x);
    const auto [y0, y1] = DrawnAxis{rows[array], static_cast<std::uint64_t>(a.h)}.pixels_of(y);
    return {a.x + x0, a.y + y0, x1 - x0, y1 - y0};
}

ArrayViewLayout::Span ArrayViewLayout::elements_of_pixel(std::size_t array, int px, int py) const {
    const PixelRect& a = arrays[array];
    const auto [x0, x1] = DrawnAxis{columns[array], static_cast<std::uint64_t>(a.w)}.elements_of(px);
    const auto [y0, y1] = DrawnAxis{rows[array], static_cast<std::uint64_t>(a.h)}.elements_of(py);
    return {x0, x1, y0, y1};
}

ArrayViewLayout layout_array_view(const ArrayView& view, const ArrayViewStyle& style) {
    ArrayViewLayout lay;
    const double font = style.font_px;
    const double title_font = font * 1.1;
    const int top = static_cast<int>(font * (style.title.empty() ? 1.0 : 2.6)) + title_band(font);
    const ArrayLegend legend = array_legend(view, style);
    const int right = legend.width + 40;
    lay.legend_area = {style.width - right + 20, top, legend.width, legend.height};

    const std::vector<ArrayGrid>& arrays = view.arrays;
    ArrayArea area;
    area.width = style.width - right - kArrayMargin;
    area.height = style.height - top - kArrayMargin;
    area.title_height = title_band(font);
    area.note_height = note_drop(font);
    area.gap_x = kArrayGap;
    area.gap_y = kArrayRowGap;
    for (const ArrayGrid& g : arrays) area.title_widths.push_back(measure_text(array_title(g), title_font).width);
    area.note_width = [&](const std::string& note) { return measure_text(note, title_font).width; };
    const ArrayArrangement arranged = arrange_arrays(arrays, area);

    // Where they do not fit, the smallest picture that holds them: one row, each array a pixel
    // across under its title, the legend beside them and its notes above the bottom edge.
    std::int64_t one_row = kArrayGap * static_cast<std::int64_t>(arrays.empty() ? 0 : arrays.size() - 1);
    for (const int w : area.title_widths) one_row += std::max(1, w);
    lay.width_needed = arranged.fits ? style.width : static_cast<int>(std::max<std::int64_t>(style.width, right + kArrayMargin + one_row));
    lay.height_needed = std::max({style.height, top + 1 + kArrayMargin, top + legend.height + 10});
    lay.fits = arranged.fits && lay.width_needed <= style.width && lay.height_needed <= style.height;

    lay.flow = arranged.flow;
    lay.group_starts = arranged.group_starts;
    for (std::size_t i = 0; i < arrays.size(); ++i) {
        const ArrayGrid& g = arrays[i];
        const ArrayPlacement& p = arranged.arrays[i];
        const PixelRect r{kArrayMargin + p.x, top + p.y, p.w, p.h};
        lay.arrays.push_back(r);
        lay.cell_size.push_back(square_cell(g, r));
        lay.enlarged.push_back(p.enlarged);
        lay.widened.push_back(p.widened);
        lay.heightened.push_back(p.heightened);
        lay.columns.push_back(g.width);
        lay.rows.push_back(g.height);
        lay.title_texts.push_back(array_title(g));
        lay.title_notes.push_back(p.note);
        const int row_top = p.note.empty() ? r.y : r.y - area.note_height;
        lay.titles.push_back(array_title_rect(r, lay.title_texts.back(), p.note, row_top, font));
    }
    return lay;
}

RenderedArrayView render_array_view(const ArrayView& view, const ArrayViewStyle& style) {
    RenderedArrayView out;
    Canvas& c = out.image;
    c = Canvas(style.width, style.height, colors::white);
    ArrayViewLayout& lay = out.layout;
    lay = layout_array_view(view, style);
    const double font = style.font_px;
    if (!style.title.empty())
        c.draw_text(style.width / 2.0, font * 0.8, style.title, {.size_px = font * 1.3, .halign = HAlign::center});
    for (std::size_t i = 0; i < view.arrays.size(); ++i) {
        const ArrayGrid& g = view.arrays[i];
        const PixelRect& r = lay.arrays[i];
        const bool noted = !lay.title_notes[i].empty();
        const int title_y = noted ? r.y - note_drop(font) : r.y;
        c.draw_text(r.x, title_y - font * 0.5, lay.title_texts[i], {.size_px = font * 1.1, .valign = VAlign::bottom});
        if (noted) c.draw_text(r.x, r.y - font * 0.5, lay.title_notes[i], {.size_px = font * 1.1, .valign = VAlign::bottom});
        draw_array_cells(c, g, r);
        draw_array_grid(c, g, r);
        c.draw_rect(r.x - 1, r.y - 1, r.w + 2, r.h + 2, kAxis);
    }
    lay.legend = draw_legend(c, lay.legend_area.x, lay.legend_area.y, font, array_view_heading(view), true, style.notes);
    return out;
}

}  // namespace cachesim::viz
