#include "apps/cacheviz/cell_tooltip.hpp"

#include <imgui.h>

#include <string>

#include "apps/cacheviz/imgui_color.hpp"
#include "traces/schedule.hpp"
#include "viz/detail_window.hpp"
#include "viz/notes.hpp"
#include "viz/render.hpp"

namespace cachesim::gui {

void cell_tooltip(const JobOutput& out, const viz::Diagram& diagram, const viz::Diagram* exact, std::uint64_t step,
                  std::uint64_t row, const viz::LineHistory* history, bool pending, const JobOutput* other) {
    const viz::Diagram* d = &diagram;  // as the pane names it
    ImGui::BeginTooltip();
    const WorkloadSpec& wl = out.input.workload;
    if (out.input.gpu_model && out.input.gpu.timeline) {
        ImGui::Text("request %s of %s (in the measured order)", viz::thousands(step).c_str(),
                    viz::thousands(out.rounds).c_str());
    } else if (out.input.gpu_model) {
        ImGui::Text("round %s of %s (every SM with work issues one request)", viz::thousands(step).c_str(),
                    viz::thousands(out.rounds).c_str());
    } else if (out.input.trace) {
        ImGui::Text("step %s of the recorded threads, in launch order", viz::thousands(step).c_str());
    } else {
        const std::uint64_t item = schedule_map(wl.schedule, step, wl.width, wl.height);
        ImGui::Text("step %s: work item %s at (%llu, %llu)", viz::thousands(step).c_str(), viz::thousands(item).c_str(),
                    static_cast<unsigned long long>(item % wl.width), static_cast<unsigned long long>(item / wl.width));
    }
    const viz::RowInfo info = d->layout().describe(row);
    if (info.group)
        ImGui::Text("line %s: %s elements (%u, %u) .. +%llu", viz::thousands(info.line).c_str(),
                    info.group->array.name.c_str(), info.x, info.y,
                    static_cast<unsigned long long>(info.elements ? info.elements - 1 : 0));
    // The exact cell where the full-resolution window is drawn, the base cell elsewhere.
    const viz::ShownCell cell = viz::shown_cell(*d, exact, step, row);
    ImGui::ColorButton("##state", ImGui::ColorConvertU32ToFloat4(to_imgui(viz::cell_color(cell.state))), 0, ImVec2(12, 12));
    ImGui::SameLine();
    ImGui::Text("%s", std::string(viz::cell_state_name(cell.state)).c_str());
    if (cell.exact && !d->exact())
        ImGui::TextDisabled("(exact: this step and line, re-simulated at full resolution)");
    else if (!cell.exact)
        ImGui::TextDisabled("(a cell covers %llu steps x %llu lines)", static_cast<unsigned long long>(d->steps_per_column()),
                            static_cast<unsigned long long>(d->rows_per_bucket()));
    if (cell.sm) ImGui::Text("accessed by SM %u%s", cell.sm - 1u, cell.sm == 255 ? " or later" : "");
    if (cell.hit_source)
        ImGui::Text("most of its L1 hits brought by %s",
                    std::string(viz::hit_source_name(static_cast<HitSource>(cell.hit_source))).c_str());
    if (other && other->diagram && step < other->diagram->steps() && row < other->diagram->rows()) {
        const viz::CellState a = viz::shown_cell(*other->diagram, nullptr, step, row).state;
        ImGui::Text("A: %s%s", std::string(viz::cell_state_name(a)).c_str(), a == cell.state ? " (the same)" : " (differs)");
    }
    if (!out.input.gpu_model) {
        const auto u = [](std::uint64_t v) { return viz::thousands(v); };
        if (history) {
            if (!history->last_access_step)
                ImGui::TextUnformatted("not used up to this step");
            else if (!history->reuse_distance)
                ImGui::Text("last used at step %s, its first use (no reuse distance)", u(*history->last_access_step).c_str());
            else
                ImGui::Text("last used at step %s; reuse distance %s (other lines used since its use before)",
                            u(*history->last_access_step).c_str(), u(*history->reuse_distance).c_str());
            if (history->evicted_step) {
                const std::uint64_t by_row = d->layout().row_of_line(*history->evicted_by_line);
                const viz::RowInfo by = by_row == viz::kNoRow ? viz::RowInfo{} : d->layout().describe(by_row);
                if (by.group)
                    ImGui::Text("%s at step %s by the fill of line %s (%s (%u, %u))", history->resident ? "last evicted" : "evicted",
                                u(*history->evicted_step).c_str(), u(*history->evicted_by_line).c_str(), by.group->array.name.c_str(), by.x, by.y);
                else
                    ImGui::Text("evicted at step %s by the fill of line %s", u(*history->evicted_step).c_str(), u(*history->evicted_by_line).c_str());
            } else if (history->last_access_step) {
                ImGui::TextUnformatted("never evicted up to this step");
            }
        } else if (pending) {
            ImGui::TextDisabled("reuse distance, evictions: computing...");
        }
    }
    ImGui::EndTooltip();
}

}  // namespace cachesim::gui
