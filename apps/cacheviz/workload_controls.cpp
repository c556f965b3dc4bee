#include "apps/cacheviz/workload_controls.hpp"

#include <imgui.h>

#include "apps/cacheviz/edit_controls.hpp"
#include "apps/cacheviz/text_wrap.hpp"

namespace cachesim::gui {

bool workload_controls(WorkloadSpec& w) {
    bool changed = false;
    int kind = w.kind == WorkloadKind::stencil ? 0 : 1;
    const char* const kinds[] = {"stencil", "matmul"};
    if (ImGui::Combo(label_for_next_widget("workload", frame_width_for(kinds[kind], true)).c_str(), &kind, kinds, 2)) {
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
    const char* const schedules[] = {"linear", "column", "zigzag", "tiled", "morton"};
    if (ImGui::Combo(label_for_next_widget("schedule", frame_width_for(schedules[sk], true)).c_str(), &sk, schedules, 5)) {
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
