#pragma once
// Deep zoom (cacheviz), the part that is not drawing: when the view is finer than a diagram's base
// cells (a long run's cell covers several steps and/or lines), which window of steps and lines to
// re-simulate at one step x one line per cell, and when a recorded window still serves the view.
//
// Memory: a window holds at most DetailPolicy::max_cells cells (default 2^24: an 8 MiB base grid
// at 4 bits a cell, at most 32 MiB with its pyramid); a view whose visible cells alone exceed it
// stays coarse. The margin around the visible cells lets small pans and zooms stay inside.
#include <cstdint>
#include <optional>

#include "viz/diagram.hpp"
#include "viz/diagram_recorder.hpp"

namespace cachesim::viz {

// The part of a diagram in view: steps [t0, t1) and lines [r0, r1) on width x height pixels.
struct ViewExtent {
    double t0 = 0, t1 = 1, r0 = 0, r1 = 1;
    int width = 1, height = 1;
};

// Steps [first_step, first_step + steps) x lines [first_row, first_row + rows).
struct DetailWindow {
    std::uint64_t first_step = 0, steps = 0, first_row = 0, rows = 0;
    std::uint64_t step_end() const { return first_step + steps; }
    std::uint64_t row_end() const { return first_row + rows; }
    std::uint64_t cells() const { return steps * rows; }
    bool empty() const { return steps == 0 || rows == 0; }
    bool operator==(const DetailWindow&) const = default;
};

struct DetailPolicy {
    std::uint64_t max_cells = std::uint64_t{1} << 24;  // cells of one window at most; 0: never
    double margin = 0.5;             // extra on each side, as a fraction of the visible span...
    std::uint64_t min_margin = 32;   // ...and at least this many steps / lines
};

// True when a base cell of `coarse` covering several steps (lines) is wider (taller) than a pixel
// of the view: the coarse diagram would show magnified cells.
bool needs_detail(const Diagram& coarse, const ViewExtent& view);

// The visible steps and lines (partly visible ones included) within a run of `steps` x `rows`.
DetailWindow visible_window(const ViewExtent& view, std::uint64_t steps, std::uint64_t rows);

// The window to record for the view: the visible one widened on each side by the margin (scaled
// down by halves, to none, until it fits max_cells), within the run. nullopt when the visible
// cells alone exceed max_cells, or nothing is visible.
std::optional<DetailWindow> choose_detail_window(const ViewExtent& view, std::uint64_t steps, std::uint64_t rows,
                                                 const DetailPolicy& policy = {});

// Whether `window` holds every visible cell of the view.
bool covers(const DetailWindow& window, const ViewExtent& view, std::uint64_t steps, std::uint64_t rows);
// Whether `window` holds any visible cell of the view.
bool overlaps(const DetailWindow& window, const ViewExtent& view, std::uint64_t steps, std::uint64_t rows);

// What the view shows at (step, row), as the tooltip reports it: the full-resolution window's
// cell where `detail` (drawn over the coarse cells) has one, else the coarse base cell. `exact`:
// the state is this step's and this line's alone.
struct ShownCell {
    CellState state = CellState::not_cached;
    bool exact = false;
    std::uint8_t sm = 0, hit_source = 0;  // its tags (tag_grid.hpp), where the run recorded them
};
ShownCell shown_cell(const Diagram& coarse, const Diagram* detail, std::uint64_t step, std::uint64_t row);

// Recorder options for the window at one step x one line per cell. The run may stop once the
// window is recorded (stop_when_recorded, set by whoever owns the run's cancel flag).
RecorderOptions detail_recorder_options(const DetailWindow& window);

}  // namespace cachesim::viz
