#pragma once
// Headless PNG-ready rendering of the diagrams onto a Canvas: axes, array names, legend.
#include <optional>
#include <string>
#include <vector>

#include "sim/observer.hpp"
#include "viz/array_view.hpp"
#include "viz/canvas.hpp"
#include "viz/diagram.hpp"
#include "viz/line_range.hpp"
#include "viz/memory_chart.hpp"

namespace cachesim::viz {

struct PixelRect {
    int x = 0, y = 0, w = 0, h = 0;
    bool contains(int px, int py) const { return px >= x && py >= y && px < x + w && py < y + h; }
    bool overlaps(const PixelRect& o) const { return x < o.x + o.w && o.x < x + w && y < o.y + o.h && o.y < y + h; }
    // Whole inside a picture of `width` x `height` pixels.
    bool inside(int width, int height) const { return x >= 0 && y >= 0 && x + w <= width && y + h <= height; }
    int cx() const { return x + w / 2; }
    int cy() const { return y + h / 2; }
};

struct LegendEntry {
    CellState state;
    std::string label;
    PixelRect swatch;
};

struct TimeDiagramStyle {
    int width = 1400, height = 800;
    std::string title;
    std::string time_label = "time step (work items in launch order)";
    std::vector<std::string> notes;     // lines printed under the legend (configuration, counts)
    std::optional<std::uint64_t> from;  // steps shown: [from, to); default the whole run
    std::optional<std::uint64_t> to;
    std::optional<std::uint64_t> playhead;
    double font_px = 13;
    // How cells that share a pixel are shown (cell_state.hpp). density: pixels with L1 fetches get
    // the miss-density ramp (miss_density_color), the other states muted colours.
    AggregateRule aggregate = AggregateRule::density;
    // state: the palette above; sm: accessed cells in the colour of the SM that accessed them
    // (the diagram needs RecorderOptions::record_sm); hit_source: L1 hits in the colour of who
    // brought their sectors (RecorderOptions::record_hit_sources), fetches red and orange. The
    // other cells by residency, muted.
    using ColourBy = viz::ColourBy;
    ColourBy colour_by = ColourBy::state;
    // Rows shown (default all): the bands of the arrays they cross, each line as tall as the others.
    std::optional<RowRange> rows;
    // The miss rate per pixel column of each recorded level, in a strip above the time axis.
    // auto: when the picture aggregates cells (more steps or lines than pixels, or a recording
    // coarser than one step x one line), where a cell's colour no longer shows each miss.
    enum class Strip { automatic, on, off } miss_rate_strip = Strip::automatic;
    // GPU runs: the memory chart, drawn in a column right of the legend.
    std::optional<MemoryChart> memory_chart;
};

// The miss-density ramp: t in [0, 1] (0 the picture's lowest density, 1 its highest, on a log
// scale) from four control points, light to dark (monotone lightness, so it reads in grey too):
//   0: orange #faa03c, 1/3: red #e65050, 2/3: purple #a02878, 1: dark violet #3c0f5a.
Rgba miss_density_color(double t);
// The colours of the other states while density or SM colouring is on: muted, so that misses
// and SMs stand out (hit grey, in L1 pale blue, in L2 paler, not cached white).
Rgba muted_color(CellState s);
// The SM palette (12 colours, SM k gets colour k mod 12).
Rgba sm_color(std::uint32_t sm);
// Colouring by hit source: own warp near black (a hit as in the state palette), another warp of
// the block green, another block purple (a pair that stays apart for red-green colour blindness).
Rgba hit_source_color(HitSource source);
// Who a source is, in words ("another block on the SM").
std::string_view hit_source_name(HitSource source);
// The sources in legend order, nearest first.
inline constexpr HitSource kHitSourceOrder[] = {HitSource::own_warp, HitSource::own_block, HitSource::other_block};

// Where things landed, for tests and for mapping clicks.
struct TimeDiagramLayout {
    PixelRect plot;                  // whole plot area (all groups)
    std::vector<PixelRect> groups;   // one band per row group (array), top to bottom
    std::vector<LegendEntry> legend;
    std::uint64_t from = 0, to = 0;  // steps shown
    std::vector<std::uint64_t> band_first_row, band_rows;  // per band: the rows it shows
    bool aggregated = false;       // some pixel shows more than one recorded cell
    bool density = false;          // the density ramp is in use
    double density_min = 0, density_max = 0;  // misses per (step x line) cell at t = 0 and t = 1
    PixelRect strip;               // the miss-rate strip (w = 0: none)
    std::vector<std::string> strip_levels;  // its lines, top to bottom of the legend
    std::vector<std::string> sm_legend;     // colour by SM: the SM swatches' labels, top to bottom
    double strip_top_rate = 1;     // the miss rate at the strip's top edge (the bottom is 0)
    PixelRect memory_chart;        // (w = 0: none)
    // Where text landed: the legend's lines (heading, swatch labels, notes) top to bottom, the
    // row labels left of the bands, the picture's title and the time axis's title (w = 0: none).
    std::vector<PixelRect> legend_lines, y_labels;
    PixelRect title, time_title;
    // Whether the plot, the legend and the titles lie inside the picture, no legend line over
    // another; if not, the smallest picture in which they would.
    bool fits = true;
    int width_needed = 0, height_needed = 0;
    // Steps [t0, t1) that plot column px (0-based from plot.x) shows.
    std::pair<std::uint64_t, std::uint64_t> steps_of_column(int px) const;
    // Rows [r0, r1) that pixel row py (0-based from the band's top) of band `band` shows.
    std::pair<std::uint64_t, std::uint64_t> rows_of_pixel(std::size_t band, int py) const;
    // Pixel centre of (step, row); x = -1 when outside the view.
    int x_of_step(std::uint64_t step) const;
    int y_of_row(const RowLayout& rows, std::uint64_t row) const;
};

struct RenderedTimeDiagram {
    Canvas image;
    TimeDiagramLayout layout;
};

RenderedTimeDiagram render_time_diagram(const Diagram& diagram, const TimeDiagramStyle& style);
// A width at which `style`'s memory chart fits beside the legend and a plot of at least half the
// picture, twice the margins, legend and chart (0 without a chart); two pixels less leaves it out.
int time_diagram_width_for_chart(const Diagram& diagram, const TimeDiagramStyle& style);

struct ArrayViewStyle {
    int width = 1200, height = 700;
    std::string title;
    std::vector<std::string> notes;
    double font_px = 13;
};

// The arrays left of the legend, in rows (or columns) in their order, at the largest common
// scale that fits (arrange_arrays): whole pixels per element where that fits, else fewer pixels
// than elements, each pixel showing the most important state of the elements it covers (fetched
// from memory, from L2, accessed, in L1, in L2, in memory only). An array drawn larger than the
// common scale (array_min_side) or with a side thickened to kMinArrayThickness starts a line
// lower, under a second title line that says so.
struct ArrayViewLayout {
    std::vector<PixelRect> arrays;  // grid area per array
    std::vector<PixelRect> titles;  // each array's name and shape, above it (both lines where it has a note)
    std::vector<std::string> title_texts;  // what those titles say: name and shape
    // Their second line, "enlarged x40", "drawn 8 px wide"; empty where none.
    std::vector<std::string> title_notes;
    // Pixels per element, per array, where its elements are square whole-pixel cells; 0 where
    // elements share pixels or a thickened side stretches them.
    std::vector<int> cell_size;
    // Per array: its scale over the common scale; 1 where it is drawn at the common scale.
    std::vector<double> enlarged;
    // Per array: a side drawn kMinArrayThickness pixels or so across instead of at its scale.
    std::vector<bool> widened, heightened;
    std::vector<std::uint32_t> columns, rows;  // each array's grid, in elements (ArrayGrid width x height)
    ArrayFlow flow = ArrayFlow::rows;          // the arrays in rows, or in columns
    std::vector<std::size_t> group_starts;     // the first array of each row (or column)
    std::vector<LegendEntry> legend;
    PixelRect legend_area;          // the legend's heading, swatches and notes
    // Whether every array, its title and the legend lie inside the picture, none over another;
    // if not, the smallest picture in which they would.
    bool fits = true;
    int width_needed = 0, height_needed = 0;
    // The pixels that show element (x, y): its own cell, or the one pixel it shares with others.
    PixelRect cell(std::size_t array, std::uint32_t x, std::uint32_t y) const;
    // Elements [x0, x1) x [y0, y1) that pixel (px, py) of array `array` shows (px, py from its corner).
    struct Span {
        std::uint32_t x0 = 0, x1 = 0, y0 = 0, y1 = 0;
    };
    Span elements_of_pixel(std::size_t array, int px, int py) const;
};

// The layout render_array_view draws, without drawing.
ArrayViewLayout layout_array_view(const ArrayView& view, const ArrayViewStyle& style);

struct RenderedArrayView {
    Canvas image;
    ArrayViewLayout layout;
};

RenderedArrayView render_array_view(const ArrayView& view, const ArrayViewStyle& style);

// Labels of the states in the array view (where the element's line lives).
std::string_view array_state_name(CellState s);

// "Nice" tick spacing (1, 2 or 5 x 10^k) for about `max_ticks` ticks over `range`.
std::uint64_t nice_tick(std::uint64_t range, int max_ticks);
// The time axis's tick spacing for `steps` steps across `plot_width` pixels (the PNG's and the GUI's).
std::uint64_t time_axis_tick(std::uint64_t steps, int plot_width);

// The colour-by-SM legend's swatch labels for SMs 0 to sm_count - 1: one per palette colour in
// use, naming the SMs that share it ("SM 3, 15"), with ", ..." where further SMs follow.
std::vector<std::string> sm_legend_labels(std::uint32_t sm_count);

}  // namespace cachesim::viz
