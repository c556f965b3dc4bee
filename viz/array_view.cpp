#include "viz/array_view.hpp"

#include <algorithm>
#include <bit>

#include "traces/schedule.hpp"
#include "viz/notes.hpp"

namespace cachesim::viz {

std::uint32_t folded_row_width(std::uint64_t elements, std::uint32_t elements_per_line) {
    std::uint64_t width = 1;
    while (width * width < elements) width *= 2;
    // Whole lines per row when a line holds a power of two of elements (the usual case).
    if (std::has_single_bit(elements_per_line)) width = std::max<std::uint64_t>(width, elements_per_line);
    return static_cast<std::uint32_t>(width);
}

namespace {

// Whether any of the sorted accesses (address, bytes), none wider than `widest`, overlaps the
// element [address, address + bytes).
bool touches(const std::vector<std::pair<std::uint64_t, std::uint32_t>>& accesses, std::uint32_t widest,
             std::uint64_t address, std::uint32_t bytes) {
    auto it = std::lower_bound(accesses.begin(), accesses.end(), std::pair{address + bytes, std::uint32_t{0}});
    while (it != accesses.begin()) {
        --it;
        if (it->first + std::max<std::uint32_t>(it->second, 1) > address) return true;
        if (address - it->first >= widest) break;  // every earlier one ends before the element
    }
    return false;
}

}  // namespace

ArrayView make_array_view(const RowLayout& rows, const LineSnapshot& snapshot,
                          const std::optional<WorkloadSpec>& workload) {
    ArrayView view;
    view.step = snapshot.step;
    // Addresses the step's work item touches.
    std::vector<std::uint64_t> touched;
    if (workload && snapshot.step < workload->items()) {
        const WorkloadSpec& w = *workload;
        const std::uint64_t item = schedule_map(w.schedule, snapshot.step, w.width, w.height);
        view.work_item = item;
        view.item_x = static_cast<std::uint32_t>(item % w.width);
        view.item_y = static_cast<std::uint32_t>(item / w.width);
        const StencilWorkload s = w.stencil();
        const MatmulWorkload m = w.matmul();
        for (std::uint32_t k = 0; k < w.accesses_per_item(); ++k) {
            const Access a = w.kind == WorkloadKind::stencil ? s.access(item, k) : m.access(item, k);
            touched.push_back(a.address);
        }
        std::sort(touched.begin(), touched.end());
        touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    }
    std::uint32_t widest = 1;
    if (snapshot.accesses)
        for (const auto& [address, bytes] : *snapshot.accesses) widest = std::max(widest, bytes);
    for (const RowGroup& g : rows.groups()) {
        const ArrayInfo& a = g.array;
        if (a.width == 0 || a.height == 0) continue;
        ArrayGrid grid;
        grid.name = a.name;
        grid.width = a.width;
        grid.height = a.height;
        grid.elements = static_cast<std::uint64_t>(a.width) * a.height;
        const std::uint32_t eb = std::max<std::uint32_t>(a.elem_bytes, 1);
        grid.elements_per_line = std::max<std::uint32_t>(1, rows.line_bytes() / eb);
        grid.first_element_offset = (a.base % rows.line_bytes()) / eb;
        if (a.height == 1 && a.width > kMaxFlatRow) {
            grid.folded = true;
            grid.width = folded_row_width(grid.elements, grid.elements_per_line);
            grid.height = static_cast<std::uint32_t>((grid.elements + grid.width - 1) / grid.width);
        }
        grid.cells.resize(static_cast<std::size_t>(grid.width) * grid.height, CellState::not_cached);
        for (std::uint64_t e = 0; e < grid.elements; ++e) {
            const std::uint64_t address = a.base + e * eb;
            const std::uint64_t row = rows.row_of_address(address);
            if (row == kNoRow || row >= snapshot.state.size()) continue;
            const bool accessed_now = workload              ? std::binary_search(touched.begin(), touched.end(), address)
                                      : snapshot.accesses ? touches(*snapshot.accesses, widest, address, eb)
                                                          : true;
            grid.cells[e] = accessed_now ? snapshot.state[row] : snapshot.residency[row];
        }
        view.arrays.push_back(std::move(grid));
    }
    return view;
}

StepUnit step_unit(bool gpu_model, bool trace, bool measured_order) {
    if (gpu_model) return measured_order ? StepUnit::measured_request : StepUnit::round;
    return trace ? StepUnit::recorded_thread : StepUnit::work_item;
}

ArrayView make_array_view(const RowLayout& rows, const LineSnapshot& snapshot,
                          const std::optional<WorkloadSpec>& workload, StepUnit unit) {
    ArrayView view = make_array_view(rows, snapshot, unit == StepUnit::work_item ? workload : std::nullopt);
    view.unit = unit;
    return view;
}

std::string array_view_heading(const ArrayView& view) {
    const std::string n = thousands(view.step);
    switch (view.unit) {
        case StepUnit::recorded_thread:
            return "step " + n + " of the recorded threads, in launch order (where each line is after it)";
        case StepUnit::round: return "round " + n + " (where each line is after the round)";
        case StepUnit::measured_request: return "request " + n + " of the measured order (where each line is after it)";
        case StepUnit::work_item: default:
            if (!view.work_item) return "step " + n;
            return "step " + n + ": work item (" + std::to_string(view.item_x) + ", " + std::to_string(view.item_y) + ")";
    }
}

}  // namespace cachesim::viz
