#include "viz/array_view.hpp"

#include <algorithm>

#include "traces/schedule.hpp"

namespace cachesim::viz {

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
    for (const RowGroup& g : rows.groups()) {
        const ArrayInfo& a = g.array;
        if (a.width == 0 || a.height == 0) continue;
        ArrayGrid grid;
        grid.name = a.name;
        grid.width = a.width;
        grid.height = a.height;
        const std::uint32_t eb = std::max<std::uint32_t>(a.elem_bytes, 1);
        grid.elements_per_line = std::max<std::uint32_t>(1, rows.line_bytes() / eb);
        grid.first_element_offset = (a.base % rows.line_bytes()) / eb;
        grid.cells.resize(static_cast<std::size_t>(a.width) * a.height, CellState::not_cached);
        for (std::uint64_t e = 0; e < grid.cells.size(); ++e) {
            const std::uint64_t address = a.base + e * eb;
            const std::uint64_t row = rows.row_of_address(address);
            if (row == kNoRow || row >= snapshot.state.size()) continue;
            const bool accessed_now = workload ? std::binary_search(touched.begin(), touched.end(), address) : true;
            grid.cells[e] = accessed_now ? snapshot.state[row] : snapshot.residency[row];
        }
        view.arrays.push_back(std::move(grid));
    }
    return view;
}

}  // namespace cachesim::viz
