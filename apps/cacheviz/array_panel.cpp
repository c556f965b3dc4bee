// The arrays at the playhead, one texture per array and pane.
#include "apps/cacheviz/app.hpp"
#include "apps/cacheviz/text_wrap.hpp"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "viz/notes.hpp"
#include "viz/render.hpp"

namespace cachesim::gui {

namespace {

// Array `a`'s texture at `level`, coloured and uploaded anew where the panel was resized or a new
// view arrived.
sf::Texture& array_texture(Pane& pane, std::size_t a, std::size_t level) {
    sf::Texture& texture = pane.array_textures[a];
    if (pane.array_levels[a] != level) {
        pane.array_levels[a] = level;
        const ArrayImage& img = pane.array_images[a][level];
        if (texture.create(img.width, img.height)) {
            texture.update(array_image_rgba(img).data());
            texture.setSmooth(false);
        }
    }
    return texture;
}

// The pane's arrays as `arrangement` places them below the cursor, `line_h` a name line; each
// image's cells go to `rects` (name, x, y, w, h) for --state.
void draw_arrays(Pane& pane, const viz::ArrayArrangement& arrangement, float line_h,
                 std::vector<std::pair<std::string, std::array<float, 4>>>& rects) {
    const viz::ArrayView& av = *pane.array_view;
    const ImVec2 origin = ImGui::GetCursorScreenPos();  // the first row's names
    ImVec2 extent(0, 0);
    for (std::size_t a = 0; a < av.arrays.size() && a < arrangement.arrays.size() && a < pane.array_images.size() &&
                            !pane.array_images[a].empty();
         ++a) {
        const viz::ArrayGrid& g = av.arrays[a];
        const viz::ArrayPlacement& p = arrangement.arrays[a];
        // The name on the row's title line, the note under it, the image where the arrangement put it.
        const float cells_y = origin.y + line_h + static_cast<float>(p.y);
        ImGui::SetCursorScreenPos(ImVec2(origin.x + static_cast<float>(p.x), cells_y - line_h * (p.note.empty() ? 1 : 2)));
        ImGui::BeginGroup();
        ImGui::TextUnformatted(g.name.c_str());
        if (!p.note.empty()) ImGui::TextUnformatted(p.note.c_str());
        const ImVec2 size(static_cast<float>(p.w), static_cast<float>(p.h));
        const std::size_t level = array_level_for(pane.array_images[a], g.width, g.height, size.x, size.y);
        const ArrayImage& img = pane.array_images[a][level];
        const auto id = reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(array_texture(pane, a, level).getNativeHandle()));
        ImGui::Image(id, size, ImVec2(0, 0), ImVec2(img.u_end, img.v_end), ImVec4(1, 1, 1, 1), ImVec4(0.3f, 0.3f, 0.3f, 1));
        // Inside the border ImGui draws around the image.
        const ImVec2 at = ImGui::GetItemRectMin();
        rects.push_back({g.name, {at.x + 1, at.y + 1, size.x, size.y}});
        ImGui::EndGroup();
        const ImVec2 end = ImGui::GetItemRectMax();
        extent = ImVec2(std::max(extent.x, end.x - origin.x), std::max(extent.y, end.y - origin.y));
    }
    // What the arrays took, for the pane's group.
    ImGui::SetCursorScreenPos(origin);
    ImGui::Dummy(extent);
}

}  // namespace

void App::array_panel(float width, float height) {
    ImGui::BeginChild("arrays", ImVec2(width, height), true, ImGuiWindowFlags_NoScrollbar);
    for (auto& rects : array_rects_) rects.clear();
    playhead_controls();
    const int n = compare_ ? 2 : 1;
    const ImGuiStyle& style = ImGui::GetStyle();
    const float line_h = ImGui::GetTextLineHeightWithSpacing();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    // Each pane's arrays as large as the panel allows (an array far smaller than the others
    // enlarged, a thin one thickened, as in the PNG): the panes side by side or one above the
    // other, whichever draws the smaller pane's arrays larger.
    const float gap = 10;
    const auto pane_width = [&](int across) { return (avail.x - style.ItemSpacing.x * (across - 1) - 2 * gap * (across - 1)) / across; };
    // A pane's heading, wrapped at spaces to its width (no number cut at the panel's edge).
    const auto heading = [&](const Pane& pane, float w) {
        const std::string text = pane.array_view                                ? pane.name + ": " + viz::array_view_heading(*pane.array_view)
                                 : !pane.snapshot_job && !pane.array_view_note.empty() ? pane.name + ": no array view at the playhead: " + pane.array_view_note
                                                                                        : pane.name + ": array view at the playhead: computing...";
        return wrap_at_spaces(text, w);
    };
    // The height of a pane's heading and array names.
    const auto text_h = [&](const Pane& pane, float w) {
        const std::string h = heading(pane, w);
        return (1 + std::count(h.begin(), h.end(), '\n')) * ImGui::GetFontSize() + style.ItemSpacing.y + line_h;
    };
    // A pane's arrays when the panes are laid out `across` x `down`: in rows, at the largest common
    // scale that fits (viz::arrange_arrays, as in the PNG), each under its name and, where enlarged
    // or thickened, a second line saying so. An image's frame takes a pixel each side.
    const auto arranged = [&](const Pane& pane, int across, int down) {
        if (!pane.array_view) return viz::ArrayArrangement{};
        float text = 0;  // above the arrays of a column of panes
        for (int k = 0; k < down; ++k) text += text_h(down == 1 ? pane : *panes_[k], pane_width(across)) + style.ItemSpacing.y;
        viz::ArrayArea area;
        area.width = static_cast<int>(pane_width(across)) - 2;
        area.height = static_cast<int>((avail.y - text) / down) - 2;
        area.title_height = static_cast<int>(line_h);
        area.note_height = static_cast<int>(line_h);
        area.gap_x = static_cast<int>(gap) + 2;
        area.gap_y = static_cast<int>(style.ItemSpacing.y) + 2;
        for (const viz::ArrayGrid& g : pane.array_view->arrays)
            area.title_widths.push_back(static_cast<int>(std::ceil(ImGui::CalcTextSize(g.name.c_str()).x)));
        area.note_width = [](const std::string& note) { return static_cast<int>(std::ceil(ImGui::CalcTextSize(note.c_str()).x)); };
        return viz::arrange_arrays(pane.array_view->arrays, area);
    };
    const bool stacked = n == 2 && std::min(arranged(*panes_[0], 1, 2).scale, arranged(*panes_[1], 1, 2).scale) >
                                       std::min(arranged(*panes_[0], 2, 1).scale, arranged(*panes_[1], 2, 1).scale);
    for (int i = 0; i < n; ++i) {
        Pane& pane = *panes_[i];
        const viz::ArrayArrangement arrangement = n == 1 ? arranged(pane, 1, 1) : stacked ? arranged(pane, 1, 2) : arranged(pane, 2, 1);
        if (i && !stacked) ImGui::SameLine(0, gap * 2);
        ImGui::BeginGroup();
        const std::string title = heading(pane, pane_width(n == 1 || stacked ? 1 : 2));
        if (pane.array_view) {
            ImGui::TextUnformatted(title.c_str());
            draw_arrays(pane, arrangement, line_h, array_rects_[i]);
        } else {
            ImGui::TextDisabled("%s", title.c_str());
        }
        ImGui::EndGroup();
    }
    ImGui::EndChild();
}

}  // namespace cachesim::gui
