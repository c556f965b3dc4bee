#include "apps/cacheviz/app.hpp"

#include <imgui.h>

#include <algorithm>

namespace cachesim::gui {

GpuConfig PaneConfig::default_gpu() {
    const GpuPreset* p = find_gpu_preset(kDefaultGpuPreset);
    return p ? p->config : GpuConfig{};
}

App::App(PaneConfig first, std::optional<PaneConfig> compare, AppOptions options) : options_(std::move(options)) {
    for (int i = 0; i < 2; ++i) {
        auto p = std::make_unique<Pane>();
        p->name = i == 0 ? "A" : "B";
        p->config = i == 0 ? first : compare.value_or(first);
        panes_.push_back(std::move(p));
    }
    compare_ = compare.has_value();
    start_run(*panes_[0]);
    if (compare_) start_run(*panes_[1]);
}

App::~App() = default;

bool App::busy() const {
    for (int i = 0; i < (compare_ ? 2 : 1); ++i) {
        const Pane& p = *panes_[i];
        // A job counts until its result is shown (a finished one is picked up by the next frame).
        if (p.job || p.snapshot_job || p.detail_job) return true;
    }
    return false;
}

std::size_t App::texels_written_last_frame() const {
    std::size_t n = 0;
    for (const auto& p : panes_) n += p->texels_written_last_frame;
    return n;
}

void App::frame(float dt) {
    for (int i = 0; i < 2; ++i) poll(*panes_[i]);
    if (view_.playing && total_steps() > 0) {
        view_.play_accumulator += dt * view_.speed;
        const auto adv = static_cast<std::uint64_t>(view_.play_accumulator);
        view_.play_accumulator -= static_cast<double>(adv);
        view_.playhead += adv;
        if (view_.playhead >= total_steps()) { view_.playhead = total_steps() - 1; view_.playing = false; }
    }
    for (int i = 0; i < (compare_ ? 2 : 1); ++i) request_array_view(*panes_[i]);

    const ImGuiIO& io = ImGui::GetIO();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(io.DisplaySize);
    ImGui::Begin("cacheviz", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                          ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus);
    // Left: configuration.
    ImGui::BeginChild("controls", ImVec2(340, 0), true);
    ImGui::TextUnformatted("cacheviz: GPU thread schedules and caches");
    if (ImGui::Checkbox("compare two configurations", &compare_)) {
        if (compare_ && !panes_[1]->current && !panes_[1]->job) start_run(*panes_[1]);
        if (!compare_) editing_ = 0;
    }
    if (compare_) {
        ImGui::RadioButton("edit A", &editing_, 0);
        ImGui::SameLine();
        ImGui::RadioButton("edit B", &editing_, 1);
        ImGui::SameLine();
        if (ImGui::Button("copy A to B")) { panes_[1]->config = panes_[0]->config; start_run(*panes_[1]); }
    }
    ImGui::PushItemWidth(150);
    controls(*panes_[compare_ ? editing_ : 0]);
    ImGui::PopItemWidth();
    ImGui::Separator();
    if (ImGui::Button("fit view")) {
        user_moved_view();
        fit_view();
    }
    ImGui::TextDisabled("drag: pan; wheel: zoom;\nCtrl+wheel: time only; Shift+wheel: lines only;\nright click: move the playhead");
    ImGui::EndChild();
    ImGui::SameLine();

    // Right: diagrams on top, array view and stats below.
    ImGui::BeginGroup();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float bottom_h = std::min(330.0f, avail.y * 0.38f);
    const float top_h = avail.y - bottom_h - ImGui::GetStyle().ItemSpacing.y;
    const int n = compare_ ? 2 : 1;
    const float pane_w = (avail.x - ImGui::GetStyle().ItemSpacing.x * (n - 1)) / n;
    for (int i = 0; i < n; ++i) {
        if (i) ImGui::SameLine();
        diagram_pane(*panes_[i], pane_w, top_h);
    }
    visible_cells_ = 0;
    for (int i = 0; i < n; ++i) visible_cells_ += panes_[i]->texture.visible_texels() + panes_[i]->detail_texture.visible_texels();
    const float arrays_w = avail.x * 0.55f;
    array_panel(arrays_w, bottom_h);
    ImGui::SameLine();
    stats_panel(avail.x - arrays_w - ImGui::GetStyle().ItemSpacing.x, bottom_h);
    ImGui::EndGroup();
    ImGui::End();
}

}  // namespace cachesim::gui
