#include "apps/cacheviz/text_wrap.hpp"

#include <imgui.h>

#include <algorithm>
#include <cfloat>

namespace cachesim::gui {

namespace {

// ImGui's context is global; so is the record of the labels it placed.
std::vector<PlacedLabel>& placed_labels() {
    static std::vector<PlacedLabel> placed;
    return placed;
}

}  // namespace

std::string wrap_at_spaces(const std::string& text, float width) {
    std::string out;
    std::size_t from = 0;
    while (true) {
        const std::size_t end = std::min(text.find('\n', from), text.size());
        std::string line;
        bool has_word = false;
        for (std::size_t at = from; at < end;) {
            const std::size_t word = std::min(text.find_first_not_of(' ', at), end);
            if (word == end) break;
            const std::size_t word_end = std::min(text.find(' ', word), end);
            // The spaces before the first word stay (an indent); those at a break go.
            std::string longer = line + text.substr(at, word_end - at);
            if (has_word && ImGui::CalcTextSize(longer.c_str()).x > width) {
                out += line + "\n";
                longer = text.substr(word, word_end - word);
            }
            line = std::move(longer);
            has_word = true;
            at = word_end;
        }
        out += line;
        if (end == text.size()) return out;
        out += "\n";
        from = end + 1;
    }
}

std::string first_that_fits(const std::vector<std::string>& forms, float width) {
    for (const std::string& form : forms)
        if (ImGui::CalcTextSize(form.c_str()).x <= width) return form;
    return "";
}

void same_line_if_room(float width) {
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + width <= right) ImGui::SameLine();
}

float frame_width_for(const std::string& text, bool arrow) {
    return ImGui::CalcTextSize(text.c_str()).x + 2 * ImGui::GetStyle().FramePadding.x + (arrow ? ImGui::GetFrameHeight() : 0.0f);
}

std::string label_for_next_widget(const std::string& label, float needed_width) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float frame_w = ImGui::CalcItemWidth(), avail = ImGui::GetContentRegionAvail().x;
    const float label_w = ImGui::CalcTextSize(label.c_str()).x, line_h = ImGui::GetTextLineHeight();
    const std::string id = "###" + label;  // "###": the ID is what follows, whatever is shown
    PlacedLabel placed{label, false, {}, {}};
    const ImVec2 at = ImGui::GetCursorScreenPos();
    if (frame_w >= needed_width && frame_w + style.ItemInnerSpacing.x + label_w <= avail) {
        // Where ImGui draws it: right of the frame, inside its vertical padding.
        placed.lines.push_back({label, {at.x + frame_w + style.ItemInnerSpacing.x, at.y + style.FramePadding.y, label_w, line_h}});
        placed.frame = {at.x, at.y, frame_w, ImGui::GetFrameHeight()};
        placed_labels().push_back(std::move(placed));
        return label + id;
    }
    const std::string lines = wrap_at_spaces(label, avail);
    ImGui::TextUnformatted(lines.c_str());
    float y = at.y;
    for (std::size_t from = 0; from <= lines.size(); y += line_h) {
        const std::size_t end = std::min(lines.find('\n', from), lines.size());
        const std::string line = lines.substr(from, end - from);
        placed.lines.push_back({line, {at.x, y, ImGui::CalcTextSize(line.c_str()).x, line_h}});
        from = end + 1;
    }
    ImGui::SetNextItemWidth(-FLT_MIN);  // the whole line
    const ImVec2 below = ImGui::GetCursorScreenPos();
    placed.above = true;
    placed.frame = {below.x, below.y, avail, ImGui::GetFrameHeight()};
    placed_labels().push_back(std::move(placed));
    return id;
}

std::string checkbox_label(const std::string& text) {
    const float beside = ImGui::GetContentRegionAvail().x - ImGui::GetFrameHeight() - ImGui::GetStyle().ItemInnerSpacing.x;
    return wrap_at_spaces(text, beside) + "###" + text;
}

std::vector<PlacedLabel> take_placed_labels() { return std::exchange(placed_labels(), {}); }

}  // namespace cachesim::gui
