// The arrays at the playhead, one texture per array and pane.
#include "apps/cacheviz/app.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdint>

#include "viz/notes.hpp"

namespace cachesim::gui {

void App::array_panel(float width, float height) {
    ImGui::BeginChild("arrays", ImVec2(width, height), true);
    playhead_controls();
    const int n = compare_ ? 2 : 1;
    const float pane_w = (ImGui::GetContentRegionAvail().x - 8 * (n - 1)) / n;
    for (int i = 0; i < n; ++i) {
        Pane& pane = *panes_[i];
        if (i) ImGui::SameLine();
        ImGui::BeginGroup();
        if (pane.array_view) {
            const viz::ArrayView& av = *pane.array_view;
            if (av.work_item)
                ImGui::Text("%s: step %s, work item (%u, %u)", pane.name.c_str(), viz::thousands(av.step).c_str(), av.item_x, av.item_y);
            else if (pane.current && pane.current->input.gpu.timeline)
                ImGui::Text("%s: request %s of the measured order (where each line is after it)", pane.name.c_str(),
                            viz::thousands(av.step).c_str());
            else
                ImGui::Text("%s: round %s (where each line is after the round)", pane.name.c_str(), viz::thousands(av.step).c_str());
            float total_w = 0, max_h = 1;
            for (const viz::ArrayGrid& g : av.arrays) { total_w += g.width; max_h = std::max(max_h, static_cast<float>(g.height)); }
            const float avail_h = ImGui::GetContentRegionAvail().y - 22;
            const float scale = std::max(0.1f, std::min((pane_w - 10.0f * av.arrays.size()) / std::max(1.0f, total_w), avail_h / max_h));
            for (std::size_t a = 0; a < av.arrays.size() && a < pane.array_textures.size(); ++a) {
                if (a) ImGui::SameLine();
                ImGui::BeginGroup();
                ImGui::TextUnformatted(av.arrays[a].name.c_str());
                const auto id = reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(pane.array_textures[a].getNativeHandle()));
                ImGui::Image(id, ImVec2(av.arrays[a].width * scale, av.arrays[a].height * scale), ImVec2(0, 0), ImVec2(1, 1),
                             ImVec4(1, 1, 1, 1), ImVec4(0.3f, 0.3f, 0.3f, 1));
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
