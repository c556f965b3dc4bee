#pragma once
// The 2D arrays at one time step, each element coloured by where its line is (L1 / L2 / memory)
// and whether the step's work item accesses it: the picture a teacher draws on a board.
#include <optional>
#include <string>
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

}  // namespace cachesim::viz
