#pragma once
// The 2D arrays at one time step, each element coloured by where its line is (L1 / L2 / memory)
// and whether the step's work item accesses it: the picture a teacher draws on a board.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "traces/workload_spec.hpp"
#include "viz/diagram_recorder.hpp"

namespace cachesim::viz {

struct ArrayGrid {
    std::string name;
    std::uint32_t width = 0, height = 0;
    // The array's elements. A 1D array (height 1) of more than kMaxFlatRow elements is drawn in
    // rows of `width` (a power of two near the square root, whole lines where a line holds a
    // power of two of elements); the cells past `elements` in its last row are padding.
    std::uint64_t elements = 0;
    bool folded = false;  // a 1D array drawn in rows
    std::uint32_t elements_per_line = 1;   // for drawing line boundaries
    std::uint64_t first_element_offset = 0;  // elements before the first line boundary (alignment)
    std::vector<CellState> cells;          // row-major, width x height
    CellState at(std::uint32_t x, std::uint32_t y) const { return cells[static_cast<std::size_t>(y) * width + x]; }
};

// The longest 1D array drawn as one row.
inline constexpr std::uint32_t kMaxFlatRow = 64;

// The row width of a folded 1D array of `elements` (see ArrayGrid::elements).
std::uint32_t folded_row_width(std::uint64_t elements, std::uint32_t elements_per_line);

// What one step of a run is: a work item (a workload in the thread model), a recorded thread (a
// trace in the thread model), a scheduling round of all SMs (the GPU model) or one request of a
// measured order (the GPU model with --warp-times).
enum class StepUnit : std::uint8_t { work_item, recorded_thread, round, measured_request };

StepUnit step_unit(bool gpu_model, bool trace, bool measured_order);

struct ArrayView {
    std::uint64_t step = 0;
    StepUnit unit = StepUnit::work_item;
    std::optional<std::uint64_t> work_item;  // the item run at this step (workloads)
    std::uint32_t item_x = 0, item_y = 0;
    std::vector<ArrayGrid> arrays;
};

// Elements the step's work item touches show their line's state at this step (accessed, or
// fetched from L2 / memory); every other element shows where its line lives after the step
// (in L1, in L2, not cached). Without a workload (a recorded trace), the elements the step's
// accesses touched (LineSnapshot::accesses) are marked so, or where the snapshot does not hold
// them, every element shows its line's cell state: the lines the step accessed, and where the
// others live.
ArrayView make_array_view(const RowLayout& rows, const LineSnapshot& snapshot,
                          const std::optional<WorkloadSpec>& workload);
// The same for a run whose steps are `unit`s: the work items of `workload` are marked only when a
// step is one of them; otherwise every element shows its line's cell state (a round's or
// request's accesses are whole lines of many items).
ArrayView make_array_view(const RowLayout& rows, const LineSnapshot& snapshot,
                          const std::optional<WorkloadSpec>& workload, StepUnit unit);

// "step 40: work item (8, 2)", "round 10 (where each line is after the round)", ...
std::string array_view_heading(const ArrayView& view);

// ---- Where the arrays go in a picture: the PNG's (viz/render.hpp) and cacheviz's ----

// The least an array is drawn along its longer side beside much larger ones, in pixels, where the
// arrays have `area_height` pixels: an eighth of that, or 12 pixels an element where that is less.
double array_min_side(const ArrayGrid& g, double area_height);
// How an array drawn at `factor` times the others' scale says so: "enlarged x2.5", "x40".
std::string array_enlarged_note(double factor);

// The least pixels across an array's side (a 1 x 4096 column, a matmul's M x 1 A at depth 1): at
// the common scale such a side can be a pixel, too thin to see.
inline constexpr int kMinArrayThickness = 8;

// One side of a drawn array: `cells` elements over `pixels` pixels. Where there are at least as
// many pixels as elements, each element has pixels / cells whole pixels; otherwise pixel p shows
// elements [p cells / pixels, (p + 1) cells / pixels).
struct DrawnAxis {
    std::uint64_t cells = 1, pixels = 1;
    // The pixels [first, end) that show element `e`: its own, or the one it shares.
    std::pair<int, int> pixels_of(std::uint64_t e) const;
    // The elements [first, end) that pixel `p` shows.
    std::pair<std::uint32_t, std::uint32_t> elements_of(int p) const;
};

// The room the arrays have, and what their titles take of it. The arrays go in rows in their
// order, left to right (or in columns, top to bottom); each array's titles stand above it, the
// first row's above the area.
struct ArrayArea {
    int width = 0;
    int height = 0;         // from the first row's top to the bottom
    int title_height = 0;   // a title line above an array (but the first row's)
    int note_height = 0;    // a second title line: an array with a note starts this much lower
    int gap_x = 0;          // between two arrays of a row
    int gap_y = 0;          // between an array's bottom and the titles of the next one below
    std::vector<int> title_widths;                        // per array, its first title line
    std::function<int(const std::string&)> note_width;    // a second title line's width
};

// An array as arranged: where its cells go, from the area's top left (y 0 is the first row's top).
struct ArrayPlacement {
    int x = 0, y = 0, w = 0, h = 0;
    double scale = 0;      // pixels per element along a side that keeps it
    double enlarged = 1;   // that scale over the common scale (above 1: drawn larger than the others)
    bool widened = false, heightened = false;  // a side drawn kMinArrayThickness or so across instead
    std::string note;      // the title's second line ("enlarged x40", "drawn 8 px wide"); empty where none
    int column_width = 0;  // the array or its titles, whichever is wider
};

// rows: arrays left to right, rows top to bottom; columns: arrays top to bottom, columns left to right.
enum class ArrayFlow : std::uint8_t { rows, columns };

struct ArrayArrangement {
    bool fits = false;   // every array and title inside the area, none over another
    double scale = 0;    // the common scale, pixels per element
    std::vector<ArrayPlacement> arrays;
    ArrayFlow flow = ArrayFlow::rows;
    std::vector<std::size_t> group_starts;  // the first array of each row (or column)
};

// The arrays at the largest common scale at which they fit the area, over every way of breaking
// them, in order, into rows, or where no rows fit, into columns (matmul's A beside B above C).
// Whole pixels per element where that fits, else a fraction. An array that scale would draw
// shorter than array_min_side is drawn at that size instead (whole pixels per element from one
// up), its note saying so; where those leave no room, half, a quarter or an eighth of them, else
// none. A side under kMinArrayThickness pixels is drawn that thick (whole pixels per element up to
// 8 elements), its note saying so, unless not even that leaves room.
ArrayArrangement arrange_arrays(const std::vector<ArrayGrid>& arrays, const ArrayArea& area);

}  // namespace cachesim::viz
