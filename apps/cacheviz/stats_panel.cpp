// Counters of each pane side by side, the legend and the thesis's analytic items.
#include "apps/cacheviz/app.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "apps/cacheviz/imgui_color.hpp"
#include "traces/schedule.hpp"
#include "viz/analytic.hpp"
#include "viz/notes.hpp"
#include "viz/render.hpp"

namespace cachesim::gui {

void App::bottom_right_panel(float width, float height) {
    ImGui::BeginChild("bottom_right", ImVec2(width, height), true);
    if (ImGui::BeginTabBar("tabs")) {
        bool& first = first_tab_frame_;
        const bool contents_first = first && options_.bottom_tab == "contents";
        if (ImGui::BeginTabItem("Stats", nullptr, first && !contents_first ? ImGuiTabItemFlags_SetSelected : 0)) {
            stats_panel(0, 0);
            ImGui::EndTabItem();
        }
        if (ImGui::BeginTabItem("Cache contents", nullptr, contents_first ? ImGuiTabItemFlags_SetSelected : 0)) {
            contents_panel();
            ImGui::EndTabItem();
        }
        first = false;
        ImGui::EndTabBar();
    }
    ImGui::EndChild();
}

void App::stats_panel(float, float) {
    // One scrolling region for the counters and the analytic items (no scroll inside a scroll);
    // columns fit their text, and a horizontal scroll bar appears rather than cutting labels.
    ImGui::BeginChild("stats", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    const int n = compare_ ? 2 : 1;
    // Legend.
    for (viz::CellState s : viz::kLegendOrder) {
        ImGui::ColorButton(std::string(viz::cell_state_name(s)).c_str(), ImGui::ColorConvertU32ToFloat4(to_imgui(viz::cell_color(s))),
                           ImGuiColorEditFlags_NoTooltip, ImVec2(12, 12));
        ImGui::SameLine();
        ImGui::Text("%s", std::string(viz::cell_state_name(s)).c_str());
        if (s != viz::CellState::fetched_from_l2 && s != viz::CellState::not_cached) ImGui::SameLine(0, 14);
    }
    // Labels and values wrap within their columns rather than being cut.
    if (ImGui::BeginTable("counters", 1 + n, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchSame)) {
        ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, std::min(170.0f, ImGui::GetContentRegionAvail().x * 0.4f));
        for (int i = 0; i < n; ++i)
            ImGui::TableSetupColumn(panes_[i]->stale() ? (panes_[i]->name + " (previous run)").c_str() : panes_[i]->name.c_str());
        ImGui::TableHeadersRow();
        auto row = [&](const char* label, auto value_of) {
            ImGui::TableNextRow();
            ImGui::TableSetColumnIndex(0);
            ImGui::TextWrapped("%s", label);
            for (int i = 0; i < n; ++i) {
                ImGui::TableSetColumnIndex(1 + i);
                const auto& cur = panes_[i]->current;
                if (cur) ImGui::TextWrapped("%s", value_of(*cur).c_str());
            }
        };
        row("schedule", [](const JobOutput& o) { return schedule_name(o.input.workload.schedule); });
        row("model", [](const JobOutput& o) {
            if (!o.input.gpu_model) return std::string("thread");
            return "GPU " + o.input.gpu.name + " (" + viz::thousands(o.rounds) +
                   (o.input.gpu.timeline ? " requests, measured order)" : " rounds)");
        });
        for (std::size_t lvl = 0; lvl < 2; ++lvl) {
            auto level = [lvl](const JobOutput& o) -> const LevelStats* {
                return lvl < o.result.levels.size() ? &o.result.levels[lvl] : nullptr;
            };
            auto num = [&](auto f) {
                return [level, f](const JobOutput& o) { const LevelStats* s = level(o); return s ? viz::thousands(f(*s)) : std::string("-"); };
            };
            const std::string p = lvl == 0 ? "first level " : "second level ";
            row((p + "name").c_str(), [level](const JobOutput& o) { const LevelStats* s = level(o); return s ? s->name : std::string("-"); });
            row("  accesses", num([](const LevelStats& s) { return s.accesses(); }));
            row("  hits", num([](const LevelStats& s) { return s.hits(); }));
            row("  misses", num([](const LevelStats& s) { return s.misses(); }));
            row("  hit rate", [level](const JobOutput& o) {
                const LevelStats* s = level(o);
                char b[32];
                std::snprintf(b, sizeof b, "%.2f%%", s ? 100.0 * s->hit_rate() : 0.0);
                return s ? std::string(b) : std::string("-");
            });
            row("  compulsory", num([](const LevelStats& s) { return s.compulsory; }));
            row("  capacity", num([](const LevelStats& s) { return s.capacity; }));
            row("  conflict", num([](const LevelStats& s) { return s.conflict; }));
            row("  evictions", num([](const LevelStats& s) { return s.evictions; }));
        }
        row("fetches (first level read misses)", [](const JobOutput& o) {
            return o.result.levels.empty() ? std::string("-") : viz::thousands(o.result.levels[0].read_misses);
        });
        row("thesis fetch figure", [](const JobOutput& o) {
            const CacheConfig& c = o.input.hierarchy.l1.enabled() ? o.input.hierarchy.l1 : o.input.hierarchy.l2;
            const auto a = viz::analytic::summarize(o.input.workload, c);
            if (!a.fetch_bound) return std::string("(none for this schedule)");
            const std::uint64_t lines = c.size_bytes / std::max<std::uint32_t>(c.line_bytes, 1);
            const bool sets = c.ways != 0 && c.ways < lines;  // the thesis assumes full associativity
            return std::string(a.fetch_is_estimate ? "~ " : "<= ") + viz::thousands(static_cast<std::uint64_t>(*a.fetch_bound)) +
                   " (" + a.fetch_equation + (sets ? ", fully assoc." : "") + ")";
        });
        row("recommended column width", [](const JobOutput& o) {
            const CacheConfig& c = o.input.hierarchy.l1.enabled() ? o.input.hierarchy.l1 : o.input.hierarchy.l2;
            const auto a = viz::analytic::summarize(o.input.workload, c);
            return a.recommended_column ? std::to_string(*a.recommended_column) : std::string("-");
        });
        row("memory read (bytes)", [](const JobOutput& o) { return viz::thousands(o.result.memory_bytes_read); });
        row("simulation time", [](const JobOutput& o) {
            char b[32];
            std::snprintf(b, sizeof b, "%.3f s", o.seconds);
            return std::string(b);
        });
        ImGui::EndTable();
    }
    // The analytic items of the first pane.
    if (panes_[0]->current) {
        const JobOutput& o = *panes_[0]->current;
        const CacheConfig& c = o.input.hierarchy.l1.enabled() ? o.input.hierarchy.l1 : o.input.hierarchy.l2;
        ImGui::PushTextWrapPos(std::max(ImGui::GetContentRegionAvail().x, 300.0f));
        for (const auto& item : viz::analytic::summarize(o.input.workload, c).items)
            ImGui::TextWrapped("A %s  %s: %.2f  %s", item.equation.c_str(), item.meaning.c_str(), item.value, item.comparison.c_str());
        ImGui::PopTextWrapPos();
    }
    ImGui::EndChild();
}

}  // namespace cachesim::gui
