// The arrays at the playhead, one texture per array and pane.
#include "apps/cacheviz/app.hpp"
#include "apps/cacheviz/text_wrap.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "viz/notes.hpp"
#include "viz/render.hpp"

namespace cachesim::gui {

void App::array_panel(float width, float height) {
    ImGui::BeginChild("arrays", ImVec2(width, height), true, ImGuiWindowFlags_NoScrollbar);
    for (auto& rects : array_rects_) rects.clear();
    playhead_controls();
    const int n = compare_ ? 2 : 1;
    const ImGuiStyle& style = ImGui::GetStyle();
    const float line_h = ImGui::GetTextLineHeightWithSpacing();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    // The arrays of all panes at one scale (an array far smaller than the others enlarged, as in the
    // PNG), as large as the panel allows: the panes side by side or one above the other, whichever
    // gives the larger picture.
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
    // A pane's scale when the panes are laid out `across` x `down`, and each array's: where the
    // common scale draws an array smaller than viz::array_min_side, that array is drawn at that
    // size (whole pixels an element from one up) under a second label line naming the
    // enlargement, if the row still fits; otherwise every array at the common scale.
    struct Scales {
        float common = 0;
        std::vector<float> array;  // per array
        std::vector<bool> enlarged;
    };
    const auto scales_for = [&](const Pane& pane, int across, int down) {
        Scales out;
        float total_w = 0, max_h = 1, count = 0;
        if (pane.array_view)
            for (const viz::ArrayGrid& g : pane.array_view->arrays) {
                total_w += g.width;
                max_h = std::max(max_h, static_cast<float>(g.height));
                ++count;
            }
        const float area_w = pane_width(across);
        const float w = (area_w - gap * (count - 1)) / std::max(1.0f, total_w);
        float text = 0;  // above the arrays of a column of panes
        for (int k = 0; k < down; ++k) text += text_h(down == 1 ? pane : *panes_[k], pane_width(across)) + style.ItemSpacing.y;
        const float area_h = (avail.y - text) / down;
        const float h = area_h / max_h;
        out.common = std::max(0.05f, std::min(w, h));
        const std::size_t arrays_n = pane.array_view ? pane.array_view->arrays.size() : 0;
        out.array.assign(arrays_n, out.common);
        out.enlarged.assign(arrays_n, false);
        if (arrays_n == 0) return out;
        const std::vector<viz::ArrayGrid>& arrays = pane.array_view->arrays;
        std::vector<float> minimum(arrays_n), label_w(arrays_n);
        bool below = false;
        for (std::size_t a = 0; a < arrays_n; ++a) {
            const float side = static_cast<float>(std::max(arrays[a].width, arrays[a].height));
            const float m = static_cast<float>(viz::array_min_side(arrays[a], area_h)) / std::max(1.0f, side);
            minimum[a] = m >= 1 ? std::floor(m) : m;
            below = below || minimum[a] > out.common;
            label_w[a] = ImGui::CalcTextSize(viz::array_enlarged_note(888).c_str()).x;
        }
        if (!below) return out;
        // Whether the row fits at common scale `s`, at least one array at it.
        const auto fits = [&](float s) {
            float row = gap * (count - 1), tallest = 0;
            bool common = false;
            for (std::size_t a = 0; a < arrays_n; ++a) {
                const bool big = minimum[a] > s;
                const float k = big ? minimum[a] : s;
                common = common || !big;
                const float iw = std::max(1.0f, std::floor(arrays[a].width * k));
                row += big ? std::max(iw, label_w[a]) : iw;
                tallest = std::max(tallest, std::max(1.0f, std::floor(arrays[a].height * k)) + (big ? line_h : 0));
            }
            return common && row <= area_w && tallest <= area_h;
        };
        float lo = *std::min_element(minimum.begin(), minimum.end()), hi = out.common;
        if (lo > hi || !fits(lo)) return out;
        for (int k = 0; k < 40; ++k) {
            const float mid = (lo + hi) / 2;
            (fits(mid) ? lo : hi) = mid;
        }
        out.common = lo;
        for (std::size_t a = 0; a < arrays_n; ++a) {
            out.enlarged[a] = minimum[a] > lo;
            out.array[a] = out.enlarged[a] ? minimum[a] : lo;
        }
        return out;
    };
    const bool stacked = n == 2 && std::min(scales_for(*panes_[0], 1, 2).common, scales_for(*panes_[1], 1, 2).common) >
                                       std::min(scales_for(*panes_[0], 2, 1).common, scales_for(*panes_[1], 2, 1).common);
    for (int i = 0; i < n; ++i) {
        Pane& pane = *panes_[i];
        const Scales scales = n == 1 ? scales_for(pane, 1, 1) : stacked ? scales_for(pane, 1, 2) : scales_for(pane, 2, 1);
        if (i && !stacked) ImGui::SameLine(0, gap * 2);
        ImGui::BeginGroup();
        const std::string title = heading(pane, pane_width(n == 1 || stacked ? 1 : 2));
        if (pane.array_view) {
            const viz::ArrayView& av = *pane.array_view;
            ImGui::TextUnformatted(title.c_str());
            for (std::size_t a = 0; a < av.arrays.size() && a < pane.array_images.size() && !pane.array_images[a].empty(); ++a) {
                if (a) ImGui::SameLine(0, gap);
                ImGui::BeginGroup();
                const float scale = scales.array[a];
                ImGui::TextUnformatted(av.arrays[a].name.c_str());
                if (scales.enlarged[a])
                    ImGui::TextUnformatted(viz::array_enlarged_note(scales.array[a] / scales.common).c_str());
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
        } else {
            ImGui::TextDisabled("%s", title.c_str());
        }
        ImGui::EndGroup();
    }
    ImGui::EndChild();
}

}  // namespace cachesim::gui
