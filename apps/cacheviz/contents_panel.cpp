// The cache-contents panel: what each level holds after the playhead's step, as sets x ways
// (the line, its array and elements, valid / dirty, its age in the policy, the next victim),
// with the step's hits, fills and victims highlighted (viz/cache_contents.hpp).
#include "apps/cacheviz/app.hpp"
#include "apps/cacheviz/text_wrap.hpp"

#include <imgui.h>

#include <map>

#include "apps/cacheviz/imgui_color.hpp"
#include "viz/notes.hpp"
#include "viz/render.hpp"

namespace cachesim::gui {

namespace {

constexpr ImU32 kHitRow = IM_COL32(20, 20, 20, 70), kFillRow = IM_COL32(228, 26, 28, 90), kVictimCell = IM_COL32(255, 200, 0, 200);

// "in (4..7, 2)": the elements of the line's first-level row, or the line number alone.
std::string line_elements(const viz::RowLayout& layout, const CacheConfig& level, std::uint64_t line) {
    // The diagram's rows are first-level lines; a second-level line covers one or more of them.
    const std::uint64_t first_byte = line * level.line_bytes;
    const std::uint64_t row = layout.row_of_address(first_byte);
    if (row == viz::kNoRow) return "(padding)";
    const viz::RowInfo info = layout.describe(row);
    if (!info.group) return "";
    const std::uint32_t per_line = std::max<std::uint32_t>(1, level.line_bytes / info.group->array.elem_bytes);
    const std::uint32_t last_x = std::min<std::uint32_t>(info.x + per_line - 1, info.group->array.width ? info.group->array.width - 1 : 0);
    if (level.line_bytes > layout.line_bytes() || last_x == info.x)
        return info.group->array.name + " (" + std::to_string(info.x) + ", " + std::to_string(info.y) + ")" +
               (level.line_bytes > layout.line_bytes() ? " ..." : "");
    return info.group->array.name + " (" + std::to_string(info.x) + ".." + std::to_string(last_x) + ", " + std::to_string(info.y) + ")";
}

}  // namespace

void App::contents_panel() {
    if (compare_) {
        ImGui::RadioButton("A##contents", &contents_pane_, 0);
        ImGui::SameLine();
        ImGui::RadioButton("B##contents", &contents_pane_, 1);
        ImGui::SameLine();
    } else {
        contents_pane_ = 0;
    }
    Pane& pane = *panes_[contents_pane_];
    if (!pane.current) {
        ImGui::TextDisabled("waiting for the run...");
        return;
    }
    if (pane.current->input.gpu_model) {
        ImGui::TextWrapped("The cache contents are shown for the thread model: in the GPU model every SM has its own L1.");
        return;
    }
    const ContentsJob* shown = pane.contents_shown.get();
    if (!shown || !shown->contents()) {
        ImGui::TextDisabled("%s", shown && !shown->error().empty() ? shown->error().c_str() : "computing the contents at the playhead...");
        return;
    }
    const viz::CacheContents& c = *shown->contents();
    const auto u = [](std::uint64_t v) { return viz::thousands(v); };
    // Above the scrolling region: wrapped at spaces rather than cut at the panel's edge.
    ImGui::BeginGroup();
    ImGui::TextUnformatted(wrap_at_spaces(pane.name + " after step " + u(c.step) + (pane.contents_job || pane.contents_coming() ? " (computing the new playhead...)" : ""),
                                          ImGui::GetContentRegionAvail().x)
                               .c_str());
    ImGui::EndGroup();
    const char* key = "hit / filled / next victim";
    if (ImGui::GetItemRectMax().x + 14 + ImGui::CalcTextSize(key).x <= ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x)
        ImGui::SameLine(0, 14);
    ImGui::TextDisabled("%s", wrap_at_spaces(key, ImGui::GetContentRegionAvail().x).c_str());
    const viz::RowLayout& layout = pane.current->diagram->layout();
    ImGui::BeginChild("contents", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    for (const viz::LevelContents& level : c.levels) {
        const std::string policy(policy_name(level.config.policy));
        ImGui::Text("%s: %u set%s x %u ways, %s lines, %s; %s valid", level.name.c_str(), level.sets, level.sets == 1 ? "" : "s",
                    level.ways, u(level.config.line_bytes).c_str(), policy.c_str(), u(level.valid_lines()).c_str());
        // What the step did, per (set, way): the last event wins (an eviction then its fill: fill).
        std::map<std::pair<std::uint32_t, std::uint32_t>, const viz::StepEvent*> events;
        std::vector<const viz::StepEvent*> evictions;
        for (const viz::StepEvent& e : level.step_events) {
            events[{e.set, e.way}] = &e;
            if (e.event == viz::WayEvent::evicted) evictions.push_back(&e);
        }
        for (const viz::StepEvent* e : evictions)
            ImGui::TextColored(ImVec4(0.7f, 0.1f, 0.1f, 1), "step %s evicted line %s (%s) from set %u, way %u", u(c.step).c_str(),
                               u(e->line).c_str(), line_elements(layout, level.config, e->line).c_str(), e->set, e->way);
        const char* age_name = level.config.policy == PolicyKind::lru ? "LRU age" : level.config.policy == PolicyKind::fifo ? "FIFO age" : "age";
        const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
        if (ImGui::BeginTable(("ways" + level.name).c_str(), 8, flags)) {
            ImGui::TableSetupColumn("set");
            ImGui::TableSetupColumn("way");
            ImGui::TableSetupColumn("V");
            ImGui::TableSetupColumn("D");
            ImGui::TableSetupColumn("line");
            ImGui::TableSetupColumn("elements");
            ImGui::TableSetupColumn(age_name);
            ImGui::TableSetupColumn("at this step");
            ImGui::TableHeadersRow();
            // When the step changes, scroll to the next victim of the set the step used last (the
            // first level's), so that what the next miss does is in view.
            int scroll_row = -1;
            if (&level == &c.levels.front() && contents_scrolled_step_ != c.step && !level.step_events.empty()) {
                const std::uint32_t set = level.step_events.back().set;
                if (const auto victim = level.next_victim(set)) scroll_row = static_cast<int>(set * level.ways + *victim);
                contents_scrolled_step_ = c.step;
            }
            ImGuiListClipper clipper;
            const int rows = static_cast<int>(std::min<std::uint64_t>(static_cast<std::uint64_t>(level.sets) * level.ways, 1u << 30));
            clipper.Begin(rows);
            if (scroll_row >= 0) clipper.ForceDisplayRangeByIndices(scroll_row, scroll_row + 1);
            while (clipper.Step())
                for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
                    const std::uint32_t set = static_cast<std::uint32_t>(r / level.ways), way = static_cast<std::uint32_t>(r % level.ways);
                    const viz::WayContents wc = level.way(set, way);
                    ImGui::TableNextRow();
                    const auto it = events.find({set, way});
                    std::string note;
                    if (it != events.end()) {
                        const viz::WayEvent e = it->second->event;
                        if (e != viz::WayEvent::evicted) {
                            // The diagram's colours, light enough to read the row: grey for a hit
                            // (black there), red for a fill.
                            ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, e == viz::WayEvent::hit ? kHitRow : kFillRow);
                            note = e == viz::WayEvent::hit ? "hit" : "filled (miss)";
                        } else {
                            note = "emptied";
                        }
                    }
                    if (level.next_victim(set) == way) {
                        ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, kVictimCell, 7);
                        note += note.empty() ? "next victim" : ", next victim";
                    }
                    ImGui::TableSetColumnIndex(0);
                    ImGui::Text("%u", set);
                    ImGui::TableSetColumnIndex(1);
                    ImGui::Text("%u", way);
                    ImGui::TableSetColumnIndex(2);
                    ImGui::TextUnformatted(wc.valid ? "1" : "0");
                    ImGui::TableSetColumnIndex(3);
                    ImGui::TextUnformatted(wc.valid && wc.dirty ? "1" : "0");
                    if (wc.valid) {
                        ImGui::TableSetColumnIndex(4);
                        ImGui::TextUnformatted(u(wc.line).c_str());
                        ImGui::TableSetColumnIndex(5);
                        ImGui::TextUnformatted(line_elements(layout, level.config, wc.line).c_str());
                        ImGui::TableSetColumnIndex(6);
                        if (wc.age != viz::kUnknownAge) ImGui::Text("%u", wc.age);
                        else ImGui::TextDisabled("-");
                    }
                    ImGui::TableSetColumnIndex(7);
                    ImGui::TextUnformatted(note.c_str());
                    if (r == scroll_row) ImGui::SetScrollHereY(0.5f);
                }
            ImGui::EndTable();
        }
        if (!level.ages_known)
            ImGui::TextDisabled("%s decides the victim of a full set with state not shown here (tree bits, random stream, future)", policy.c_str());
        ImGui::Spacing();
    }
    ImGui::EndChild();
}

}  // namespace cachesim::gui
