#include "apps/cacheviz/app.hpp"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>

#include "apps/cacheviz/text_wrap.hpp"
#include "viz/gui/diagram_texture.hpp"
#include "viz/notes.hpp"
#include "viz/view_choices.hpp"

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
    view_.playhead = options_.playhead;
    start_run(*panes_[0]);
    if (compare_) start_run(*panes_[1]);
}

App::~App() = default;

bool App::busy() const {
    for (int i = 0; i < (compare_ ? 2 : 1); ++i) {
        const Pane& p = *panes_[i];
        // A job counts until its result is shown (a finished one is picked up by the next frame).
        if (p.job || p.snapshot_job || p.detail_job || p.contents_job) return true;
        if (p.hover_job && !p.hover_job->done()) return true;
    }
    return false;
}

std::size_t App::texels_written_last_frame() const {
    std::size_t n = 0;
    for (const auto& p : panes_) n += p->texels_written_last_frame;
    return n;
}

void App::note_widget(const std::string& name) {
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    widgets_.push_back({name, {a.x, a.y, b.x - a.x, b.y - a.y}});
}

void App::difference_unavailable_note() {
    // The difference compares cell by cell: panes of other steps or lines keep their own colours,
    // and the ticked box says why rather than seem to do nothing.
    if (!show_difference_) return;
    const JobOutput* a = panes_[0]->current.get();
    const JobOutput* b = panes_[1]->current.get();
    if (!a || !b || !a->diagram || !b->diagram || viz::gui::DiagramTexture::same_shape(*b->diagram, *a->diagram)) return;
    const auto shape = [](const viz::Diagram& d) {
        return viz::thousands(d.steps()) + " steps of " + viz::thousands(d.layout().rows()) + " lines";
    };
    const std::string note = "No difference shown: A has " + shape(*a->diagram) + ", B " + shape(*b->diagram) +
                             "; it needs the same steps and lines in both.";
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.6f, 0.25f, 0.0f, 1.0f));
    ImGui::TextUnformatted(wrap_at_spaces(note, ImGui::GetContentRegionAvail().x).c_str());
    ImGui::PopStyleColor();
    note_widget("difference_note|" + note);
}

void App::frame(float dt) {
    widgets_.clear();
    take_placed_labels();  // a previous frame's, if it ended early
    for (int i = 0; i < 2; ++i) poll(*panes_[i]);
    handle_keys();
    if (view_.playing && total_steps() > 0) {
        view_.play_accumulator += dt * view_.speed;
        const auto adv = static_cast<std::uint64_t>(view_.play_accumulator);
        view_.play_accumulator -= static_cast<double>(adv);
        view_.playhead += adv;
        if (view_.playhead >= total_steps()) { view_.playhead = total_steps() - 1; view_.playing = false; }
    }
    for (int i = 0; i < (compare_ ? 2 : 1); ++i) {
        request_array_view(*panes_[i]);
        request_contents(*panes_[i]);
    }

    const ImGuiIO& io = ImGui::GetIO();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(io.DisplaySize);
    ImGui::Begin("cacheviz", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                          ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus);
    const ImVec2 whole = ImGui::GetContentRegionAvail();
    // Left: configuration, a share of the window's width.
    const float controls_max = std::max(kControlsMinWidth, whole.x - 400);
    const float wanted = controls_share_ ? *controls_share_ * whole.x : std::min(whole.x / 4, kControlsDefaultMaxWidth);
    controls_w_ = std::clamp(std::round(wanted), kControlsMinWidth, controls_max);
    ImGui::BeginChild("controls", ImVec2(controls_w_, 0), true);
    const ImVec2 column_at = ImGui::GetWindowPos();
    const float column_left = column_at.x + ImGui::GetWindowContentRegionMin().x;
    const float column_right = column_at.x + ImGui::GetWindowContentRegionMax().x;
    ImGui::BeginGroup();  // its box: how far the column's items reach, for --state
    ImGui::TextUnformatted(wrap_at_spaces("cacheviz: GPU thread schedules and caches", ImGui::GetContentRegionAvail().x).c_str());
    if (ImGui::Checkbox(checkbox_label("compare two configurations").c_str(), &compare_)) {
        if (compare_ && !panes_[1]->current && !panes_[1]->job) start_run(*panes_[1]);
        if (!compare_) editing_ = 0;
    }
    note_widget("compare");
    if (compare_) {
        const auto radio_width = [](const char* label) {
            return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label).x;
        };
        ImGui::RadioButton("edit A", &editing_, 0);
        note_widget("edit_a");
        same_line_if_room(radio_width("edit B"));
        ImGui::RadioButton("edit B", &editing_, 1);
        note_widget("edit_b");
        same_line_if_room(frame_width_for("copy A to B"));
        if (ImGui::Button("copy A to B")) { panes_[1]->config = panes_[0]->config; start_run(*panes_[1]); }
        note_widget("copy_a_to_b");
        ImGui::Checkbox(checkbox_label("B: show where A and B differ (D)").c_str(), &show_difference_);
        note_widget("show_difference");
        difference_unavailable_note();
    }
    // The fields' frames line up, their labels on the right, where the column has room for a
    // frame and a label of about 18 characters side by side; otherwise (and for any label too
    // long for that) the label stands above a frame as wide as the column.
    const float label_room = 18 * ImGui::CalcTextSize("0").x + ImGui::GetStyle().ItemInnerSpacing.x;
    const float frame_w = ImGui::GetContentRegionAvail().x - label_room;
    ImGui::PushItemWidth(frame_w >= kMinFrameBesideLabel ? frame_w : -FLT_MIN);
    controls(*panes_[compare_ ? editing_ : 0]);
    ImGui::PopItemWidth();
    ImGui::Separator();
    ImGui::TextDisabled("View and export");
    view_options();
    if (ImGui::Button("fit view (F)")) {
        user_moved_view();
        fit_view();
    }
    note_widget("fit_view");
    same_line_if_room(frame_width_for("save PNG (Ctrl+S)"));
    if (ImGui::Button("save PNG (Ctrl+S)")) save_request_ = options_.save_path;
    note_widget("save_png");
    for (int i = 0; i < (compare_ ? 2 : 1); ++i) {
        if (!panes_[i]->current) continue;
        // The long form where it fits; the tooltip says what the command is either way.
        const std::string name = panes_[i]->name, long_label = "copy " + name + " as a cachesim diagram command";
        const bool long_fits = !compare_ && frame_width_for(long_label) <= ImGui::GetContentRegionAvail().x;
        const std::string shown = long_fits ? long_label : "copy " + name + " as command";
        if (i) same_line_if_room(frame_width_for(shown));
        if (ImGui::Button(shown.c_str())) {
            last_command_[i] = diagram_command(i);
            ImGui::SetClipboardText(last_command_[i].c_str());
            status_ = "copied: " + last_command_[i];
        }
        note_widget("copy_command_" + panes_[i]->name);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("the `cachesim diagram` options that draw this run's configuration and the view's steps");
    }
    if (!status_.empty()) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextDisabled("%s", status_.c_str());
        ImGui::PopTextWrapPos();
    }
    const std::string help = "drag: pan; wheel: zoom (Ctrl: time only, Shift: lines only); right click: move the playhead. "
                             "Keys: Space play, arrows step (Shift: x10), Home / End, F fit, + / - zoom, D differences, "
                             "Ctrl+S save PNG, Esc or Ctrl+Q quit";
    ImGui::TextDisabled("%s", wrap_at_spaces(help, ImGui::GetContentRegionAvail().x).c_str());
    ImGui::EndGroup();
    {
        const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
        widgets_.push_back({"controls_items", {a.x, a.y, b.x - a.x, b.y - a.y}});
        widgets_.push_back({"controls_view", {column_left, column_at.y, column_right - column_left, ImGui::GetWindowHeight()}});
    }
    for (const PlacedLabel& placed : take_placed_labels()) {
        for (const auto& [line, box] : placed.lines) widgets_.push_back({"control_label " + placed.label + "|" + line, box});
        widgets_.push_back({std::string(placed.above ? "control_above " : "control_beside ") + placed.label, placed.frame});
    }
    ImGui::EndChild();
    ImGui::SameLine(0, 0);
    if (splitter("##split_controls", true, whole.y, controls_w_, kControlsMinWidth, controls_max))
        controls_share_ = controls_w_ / whole.x;
    ImGui::SameLine(0, 0);

    // Right: diagrams on top, array view and stats / cache contents below.
    ImGui::BeginGroup();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    if (bottom_h_ < 0) bottom_h_ = std::round(avail.y * 0.42f);
    if (arrays_w_ < 0) arrays_w_ = std::round(avail.x * 0.42f);
    const float split = 6;
    bottom_h_ = std::clamp(bottom_h_, 120.0f, std::max(120.0f, avail.y - 160));
    arrays_w_ = std::clamp(arrays_w_, 160.0f, std::max(160.0f, avail.x - 220));
    const float top_h = avail.y - bottom_h_ - split - 2 * ImGui::GetStyle().ItemSpacing.y;
    const int n = compare_ ? 2 : 1;
    const float pane_w = (avail.x - ImGui::GetStyle().ItemSpacing.x * (n - 1)) / n;
    for (int i = 0; i < n; ++i) {
        if (i) ImGui::SameLine();
        diagram_pane(*panes_[i], pane_w, top_h);
    }
    visible_cells_ = 0;
    for (int i = 0; i < n; ++i)
        visible_cells_ += panes_[i]->texture.visible_texels() + panes_[i]->detail_texture.visible_texels() +
                          panes_[i]->difference_texture.visible_texels();
    float bottom = bottom_h_;
    if (splitter("##split_bottom", false, avail.x, bottom, 120, std::max(120.0f, avail.y - 160))) bottom_h_ = bottom;
    array_panel(arrays_w_, bottom_h_);
    ImGui::SameLine(0, 0);
    splitter("##split_arrays", true, bottom_h_, arrays_w_, 160, std::max(160.0f, avail.x - 220));
    ImGui::SameLine(0, 0);
    bottom_right_panel(avail.x - arrays_w_ - split, bottom_h_);
    ImGui::EndGroup();
    ImGui::End();
}

namespace {

// A combo box over one of the view options' choice tables; true when the user picked another.
// The tables' names are string literals, so their data() is NUL-terminated.
template <class E, std::size_t N>
bool choice_combo(const char* label, const EnumChoice<E> (&table)[N], E& value, float width) {
    std::array<const char*, N> names{};
    int at = 0;
    for (std::size_t i = 0; i < N; ++i) {
        names[i] = table[i].name.data();
        if (table[i].value == value) at = static_cast<int>(i);
    }
    ImGui::SetNextItemWidth(width);
    const std::string shown = label_for_next_widget(label, frame_width_for(names[at], true));
    if (!ImGui::Combo(shown.c_str(), &at, names.data(), static_cast<int>(N))) return false;
    value = table[at].value;
    return true;
}

}  // namespace

void App::view_options() {
    // As `cachesim diagram --aggregate / --colour-by / --miss-rate`.
    choice_combo("aggregate", viz::kAggregateChoices, options_.aggregate, 110);
    note_widget("aggregate");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("what a texel standing for several cells shows (zoomed out):\n"
                          "density: its misses per cell on a log ramp (misses stay visible)\n"
                          "any-miss: a fetch wins over a hit\npriority: a hit wins (hides the misses beside it)");
    bool gpu = false;
    for (int i = 0; i < (compare_ ? 2 : 1); ++i) gpu |= panes_[i]->current && panes_[i]->current->input.gpu_model;
    ImGui::BeginDisabled(!gpu);
    choice_combo("colour by", viz::kColourByChoices, options_.colour_by, 90);
    note_widget("colour_by");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("GPU runs: what else colours the cells\nstate: the state colours only\n"
                          "sm: accessed cells by the SM that accessed them\n"
                          "source: L1 hits by who brought the sector: the same warp,\n"
                          "another warp of its block, or another block on the SM");
    ImGui::EndDisabled();
    same_line_if_room(ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize("miss rate").x);
    ImGui::Checkbox("miss rate", &options_.miss_rate_strip);
    note_widget("miss_rate_strip");
}

bool App::splitter(const char* id, bool vertical, float length, float& size, float min_size, float max_size) {
    // A vertical bar is dragged along x (it sizes what is left of it); a horizontal one along y
    // (it sizes what is below it).
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const ImVec2 extent = vertical ? ImVec2(6, std::max(1.0f, length)) : ImVec2(std::max(1.0f, length), 6);
    ImGui::InvisibleButton(id, extent);
    const bool active = ImGui::IsItemActive();
    if (ImGui::IsItemHovered() || active) ImGui::SetMouseCursor(vertical ? ImGuiMouseCursor_ResizeEW : ImGuiMouseCursor_ResizeNS);
    const ImU32 colour = active ? IM_COL32(80, 120, 200, 255) : IM_COL32(190, 190, 190, 255);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    if (vertical) dl->AddLine(ImVec2(at.x + 3, at.y), ImVec2(at.x + 3, at.y + extent.y), colour, 2);
    else dl->AddLine(ImVec2(at.x, at.y + 3), ImVec2(at.x + extent.x, at.y + 3), colour, 2);
    if (!active) return false;
    const ImGuiIO& io = ImGui::GetIO();
    const float delta = vertical ? io.MouseDelta.x : -io.MouseDelta.y;
    if (delta == 0) return false;
    size = std::clamp(size + delta, min_size, max_size);
    return true;
}

}  // namespace cachesim::gui
