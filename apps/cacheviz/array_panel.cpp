// The arrays at the playhead, one texture per array and pane.
#include "apps/cacheviz/app.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "viz/notes.hpp"

namespace cachesim::gui {

void App::array_panel(float width, float height) {
    ImGui::BeginChild("arrays", ImVec2(width, height), true, ImGuiWindowFlags_NoScrollbar);
    playhead_controls();
    const int n = compare_ ? 2 : 1;
    const ImGuiStyle& style = ImGui::GetStyle();
    const float line_h = ImGui::GetTextLineHeightWithSpacing();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    // The arrays of all panes at one scale, as large as the panel allows: the panes side by side
    // or one above the other, whichever gives the larger picture.
    const float gap = 10;
    // A pane's scale when the panes are laid out `across` x `down`.
    const auto scale_for = [&](const Pane& pane, int across, int down) {
        float total_w = 0, max_h = 1, count = 0;
        if (pane.array_view)
            for (const viz::ArrayGrid& g : pane.array_view->arrays) {
                total_w += g.width;
                max_h = std::max(max_h, static_cast<float>(g.height));
                ++count;
            }
        const float w = ((avail.x - style.ItemSpacing.x * (across - 1) - 2 * gap * (across - 1)) / across - gap * (count - 1)) /
                        std::max(1.0f, total_w);
        const float h = ((avail.y - down * (2 * line_h + style.ItemSpacing.y)) / down) / max_h;
        return std::max(0.05f, std::min(w, h));
    };
    const bool stacked = n == 2 && std::min(scale_for(*panes_[0], 1, 2), scale_for(*panes_[1], 1, 2)) >
                                       std::min(scale_for(*panes_[0], 2, 1), scale_for(*panes_[1], 2, 1));
    for (int i = 0; i < n; ++i) {
        Pane& pane = *panes_[i];
        const float scale = n == 1 ? scale_for(pane, 1, 1) : stacked ? scale_for(pane, 1, 2) : scale_for(pane, 2, 1);
        if (i && !stacked) ImGui::SameLine(0, gap * 2);
        ImGui::BeginGroup();
        if (pane.array_view) {
            const viz::ArrayView& av = *pane.array_view;
            if (av.work_item)
                ImGui::Text("%s: step %s, work item (%u, %u)", pane.name.c_str(), viz::thousands(av.step).c_str(), av.item_x, av.item_y);
            else if (pane.current && pane.current->input.trace && !pane.current->input.gpu_model)
                ImGui::Text("%s: step %s of the recorded threads, in launch order (where each line is after it)",
                            pane.name.c_str(), viz::thousands(av.step).c_str());
            else if (pane.current && pane.current->input.gpu.timeline)
                ImGui::Text("%s: request %s of the measured order (where each line is after it)", pane.name.c_str(),
                            viz::thousands(av.step).c_str());
            else
                ImGui::Text("%s: round %s (where each line is after the round)", pane.name.c_str(), viz::thousands(av.step).c_str());
            for (std::size_t a = 0; a < av.arrays.size() && a < pane.array_textures.size(); ++a) {
                if (a) ImGui::SameLine(0, gap);
                ImGui::BeginGroup();
                ImGui::TextUnformatted(av.arrays[a].name.c_str());
                const auto id = reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(pane.array_textures[a].getNativeHandle()));
                ImGui::Image(id, ImVec2(std::floor(av.arrays[a].width * scale), std::floor(av.arrays[a].height * scale)), ImVec2(0, 0),
                             ImVec2(1, 1), ImVec4(1, 1, 1, 1), ImVec4(0.3f, 0.3f, 0.3f, 1));
                ImGui::EndGroup();
            }
        } else {
            ImGui::TextDisabled("%s: array view at the playhead: computing...", pane.name.c_str());
        }
        ImGui::EndGroup();
    }
    ImGui::EndChild();
}

}  // namespace cachesim::gui
