#include "apps/cacheviz/workload_controls.hpp"

#include <imgui.h>

#include "apps/cacheviz/edit_controls.hpp"

namespace cachesim::gui {

bool workload_controls(WorkloadSpec& w) {
    bool changed = false;
    int kind = w.kind == WorkloadKind::stencil ? 0 : 1;
    if (ImGui::Combo("workload", &kind, "stencil\0matmul\0")) {
        w.kind = kind == 0 ? WorkloadKind::stencil : WorkloadKind::matmul;
        changed = true;
    }
    changed |= edit_u32("width I_w", w.width);
    changed |= edit_u32("height I_h", w.height);
    if (w.kind == WorkloadKind::stencil) {
        changed |= edit_u32("stencil S_w", w.stencil_w);
        changed |= edit_u32("stencil S_h", w.stencil_h);
    } else {
        changed |= edit_u32("depth D", w.depth);
    }
    changed |= edit_u32("element bytes", w.elem_bytes);
    int sk = static_cast<int>(w.schedule.kind);
    if (ImGui::Combo("schedule", &sk, "linear\0column\0zigzag\0tiled\0morton\0")) {
        w.schedule.kind = static_cast<ScheduleKind>(sk);
        if (w.schedule.width == 0) w.schedule.width = 4;
        if (w.schedule.kind == ScheduleKind::tiled && w.schedule.tile_height == 0)
            w.schedule.tile_height = w.schedule.width;
        changed = true;
    }
    const ScheduleKind k = w.schedule.kind;
    if (k == ScheduleKind::column || k == ScheduleKind::zigzag || k == ScheduleKind::tiled)
        changed |= edit_u32(k == ScheduleKind::tiled ? "tile width" : "column width W", w.schedule.width);
    if (k == ScheduleKind::tiled) changed |= edit_u32("tile height", w.schedule.tile_height);
    return changed;
}

}  // namespace cachesim::gui
