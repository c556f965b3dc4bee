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
    for (auto& rects : array_rects_) rects.clear();
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
            ImGui::Text("%s: %s", pane.name.c_str(), viz::array_view_heading(av).c_str());
            for (std::size_t a = 0; a < av.arrays.size() && a < pane.array_images.size() && !pane.array_images[a].empty(); ++a) {
                if (a) ImGui::SameLine(0, gap);
                ImGui::BeginGroup();
                ImGui::TextUnformatted(av.arrays[a].name.c_str());
                // At least a pixel a side: a one-column array beside a tall one still shows.
                const ImVec2 size(std::max(1.0f, std::floor(av.arrays[a].width * scale)),
                                  std::max(1.0f, std::floor(av.arrays[a].height * scale)));
                const std::size_t level =
                    array_level_for(pane.array_images[a], av.arrays[a].width, av.arrays[a].height, size.x, size.y);
                const ArrayImage& img = pane.array_images[a][level];
                sf::Texture& texture = pane.array_textures[a];
                if (pane.array_levels[a] != level) {  // the panel was resized, or a new view arrived
                    pane.array_levels[a] = level;
                    if (texture.create(img.width, img.height)) {
                        texture.update(img.rgba.data());
                        texture.setSmooth(false);
                    }
                }
                const auto id = reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(texture.getNativeHandle()));
                ImGui::Image(id, size, ImVec2(0, 0), ImVec2(img.u_end, img.v_end), ImVec4(1, 1, 1, 1), ImVec4(0.3f, 0.3f, 0.3f, 1));
                // Inside the border ImGui draws around the image.
                const ImVec2 at = ImGui::GetItemRectMin();
                array_rects_[i].push_back({av.arrays[a].name, {at.x + 1, at.y + 1, size.x, size.y}});
                ImGui::EndGroup();
            }
        } else if (!pane.snapshot_job && !pane.array_view_note.empty()) {
            ImGui::TextDisabled("%s: no array view at the playhead: %s", pane.name.c_str(), pane.array_view_note.c_str());
        } else {
            ImGui::TextDisabled("%s: array view at the playhead: computing...", pane.name.c_str());
        }
        ImGui::EndGroup();
    }
    ImGui::EndChild();
}

}  // namespace cachesim::gui
