// One pane's spatial-temporal diagram: header, cells, axes, and panning / zooming / tooltip.
#include "apps/cacheviz/app.hpp"
#include "apps/cacheviz/text_wrap.hpp"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "apps/cacheviz/cell_tooltip.hpp"
#include "apps/cacheviz/imgui_color.hpp"
#include "viz/cell_colouring.hpp"
#include "viz/notes.hpp"
#include "viz/render.hpp"

namespace cachesim::gui {

namespace {

// A progress bar as wide as the line allows, left of its Cancel button, labelled with the first of
// `forms` (longest first) that fits inside it, and the longest in a tooltip; true when Cancel
// was clicked. The bar and the label drawn land in `shown` for --state.
bool progress_bar(double fraction, const std::vector<std::string>& forms, const char* cancel_id, const std::string& pane,
                  std::vector<std::pair<std::string, std::array<float, 4>>>& shown) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float cancel_w = frame_width_for("Cancel");
    const float bar_w = std::max(1.0f, ImGui::GetContentRegionAvail().x - cancel_w - style.ItemSpacing.x);
    ImGui::ProgressBar(static_cast<float>(fraction), ImVec2(bar_w, 0), "");  // "": ImGui would cut its own text at the ends
    const ImVec2 at = ImGui::GetItemRectMin(), size = ImGui::GetItemRectSize();
    const std::string label = first_that_fits(forms, size.x - 2 * style.FramePadding.x);
    const ImVec2 text_at(at.x + style.FramePadding.x, at.y + style.FramePadding.y);
    ImGui::GetWindowDrawList()->AddText(text_at, ImGui::GetColorU32(ImGuiCol_Text), label.c_str());
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", forms.front().c_str());
    shown.push_back({"progress_bar " + pane, {at.x, at.y, size.x, size.y}});
    shown.push_back({"progress_label " + pane + "|" + label + "|" + forms.front(),
                     {text_at.x, text_at.y, ImGui::CalcTextSize(label.c_str()).x, ImGui::GetTextLineHeight()}});
    ImGui::SameLine();
    const bool cancel = ImGui::Button(cancel_id);
    const ImVec2 cancel_at = ImGui::GetItemRectMin(), cancel_size = ImGui::GetItemRectSize();
    shown.push_back({"progress_cancel " + pane, {cancel_at.x, cancel_at.y, cancel_size.x, cancel_size.y}});
    return cancel;
}

}  // namespace

// The header's second line: the run's progress, the deep zoom's, or what the cells show.
void App::detail_status(Pane& pane) {
    if (pane.job) {
        if (progress_bar(pane.job->progress(), {"simulating..."}, "Cancel", pane.name, widgets_)) pane.retire(pane.job);
        return;
    }
    const auto u = [](std::uint64_t v) { return viz::thousands(v); };
    if (pane.detail_job) {
        const viz::DetailWindow& w = pane.detail_job_window;
        const std::string steps = "steps " + u(w.first_step) + "-" + u(w.step_end() - 1);
        const std::string lines = "lines " + u(w.first_row) + "-" + u(w.row_end() - 1);
        const std::vector<std::string> forms{"zooming in: re-simulating " + steps + ", " + lines + " at full resolution",
                                             "zooming in: " + steps + ", " + lines, "zooming in: " + steps, "zooming in..."};
        if (progress_bar(pane.detail_job->progress(), forms, "Cancel##detail", pane.name, widgets_)) {
            pane.detail_declined = w;
            pane.retire(pane.detail_job);
        }
        return;
    }
    ImGui::AlignTextToFramePadding();
    const auto wrapped = [](const std::string& text) {
        ImGui::TextDisabled("%s", wrap_at_spaces(text, ImGui::GetContentRegionAvail().x).c_str());
    };
    const viz::Diagram* d = pane.current ? pane.current->diagram.get() : nullptr;
    if (pane.detail) {
        const viz::DetailWindow& w = pane.detail_window;
        wrapped("one step x one line per cell in steps " + u(w.first_step) + "-" + u(w.step_end() - 1) + ", lines " +
                u(w.first_row) + "-" + u(w.row_end() - 1));
    } else if (d && !d->exact()) {
        wrapped("a cell covers " + u(d->steps_per_column()) + " steps x " + u(d->rows_per_bucket()) +
                " lines; zoom in for single steps and lines");
    } else {
        ImGui::TextUnformatted("");
    }
}

void App::diagram_pane(Pane& pane, float width, float height) {
    // The header's height of each pane in the last frame, kept in the window's storage: in
    // compare mode both panes' cells start below the taller header.
    ImGuiStorage* header_heights = ImGui::GetStateStorage();
    const ImGuiID own_header = ImGui::GetID(("header" + pane.name).c_str());
    const ImGuiID other_header = ImGui::GetID(&pane == panes_[0].get() ? ("header" + panes_[1]->name).c_str() : ("header" + panes_[0]->name).c_str());
    ImGui::BeginChild(("pane" + pane.name).c_str(), ImVec2(width, height), true, ImGuiWindowFlags_NoScrollbar);
    {
        const ImVec2 at = ImGui::GetWindowPos(), min = ImGui::GetWindowContentRegionMin(), max = ImGui::GetWindowContentRegionMax();
        widgets_.push_back({"diagram_pane " + pane.name, {at.x + min.x, at.y + min.y, max.x - min.x, max.y - min.y}});
    }
    // Header: the configuration shown, hit rates, progress. While a new configuration
    // re-simulates, the diagram and counters shown are the previous run's: say so. Its lines
    // wrap at spaces (no number split), not cut at the pane's edge.
    const float header_top = ImGui::GetCursorPosY();
    const auto wrapped = [](const ImVec4& colour, const std::string& text) {
        ImGui::TextColored(colour, "%s", wrap_at_spaces(text, ImGui::GetContentRegionAvail().x).c_str());
    };
    const bool stale = pane.stale();
    const auto describe = [](const WorkloadSpec& w, const RecordedTrace* trace, bool gpu, const GpuConfig& g) {
        const std::uint32_t block = trace ? trace->threads_per_block() : g.block;  // a trace replays its own blocks
        return describe_subject(w, trace) + (gpu ? ", GPU " + g.name + ", block " + std::to_string(block) : std::string());
    };
    if (stale) {
        wrapped(ImVec4(0.75f, 0.35f, 0.0f, 1), pane.name + ": PREVIOUS RUN shown (" +
                                                   (pane.job ? "simulating the new configuration" : "the new configuration failed") + ")");
        wrapped(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled),
                "was: " + describe(pane.current->input.workload, pane.current->input.trace.get(), pane.current->input.gpu_model,
                                   pane.current->input.gpu));
    } else {
        wrapped(ImGui::GetStyleColorVec4(ImGuiCol_Text), pane.name + ": " + describe(pane.config.workload, pane.config.trace.get(),
                                                                                    pane.config.model == cli::ModelKind::gpu, pane.config.gpu));
    }
    if (pane.current && !pane.current->result.levels.empty()) {
        std::string rates;
        for (const LevelStats& st : pane.current->result.levels) {
            char buf[64];
            std::snprintf(buf, sizeof buf, "%s%s hit rate %.2f%%", rates.empty() ? "" : ", ", st.name.c_str(), 100.0 * st.hit_rate());
            rates += buf;
        }
        wrapped(stale ? ImVec4(0.5f, 0.5f, 0.5f, 1) : ImVec4(0.1f, 0.45f, 0.1f, 1), rates + (stale ? " (previous run)" : ""));
    } else {
        ImGui::TextUnformatted("");
    }
    detail_status(pane);
    const float header_h = ImGui::GetCursorPosY() - header_top;
    header_heights->SetFloat(own_header, header_h);
    if (compare_) ImGui::SetCursorPosY(ImGui::GetCursorPosY() + std::max(0.0f, header_heights->GetFloat(other_header) - header_h));
    const float label_w = 78, axis_h = 40;
    // The miss-rate strip sits between the cells and the time axis.
    const bool strip = options_.miss_rate_strip && pane.current && pane.current->diagram && !pane.current->diagram->miss_rates().empty();
    const float strip_h = strip ? 46 : 0, strip_gap = strip ? 8 : 0;
    ImVec2 origin = ImGui::GetCursorScreenPos();
    const float w = std::max(10.0f, ImGui::GetContentRegionAvail().x - label_w);
    const float h = std::max(10.0f, ImGui::GetContentRegionAvail().y - axis_h - strip_h - strip_gap);
    const float axis_y = origin.y + h + strip_h + strip_gap;
    const ImVec2 p0(origin.x + label_w, origin.y);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    viz::gui::Viewport vp{view_.t0, view_.t1, view_.r0, view_.r1, static_cast<int>(w), static_cast<int>(h)};
    update_detail(pane, viz::ViewExtent{view_.t0, view_.t1, view_.r0, view_.r1, vp.width, vp.height});
    dl->AddRectFilled(p0, ImVec2(p0.x + w, p0.y + h), IM_COL32(255, 255, 255, 255));
    widgets_.push_back({"diagram_cells " + pane.name, {p0.x, p0.y, w, h}});
    pane.texels_written_last_frame = 0;
    const viz::Diagram* d = pane.current ? pane.current->diagram.get() : nullptr;
    const viz::Diagram* exact = pane.detail ? pane.detail->diagram.get() : nullptr;
    const bool difference = show_difference_ && compare_ && &pane == panes_[1].get() && d && panes_[0]->current &&
                            viz::gui::DiagramTexture::same_shape(*d, *panes_[0]->current->diagram);
    const int index = &pane == panes_[0].get() ? 0 : 1;
    row_labels_[index].clear();
    time_labels_[index].clear();
    {
        Placement& at = placements_[index];
        at = {p0.x, p0.y, w, h, view_.t0, view_.t1, view_.r0, view_.r1, 0, 0, std::nullopt};
        if (d) at.steps_per_column = d->steps_per_column(), at.rows_per_bucket = d->rows_per_bucket();
        if (exact) at.detail = pane.detail_window;
    }
    if (d) {
        dl->PushClipRect(p0, ImVec2(p0.x + w, p0.y + h), true);
        if (difference) {
            if (pane.difference_texture.diagram() != pane.current->diagram)
                pane.difference_texture.set_difference(pane.current->diagram, panes_[0]->current->diagram);
            pane.texels_written_last_frame = pane.difference_texture.update(vp);
            pane.difference_texture.draw(dl, p0.x, p0.y, vp);
        } else {
            pane.texture.set_colouring(options_.aggregate, options_.colour_by);
            pane.texels_written_last_frame = pane.texture.update(vp);
            pane.texture.draw(dl, p0.x, p0.y, vp);
        }
        if (exact && !difference) {  // the full-resolution window over the coarse cells
            pane.detail_texture.set_colouring(options_.aggregate, options_.colour_by);
            pane.texels_written_last_frame += pane.detail_texture.update(vp);
            pane.detail_texture.draw(dl, p0.x, p0.y, vp);
        }
        // Array group separators.
        for (const viz::RowGroup& g : d->layout().groups()) {
            if (g.first_row == 0) continue;
            const float y = std::floor(p0.y + static_cast<float>((g.first_row - view_.r0) * h / (view_.r1 - view_.r0))) + 0.5f;
            dl->AddLine(ImVec2(p0.x, y), ImVec2(p0.x + w, y), IM_COL32(90, 90, 90, 255), 1.0f);
        }
        // Playhead.
        const float px = p0.x + static_cast<float>((view_.playhead + 0.5 - view_.t0) * w / (view_.t1 - view_.t0));
        dl->AddLine(ImVec2(px, p0.y), ImVec2(px, p0.y + h), IM_COL32(0, 170, 60, 255), 2.0f);
        dl->PopClipRect();
        if (stale) {  // grey the previous run's cells
            dl->AddRectFilled(p0, ImVec2(p0.x + w, p0.y + h), IM_COL32(128, 128, 128, 110));
            dl->AddText(ImVec2(p0.x + 8, p0.y + 6), IM_COL32(120, 50, 0, 255), wrap_at_spaces("previous run", w - 16).c_str());
        }
        row_labels(*d, origin.x, p0.x, p0.y, h, row_labels_[index], pane.name);
        dl->AddText(ImGui::GetFont(), ImGui::GetFontSize() * 0.85f, ImVec2(origin.x + 2, axis_y + 4), IM_COL32(60, 60, 60, 255),
                    "lines by\narray");
        if (strip) miss_rate_strip(pane, p0.x, p0.y + h + strip_gap, w, strip_h);
        time_axis(p0.x, axis_y, w, time_labels_[index]);
        time_axis_title(*pane.current, p0.x, axis_y + 21, w, pane.name);
    } else {
        const char* message = pane.config_error.empty() ? "simulating..." : "configuration error (see the panel)";
        dl->AddText(ImVec2(p0.x + 10, p0.y + 10), IM_COL32(80, 80, 80, 255), wrap_at_spaces(message, w - 20).c_str());
    }
    dl->AddRect(ImVec2(p0.x - 1, p0.y - 1), ImVec2(p0.x + w + 1, p0.y + h + 1), IM_COL32(60, 60, 60, 255));  // outside the cells

    // Interaction: drag pans, wheel zooms (Ctrl: time only, Shift: lines only), right click or
    // double click moves the playhead, hovering shows a tooltip.
    ImGui::SetCursorScreenPos(p0);
    ImGui::InvisibleButton("diagram", ImVec2(w, h), ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight);
    ImGuiIO& io = ImGui::GetIO();
    const double spx = (view_.t1 - view_.t0) / w, rpx = (view_.r1 - view_.r0) / h;
    if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 0.0f)) {
        view_.t0 -= io.MouseDelta.x * spx;
        view_.t1 -= io.MouseDelta.x * spx;
        view_.r0 -= io.MouseDelta.y * rpx;
        view_.r1 -= io.MouseDelta.y * rpx;
        user_moved_view();
        clamp_view();
    }
    if (ImGui::IsItemHovered() && d) {
        const double mt = view_.t0 + (io.MousePos.x - p0.x) * spx;
        const double mr = view_.r0 + (io.MousePos.y - p0.y) * rpx;
        if (io.MouseWheel != 0) {
            const double f = std::pow(0.85, io.MouseWheel);
            const bool time_axis = !io.KeyShift, row_axis = !io.KeyCtrl;
            if (time_axis) { view_.t0 = mt - (mt - view_.t0) * f; view_.t1 = mt + (view_.t1 - mt) * f; }
            if (row_axis) { view_.r0 = mr - (mr - view_.r0) * f; view_.r1 = mr + (view_.r1 - mr) * f; }
            user_moved_view();
            clamp_view();
        }
        if (ImGui::IsMouseClicked(ImGuiMouseButton_Right) || ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left))
            view_.playhead = std::min<std::uint64_t>(static_cast<std::uint64_t>(std::max(0.0, mt)), d->steps() ? d->steps() - 1 : 0);
        const std::uint64_t step = static_cast<std::uint64_t>(std::max(0.0, mt));
        const std::uint64_t row = static_cast<std::uint64_t>(std::max(0.0, mr));
        if (step < d->first_step() + d->steps() && row < d->rows()) {
            hover_history(pane, step, row);
            const viz::LineHistory* history = nullptr;
            if (pane.hover_job && pane.hover_job->done() && pane.hover_job->contents() && pane.hover_job->contents()->focus &&
                pane.hover_job->request().step == step)
                history = &*pane.hover_job->contents()->focus;
            const JobOutput* other = difference ? panes_[0]->current.get() : nullptr;
            cell_tooltip(*pane.current, *d, exact, step, row, history, pane.hover_job != nullptr, other);
        }
    }
    ImGui::EndChild();
}

namespace {

// The top of a box `height` high centred on `y`, moved as little as keeps it within [lo, hi].
float top_within(float y, float height, float lo, float hi) { return std::max(lo, std::min(y - height / 2, hi - height)); }

}  // namespace

void App::row_labels(const viz::Diagram& d, float margin_left, float left, float top, float h, std::vector<LabelShown>& shown,
                     const std::string& pane) {
    // As in the PNG: a label that would touch the one drawn above it (rows that share a line, or
    // the last row of one array beside the first of the next) is left out, and every label stays
    // whole within the margin's clip rectangle, a couple of pixels above and below the cells.
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float clip_top = top - 2, clip_bottom = top + h + 2;
    dl->PushClipRect(ImVec2(margin_left, clip_top), ImVec2(left, clip_bottom), true);
    const auto y_of = [&](double row) { return top + static_cast<float>((row - view_.r0) * h / (view_.r1 - view_.r0)); };
    const float small = ImGui::GetFontSize() * 0.85f;
    float last_bottom = -std::numeric_limits<float>::infinity();
    float last_name_bottom = -std::numeric_limits<float>::infinity();
    for (const viz::RowGroup& g : d.layout().groups()) {
        // An array's name at the middle of its rows in view; none for an array out of view, whose
        // name would otherwise sit at the view's edge over the name of the array there.
        const double first = std::max(static_cast<double>(g.first_row), view_.r0);
        const double end = std::min(static_cast<double>(g.first_row + g.lines), view_.r1);
        if (end <= first) continue;
        const float name_h = ImGui::CalcTextSize(g.array.name.c_str()).y;
        const float name_y = std::max(top_within(y_of((first + end) / 2), name_h, clip_top, clip_bottom), last_name_bottom);
        if (name_y + name_h <= clip_bottom) {
            dl->AddText(ImVec2(margin_left + 2, name_y), IM_COL32(20, 20, 20, 255), g.array.name.c_str());
            last_name_bottom = name_y + name_h;
            widgets_.push_back({"array_name " + pane + "|" + g.array.name,
                                {margin_left + 2, name_y, ImGui::CalcTextSize(g.array.name.c_str()).x, name_h}});
        }
        const ArrayInfo& a = g.array;
        if (a.width == 0 || a.height <= 1) continue;
        const std::uint64_t row_bytes = static_cast<std::uint64_t>(a.width) * a.elem_bytes;
        const double px_per_y = static_cast<double>(row_bytes) / d.layout().line_bytes() * h / (view_.r1 - view_.r0);
        const std::uint64_t every = std::max<std::uint64_t>(1, viz::nice_tick(a.height, std::max(1, static_cast<int>(a.height * px_per_y / 16))));
        for (std::uint64_t yy = 0; yy < a.height; yy += every) {
            const double row = static_cast<double>(g.first_row) + static_cast<double>((a.base + yy * row_bytes) / d.layout().line_bytes() - g.first_line);
            if (row < view_.r0 || row > view_.r1) continue;
            const float y = y_of(row);
            dl->AddLine(ImVec2(left - 4, y), ImVec2(left - 1, y), IM_COL32(60, 60, 60, 255));
            const std::string label = "y=" + std::to_string(yy);
            const ImVec2 full = ImGui::CalcTextSize(label.c_str());
            const float lw = full.x * 0.85f, lh = full.y * 0.85f;
            const LabelShown box{label, std::floor(left - 6 - lw), std::floor(top_within(y, lh, clip_top, clip_bottom)), lw, lh};
            if (box.y < last_bottom) continue;
            dl->AddText(ImGui::GetFont(), small, ImVec2(box.x, box.y), IM_COL32(90, 90, 90, 255), label.c_str());
            last_bottom = box.y + box.h;
            shown.push_back(box);
        }
    }
    dl->PopClipRect();
}

void App::time_axis_title(const JobOutput& run, float x, float y, float w, const std::string& pane) {
    // Under the cells only (the margin on the left holds "lines by array"): the longest form that
    // fits there on one line, the whole title in a tooltip.
    using Forms = std::vector<std::string>;
    const Forms forms = !run.input.gpu_model && run.input.trace
                            ? Forms{"time step (the recorded threads in launch order)", "time step (the recorded threads)", "time step"}
                        : !run.input.gpu_model ? Forms{"time step (work items in schedule order)", "time step (work items)", "time step"}
                        : run.input.gpu.timeline ? Forms{"time step (requests, in the measured order)", "time step (requests)", "time step"}
                                                 : Forms{"time step (scheduling rounds: every SM with work issues one request)",
                                                         "time step (scheduling rounds)", "time step"};
    const std::string title = first_that_fits(forms, w);
    const ImVec2 size = ImGui::CalcTextSize(title.c_str());
    const ImVec2 at(std::floor(x + (w - size.x) / 2), y);
    ImGui::GetWindowDrawList()->AddText(at, IM_COL32(20, 20, 20, 255), title.c_str());
    if (title != forms.front() && ImGui::IsWindowHovered() && ImGui::IsMouseHoveringRect(at, ImVec2(at.x + size.x, at.y + size.y)))
        ImGui::SetTooltip("%s", forms.front().c_str());
    widgets_.push_back({"axis_title " + pane + "|" + title + "|" + forms.front(), {at.x, at.y, size.x, size.y}});
}

void App::time_axis(float x, float y, float w, std::vector<LabelShown>& shown) {
    // The PNG's tick spacing. Each label is centred on its tick; the first and last move inward
    // as far as keeps them on the axis, and a label that would touch the one before is left out.
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const double span = view_.t1 - view_.t0;
    const std::uint64_t tick = viz::time_axis_tick(static_cast<std::uint64_t>(std::max(1.0, span)), static_cast<int>(w));
    const float gap = ImGui::CalcTextSize(" ").x;
    float last_right = -std::numeric_limits<float>::infinity();
    for (std::uint64_t t = static_cast<std::uint64_t>(std::ceil(view_.t0 / tick)) * tick; t <= view_.t1; t += tick) {
        const float tx = x + static_cast<float>((t - view_.t0) * w / span);
        dl->AddLine(ImVec2(tx, y), ImVec2(tx, y + 4), IM_COL32(60, 60, 60, 255));
        const std::string label = viz::thousands(t);
        const ImVec2 size = ImGui::CalcTextSize(label.c_str());
        const float left = std::floor(std::max(x, std::min(tx - size.x / 2, x + w - size.x)));
        if (left < last_right + gap) continue;
        dl->AddText(ImVec2(left, y + 5), IM_COL32(60, 60, 60, 255), label.c_str());
        last_right = left + size.x;
        shown.push_back({label, left, y + 5, size.x, size.y});
    }
}

void App::miss_rate_strip(Pane& pane, float x, float y, float w, float h) {
    // Per pixel column: each level's misses / read lookups over the steps the column shows, as
    // the PNG's strip (its scale and colours come from viz/cell_colouring.hpp). O(width + the
    // series' blocks in view) per frame; the series holds at most 16,384 blocks.
    const viz::Diagram& d = *pane.current->diagram;
    StripShown& shown = strips_[&pane == panes_[0].get() ? 0 : 1];
    shown = {x, y, w, h, 0, {}};
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(ImVec2(x, y), ImVec2(x + w, y + h), IM_COL32(255, 255, 255, 255));
    for (int q = 1; q < 4; ++q)
        dl->AddLine(ImVec2(x, std::floor(y + h * q / 4) + 0.5f), ImVec2(x + w, std::floor(y + h * q / 4) + 0.5f), IM_COL32(225, 225, 225, 255));
    const int columns = std::max(1, static_cast<int>(w));
    const double span = view_.t1 - view_.t0;
    const auto steps_of = [&](int px) {
        const auto at = [&](int p) { return static_cast<std::uint64_t>(std::max(0.0, view_.t0 + span * p / columns)); };
        const std::uint64_t t0 = at(px);
        return std::pair<std::uint64_t, std::uint64_t>{t0, std::max(t0 + 1, at(px + 1))};
    };
    const std::size_t levels = std::min<std::size_t>(d.miss_rates().size(), 2);
    std::vector<std::vector<double>> rates(levels, std::vector<double>(static_cast<std::size_t>(columns), -1.0));
    double highest = 0;
    for (std::size_t l = 0; l < levels; ++l) {
        for (int px = 0; px < columns; ++px) {
            const auto [t0, t1] = steps_of(px);
            const std::uint64_t first = d.first_step();
            const auto sum = d.miss_rates()[l].sum(t0 - std::min(t0, first), t1 - std::min(t1, first));
            if (sum.lookups == 0) continue;
            rates[l][px] = sum.rate();
            highest = std::max(highest, sum.rate());
        }
        const std::uint64_t a = steps_of(0).first, b = steps_of(columns - 1).second;
        const viz::MissRateSeries::Sum total = d.miss_rates()[l].sum(a - std::min(a, d.first_step()), b - std::min(b, d.first_step()));
        shown.levels.push_back({d.miss_rates()[l].name(), total.rate()});
    }
    const double top = viz::strip_top_rate(highest);
    shown.top_rate = top;
    for (std::size_t l = 0; l < levels; ++l) {
        const ImU32 colour = to_imgui(viz::strip_level_colour(l));
        float last = -1;
        for (int px = 0; px < columns; ++px) {
            if (rates[l][px] < 0) {
                last = -1;
                continue;
            }
            const float yy = y + h - 1 - static_cast<float>(std::min(1.0, rates[l][px] / top) * (h - 2));
            if (last >= 0) dl->AddLine(ImVec2(x + px - 0.5f, last), ImVec2(x + px + 0.5f, yy), colour, 1.5f);
            else dl->AddRectFilled(ImVec2(x + px, yy - 0.5f), ImVec2(x + px + 1, yy + 1), colour);
            last = yy;
        }
    }
    dl->AddRect(ImVec2(x - 1, y - 1), ImVec2(x + w + 1, y + h + 1), IM_COL32(60, 60, 60, 255));
    char label[32];
    std::snprintf(label, sizeof label, "%g%%", 100 * top);
    const float font = ImGui::GetFontSize() * 0.85f;
    dl->AddText(ImGui::GetFont(), font, ImVec2(x - 6 - ImGui::CalcTextSize(label).x * 0.85f, y - 2), IM_COL32(60, 60, 60, 255), label);
    dl->AddText(ImGui::GetFont(), font, ImVec2(x - 6 - ImGui::CalcTextSize("0%").x * 0.85f, y + h - font), IM_COL32(60, 60, 60, 255), "0%");
    dl->AddText(ImGui::GetFont(), font, ImVec2(x - 74, y + h / 2 - font / 2), IM_COL32(60, 60, 60, 255), "miss rate");
}

}  // namespace cachesim::gui
