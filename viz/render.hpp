#pragma once
// Headless PNG-ready rendering of the diagrams onto a Canvas: axes, array names, legend.
#include <optional>
#include <string>
#include <vector>

#include "viz/array_view.hpp"
#include "viz/canvas.hpp"
#include "viz/diagram.hpp"

namespace cachesim::viz {

struct PixelRect {
    int x = 0, y = 0, w = 0, h = 0;
    bool contains(int px, int py) const { return px >= x && py >= y && px < x + w && py < y + h; }
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
};

// Where things landed, for tests and for mapping clicks.
struct TimeDiagramLayout {
    PixelRect plot;                  // whole plot area (all groups)
    std::vector<PixelRect> groups;   // one band per row group (array), top to bottom
    std::vector<LegendEntry> legend;
    std::uint64_t from = 0, to = 0;  // steps shown
    // Pixel centre of (step, row); x = -1 when outside the view.
    int x_of_step(std::uint64_t step) const;
    int y_of_row(const RowLayout& rows, std::uint64_t row) const;
};

struct RenderedTimeDiagram {
    Canvas image;
    TimeDiagramLayout layout;
};

RenderedTimeDiagram render_time_diagram(const Diagram& diagram, const TimeDiagramStyle& style);

struct ArrayViewStyle {
    int width = 1200, height = 700;
    std::string title;
    std::vector<std::string> notes;
    double font_px = 13;
};

struct ArrayViewLayout {
    std::vector<PixelRect> arrays;  // grid area per array
    std::vector<int> cell_size;     // pixels per element, per array
    std::vector<LegendEntry> legend;
    PixelRect cell(std::size_t array, std::uint32_t x, std::uint32_t y) const;
};

struct RenderedArrayView {
    Canvas image;
    ArrayViewLayout layout;
};

RenderedArrayView render_array_view(const ArrayView& view, const ArrayViewStyle& style);

// Labels of the states in the array view (where the element's line lives).
std::string_view array_state_name(CellState s);

// "Nice" tick spacing (1, 2 or 5 x 10^k) for about `max_ticks` ticks over `range`.
std::uint64_t nice_tick(std::uint64_t range, int max_ticks);

}  // namespace cachesim::viz
