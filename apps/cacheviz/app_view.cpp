// The shared view: extent, fitting, clamping, the demo motion and the playhead.
#include "apps/cacheviz/app.hpp"
#include "apps/cacheviz/text_wrap.hpp"

#include <imgui.h>

#include <algorithm>
#include <string>
#include <tuple>

namespace cachesim::gui {

std::uint64_t App::total_steps() const {
    std::uint64_t n = 0;
    for (int i = 0; i < (compare_ ? 2 : 1); ++i)
        if (panes_[i]->current && panes_[i]->current->diagram) n = std::max(n, panes_[i]->current->diagram->steps());
    return n;
}

std::uint64_t App::total_rows() const {
    std::uint64_t n = 0;
    for (int i = 0; i < (compare_ ? 2 : 1); ++i)
        if (panes_[i]->current && panes_[i]->current->diagram) n = std::max(n, panes_[i]->current->diagram->rows());
    return n;
}

std::optional<App::RunExtent> App::run_extent() const {
    bool drawn = false;
    for (int i = 0; i < (compare_ ? 2 : 1); ++i) {
        const Pane& p = *panes_[i];
        if (!p.current && p.job) return std::nullopt;  // its first run is on its way
        drawn = drawn || (p.current && p.current->diagram);
    }
    if (!drawn) return std::nullopt;
    return RunExtent{total_steps(), total_rows()};
}

void App::fit_view() {
    view_.t0 = 0;
    view_.t1 = static_cast<double>(std::max<std::uint64_t>(total_steps(), 1));
    view_.r0 = 0;
    view_.r1 = static_cast<double>(std::max<std::uint64_t>(total_rows(), 1));
    view_.fitted = true;
    // The initial zoom (--zoom) holds until the user moves the view.
    if (options_.zoom_steps || options_.zoom_lines) {
        if (options_.zoom_steps) std::tie(view_.t0, view_.t1) = *options_.zoom_steps;
        if (options_.zoom_lines) std::tie(view_.r0, view_.r1) = *options_.zoom_lines;
        clamp_view();
        view_.fitted = false;
    }
}

void App::user_moved_view() {
    view_.fitted = false;
    options_.zoom_steps.reset();
    options_.zoom_lines.reset();
}

void App::clamp_view() {
    const double ts = static_cast<double>(std::max<std::uint64_t>(total_steps(), 1));
    const double rs = static_cast<double>(std::max<std::uint64_t>(total_rows(), 1));
    auto clamp_axis = [](double& a, double& b, double total, double min_span) {
        double span = std::clamp(b - a, std::min(min_span, total), total);
        a = std::clamp(a, 0.0, total - span);
        b = a + span;
    };
    clamp_axis(view_.t0, view_.t1, ts, 4.0);
    clamp_axis(view_.r0, view_.r1, rs, 4.0);
}

void App::auto_motion(int frame) {
    if (total_steps() == 0) return;
    // Zoom in for 60 frames, pan right for 120, zoom out for 60: exercises level changes and
    // the incremental (panning) texture updates.
    const int phase = frame % 240;
    const double span = view_.t1 - view_.t0;
    if (phase < 60) {
        const double c = (view_.t0 + view_.t1) / 2;
        view_.t0 = c - span * 0.47;
        view_.t1 = c + span * 0.47;
    } else if (phase < 180) {
        view_.t0 += span * 0.01;
        view_.t1 += span * 0.01;
    } else {
        const double c = (view_.t0 + view_.t1) / 2;
        view_.t0 = c - span * 0.53;
        view_.t1 = c + span * 0.53;
    }
    view_.fitted = false;
    clamp_view();
}

void App::playhead_controls() {
    const std::uint64_t steps = total_steps();
    if (ImGui::Button(view_.playing ? "Pause" : "Play")) view_.playing = !view_.playing;
    ImGui::SameLine();
    if (ImGui::Button("<") && view_.playhead > 0) --view_.playhead;
    ImGui::SameLine();
    if (ImGui::Button(">") && view_.playhead + 1 < steps) ++view_.playhead;
    // In a narrow panel a control that would not fit whole beside the last starts a new line, so
    // that the playhead's step is never cut at the panel's edge.
    const ImGuiStyle& style = ImGui::GetStyle();
    const float label_w = style.ItemInnerSpacing.x + ImGui::CalcTextSize("steps/s").x;
    same_line_if_room(110 + label_w);
    // On a line of its own, narrower where the panel is.
    ImGui::SetNextItemWidth(std::clamp(ImGui::GetContentRegionAvail().x - label_w, 40.0f, 110.0f));
    ImGui::SliderFloat("steps/s", &view_.speed, 1.0f, 2000.0f, "%.0f", ImGuiSliderFlags_Logarithmic);
    std::uint64_t lo = 0, hi = steps ? steps - 1 : 0;
    same_line_if_room(ImGui::CalcTextSize(("step " + std::to_string(hi)).c_str()).x + 2 * style.FramePadding.x + 16);
    ImGui::SetNextItemWidth(-1);
    ImGui::SliderScalar("##playhead", ImGuiDataType_U64, &view_.playhead, &lo, &hi, "step %llu");
}

}  // namespace cachesim::gui
