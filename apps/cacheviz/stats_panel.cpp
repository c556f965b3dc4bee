// Counters of each pane side by side, the legend and the thesis's analytic items.
#include "apps/cacheviz/app.hpp"
#include "apps/cacheviz/text_wrap.hpp"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "apps/cacheviz/imgui_color.hpp"
#include "sim/gpu/known_misses.hpp"
#include "traces/schedule.hpp"
#include "viz/analytic.hpp"
#include "viz/cell_colouring.hpp"
#include "viz/notes.hpp"
#include "viz/render.hpp"

namespace cachesim::gui {

namespace {

// The points of a GPU-model run's L1 hit rate from sectors another block brought, where it counted them.
std::optional<double> other_block_points(const JobOutput& o) {
    if (!o.l1_hit_sources || o.result.levels.empty()) return std::nullopt;
    return o.l1_hit_sources->other_block_points(o.result.levels[0].reads);
}

// Where a GPU-model run lies where the model is known to miss the chip (sim/gpu/known_misses.hpp),
// bounded by its points from other blocks where the run counted them.
std::vector<const KnownMiss*> known_misses_of(const JobOutput& o) {
    const JobInput& in = o.input;
    const std::optional<double> points = other_block_points(o);
    if (!in.trace) return known_misses(&in.workload, in.gpu, points);
    return known_misses(launch_workload(nullptr, in.trace->header.workload), in.gpu, points);
}

}  // namespace

void App::bottom_right_panel(float width, float height) {
    ImGui::BeginChild("bottom_right", ImVec2(width, height), true);
    if (ImGui::BeginTabBar("tabs")) {
        bool& first = first_tab_frame_;
        const bool contents_first = first && options_.bottom_tab == "contents";
        if (ImGui::BeginTabItem("Stats", nullptr, first && options_.bottom_tab == "stats" ? ImGuiTabItemFlags_SetSelected : 0)) {
            stats_panel(0, 0);
            ImGui::EndTabItem();
        }
        if (ImGui::BeginTabItem("Cache contents", nullptr, contents_first ? ImGuiTabItemFlags_SetSelected : 0)) {
            contents_panel();
            ImGui::EndTabItem();
        }
        const bool chart_first = first && options_.bottom_tab == "chart";
        if (ImGui::BeginTabItem("Memory chart", nullptr, chart_first ? ImGuiTabItemFlags_SetSelected : 0)) {
            memory_chart_panel();
            ImGui::EndTabItem();
        }
        first = false;
        ImGui::EndTabBar();
    }
    ImGui::EndChild();
}

const std::vector<StatsRow>& stats_rows() {
    static const std::vector<StatsRow> rows = [] {
        std::vector<StatsRow> v;
        std::string prefix;  // the level that the indented rows belong to
        auto row = [&](const std::string& label, std::function<std::string(const JobOutput&)> value_of) {
            const std::size_t text = label.find_first_not_of(' ');
            v.push_back({label, text == 0 ? label : prefix + label.substr(text), std::move(value_of)});
        };
        row("schedule", [](const JobOutput& o) {
            return o.input.trace ? std::string("the trace's launch order") : schedule_name(o.input.workload.schedule);
        });
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
            prefix = lvl == 0 ? "first level " : "second level ";
            row(prefix + "name", [level](const JobOutput& o) { const LevelStats* s = level(o); return s ? s->name : std::string("-"); });
            row("  accesses", num([](const LevelStats& s) { return s.accesses(); }));
            row("  hits", num([](const LevelStats& s) { return s.hits(); }));
            row("  misses", num([](const LevelStats& s) { return s.misses(); }));
            row("  hit rate", [level](const JobOutput& o) {
                const LevelStats* s = level(o);
                char b[32];
                std::snprintf(b, sizeof b, "%.2f%%", s ? 100.0 * s->hit_rate() : 0.0);
                return s ? std::string(b) : std::string("-");
            });
            // Only where the level classified its misses (the thread model's analysis): the
            // GPU model does not, and its zeros would read as counts.
            auto miss_class = [&](auto f) {
                return [level, f](const JobOutput& o) {
                    const LevelStats* s = level(o);
                    return s && s->classified ? viz::thousands(f(*s)) : std::string("-");
                };
            };
            row("  compulsory", miss_class([](const LevelStats& s) { return s.compulsory; }));
            row("  capacity", miss_class([](const LevelStats& s) { return s.capacity; }));
            row("  conflict", miss_class([](const LevelStats& s) { return s.conflict; }));
            row("  evictions", num([](const LevelStats& s) { return s.evictions; }));
            if (lvl == 0) {
                // Hits from other blocks last only while the SM's blocks keep in step (docs/gpu-model.md).
                row("  hits from: own warp / own block / other blocks", [](const JobOutput& o) {
                    if (!o.l1_hit_sources || o.l1_hit_sources->total() == 0) return std::string("-");
                    const L1HitSourceCounts& h = *o.l1_hit_sources;
                    const double all = static_cast<double>(h.total());
                    char b[128];
                    std::snprintf(b, sizeof b, "%.1f%% / %.1f%% / %.1f%%", 100.0 * h.own_warp / all, 100.0 * h.own_block / all,
                                  100.0 * h.other_block / all);
                    std::string text = b;
                    // Such a rate rests on timing the model is least sure of (docs/fidelity.md).
                    const double points = other_block_points(o).value_or(0.0);
                    if (points >= kTimingDependentPoints) {
                        std::snprintf(b, sizeof b, " (%.1f points of the hit rate: check on the GPU)", points);
                        text += b;
                    }
                    return text;
                });
            }
        }
        prefix.clear();
        row("fetches (first level read misses)", [](const JobOutput& o) {
            return o.result.levels.empty() ? std::string("-") : viz::thousands(o.result.levels[0].read_misses);
        });
        // Regions where the GPU model is known to miss the chip (sim/gpu/known_misses.hpp).
        row("model known off here", [](const JobOutput& o) {
            if (!o.input.gpu_model) return std::string("- (GPU model only)");
            std::string text;
            for (const KnownMiss* miss : known_misses_of(o)) {
                if (!text.empty()) text.append("; ");
                text.append(miss->region).append(": ").append(miss->effect);
            }
            return text.empty() ? std::string("in none of the measured regions") : text + " (docs/cli.md)";
        });
        // The thesis's figures only where they apply (the thread model, a schedule with a figure,
        // its condition met); otherwise why not, as in the PNG's legend.
        row("thesis fetch figure", [](const JobOutput& o) {
            if (o.input.trace) return std::string("none: the thesis's figures are for its stencil and matmul");
            if (o.input.gpu_model) {
                std::string why;
                for (const std::string& l : viz::analytic::gpu_model_reason(o.input.gpu.sms)) {
                    if (!why.empty()) why.push_back(' ');
                    why.append(l, l.find_first_not_of(' '));
                }
                return why;
            }
            const CacheConfig& c = o.input.hierarchy.l1.enabled() ? o.input.hierarchy.l1 : o.input.hierarchy.l2;
            const auto a = viz::analytic::summarize(o.input.workload, c);
            if (!a.fetch_bound) return "none: " + a.no_bound_reason;
            const std::uint64_t lines = c.size_bytes / std::max<std::uint32_t>(c.line_bytes, 1);
            const bool sets = c.ways != 0 && c.ways < lines;  // the thesis assumes full associativity
            return std::string(a.fetch_is_estimate ? "~ " : "<= ") + viz::thousands(static_cast<std::uint64_t>(*a.fetch_bound)) +
                   " (" + a.fetch_equation + (sets ? ", fully assoc." : "") + ")" +
                   (a.fetch_condition.empty() ? std::string() : "; " + a.fetch_condition);
        });
        row("recommended column width", [](const JobOutput& o) {
            if (o.input.gpu_model) return std::string("- (thread model only)");
            if (o.input.trace) return std::string("- (workloads only)");
            const CacheConfig& c = o.input.hierarchy.l1.enabled() ? o.input.hierarchy.l1 : o.input.hierarchy.l2;
            const auto a = viz::analytic::summarize(o.input.workload, c);
            if (!a.recommended_column) return std::string("-");
            if (*a.recommended_column >= o.input.workload.width)
                return "none needed (" + viz::thousands(*a.recommended_column) + " >= the image width)";
            return std::to_string(*a.recommended_column);
        });
        row("memory read (bytes)", [](const JobOutput& o) { return viz::thousands(o.result.memory_bytes_read); });
        row("simulation time", [](const JobOutput& o) {
            char b[32];
            std::snprintf(b, sizeof b, "%.3f s", o.seconds);
            return std::string(b);
        });
        return v;
    }();
    return rows;
}

namespace {

// `text` wrapped at spaces to the width left on the line.
void wrapped_text(const std::string& text) {
    ImGui::TextUnformatted(wrap_at_spaces(text, ImGui::GetContentRegionAvail().x).c_str());
}

float text_width(const std::string& s) { return ImGui::CalcTextSize(s.c_str()).x; }

// The width of the widest word: the narrowest that wrapping at spaces keeps every word whole in.
float widest_word(const std::string& s) {
    float w = 0;
    for (std::size_t at = s.find_first_not_of(" \n"); at != std::string::npos; at = s.find_first_not_of(" \n", at)) {
        const std::size_t end = std::min(s.find_first_of(" \n", at), s.size());
        w = std::max(w, ImGui::CalcTextSize(s.data() + at, s.data() + end).x);
        at = end;
    }
    return w;
}

}  // namespace

void App::stats_panel(float, float) {
    // One scrolling region for the counters and the analytic items (no scroll inside a scroll).
    // Text wraps at spaces only, so that no number is split, and what is wider than the panel
    // (a long word) scrolls horizontally rather than being cut.
    ImGui::BeginChild("stats", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    {
        const ImVec2 at = ImGui::GetCursorScreenPos(), avail = ImGui::GetContentRegionAvail();
        widgets_.push_back({"stats_view", {at.x, at.y, avail.x, avail.y}});
    }
    stats_table();
    // The analytic items of the first pane: for the thread model only (they model one cache
    // serving work items in order), and the notes the PNG's legend prints for its run.
    if (panes_[0]->current) {
        const JobOutput& o = *panes_[0]->current;
        const CacheConfig& c = o.input.hierarchy.l1.enabled() ? o.input.hierarchy.l1 : o.input.hierarchy.l2;
        if (!o.input.gpu_model && !o.input.trace)
            for (const auto& item : viz::analytic::summarize(o.input.workload, c).items) {
                char value[64];
                std::snprintf(value, sizeof value, "%.2f", item.value);
                wrapped_text("A " + item.equation + "  " + item.meaning + ": " + value + "  " + item.comparison);
            }
        ImGui::Spacing();
        ImGui::TextDisabled("%s: as in the PNG's legend", panes_[0]->name.c_str());
        for (const std::string& line : run_notes(0)) wrapped_text(line);
    }
    ImGui::EndChild();
}

// The counters, with the colour legend above them (below in the narrow layout).
void App::stats_table() {
    const int n = compare_ ? 2 : 1;
    const ImGuiStyle& style = ImGui::GetStyle();
    const float avail = ImGui::GetContentRegionAvail().x, font = ImGui::GetFontSize();
    const std::vector<StatsRow>& rows = stats_rows();
    // Each value once a frame; the narrowest each column can be: its widest word.
    std::vector<std::array<std::string, 2>> values(rows.size());
    // A label keeps its indent on every line it wraps to; the narrow layout halves it.
    const auto indent_of = [](const std::string& label, bool narrow) {
        return text_width(label.substr(0, label.find_first_not_of(' '))) * (narrow ? 0.5f : 1.0f);
    };
    float label_min = 0, label_min_narrow = 0, value_min = 0;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const std::string& label = rows[r].label;
        label_min = std::max(label_min, indent_of(label, false) + widest_word(label));
        label_min_narrow = std::max(label_min_narrow, indent_of(label, true) + widest_word(label));
        for (int i = 0; i < n; ++i)
            if (const auto& cur = panes_[i]->current) {
                values[r][i] = rows[r].value(*cur);
                value_min = std::max(value_min, widest_word(values[r][i]));
            }
    }
    const auto label_text = [&](const std::string& label, bool narrow) {
        const float indent = indent_of(label, narrow);
        if (indent > 0) ImGui::Indent(indent);
        wrapped_text(label.substr(std::min(label.find_first_not_of(' '), label.size())));
        if (indent > 0) ImGui::Unindent(indent);
    };
    // A value wrapped to its cell; where it went is kept for --state (the cell: x y w h, and each line).
    const auto value_text = [&](int i, const StatsRow& row, const std::string& value) {
        const ImVec2 at = ImGui::GetCursorScreenPos();
        const float w = ImGui::GetContentRegionAvail().x;
        const std::string text = wrap_at_spaces(value, w);
        ImGui::TextUnformatted(text.c_str());
        const std::string key = panes_[i]->name + "|" + row.key;
        float y = at.y;
        for (std::size_t from = 0; from <= text.size(); y += font) {
            const std::size_t end = std::min(text.find('\n', from), text.size());
            const std::string line = text.substr(from, end - from);
            widgets_.push_back({"stat_line " + key + "|" + line, {at.x, y, text_width(line), font}});
            from = end + 1;
        }
        widgets_.push_back({"stat_cell " + key, {at.x, at.y, w, y - at.y}});
    };
    const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg;
    // Side by side (label, A, B) where every column is at least as wide as its widest word; a
    // cell's padding and border each side.
    const float cell = 2 * style.CellPadding.x + 2;
    const float label_w = std::max(label_min, std::min(170.0f, avail * 0.4f));
    if (label_w + n * value_min + (1 + n) * cell <= avail) {
        colour_legend();
        if (!ImGui::BeginTable("counters", 1 + n, flags | ImGuiTableFlags_SizingStretchSame)) return;
        ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, label_w);
        for (int i = 0; i < n; ++i)
            ImGui::TableSetupColumn(panes_[i]->stale() ? (panes_[i]->name + " (previous run)").c_str() : panes_[i]->name.c_str());
        ImGui::TableHeadersRow();
        for (std::size_t r = 0; r < rows.size(); ++r) {
            ImGui::TableNextRow();
            ImGui::TableSetColumnIndex(0);
            label_text(rows[r].label, false);
            for (int i = 0; i < n; ++i) {
                ImGui::TableSetColumnIndex(1 + i);
                if (panes_[i]->current) value_text(i, rows[r], values[r][i]);
            }
        }
        ImGui::EndTable();
        return;
    }
    // Narrow: one column, each label above its values (A's and B's one below the other, after
    // their names), no borders or padding to leave more room for them; as wide as the widest
    // word needs at least. The legend comes after it, where it would otherwise fill a small panel
    // before the first number.
    for (int i = 0; i < n; ++i)
        if (panes_[i]->stale()) ImGui::TextColored(ImVec4(0.75f, 0.35f, 0.0f, 1), "%s: previous run", panes_[i]->name.c_str());
    const float name_gap = 4, indent = compare_ ? text_width("A") + name_gap : text_width(" ");
    const float need = std::max(label_min_narrow, indent + value_min);
    if (ImGui::BeginTable("counters", 1, ImGuiTableFlags_RowBg, ImVec2(std::max(avail, need), 0))) {
        for (std::size_t r = 0; r < rows.size(); ++r) {
            ImGui::TableNextRow();
            ImGui::TableSetColumnIndex(0);
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
            label_text(rows[r].label, true);
            ImGui::PopStyleColor();
            for (int i = 0; i < n; ++i) {
                if (!panes_[i]->current) continue;
                if (compare_) {
                    ImGui::TextDisabled("%s", panes_[i]->name.c_str());
                    ImGui::SameLine(0, name_gap);
                } else {
                    ImGui::SetCursorPosX(ImGui::GetCursorPosX() + indent);
                }
                ImGui::BeginGroup();
                value_text(i, rows[r], values[r][i]);
                ImGui::EndGroup();
            }
        }
        ImGui::EndTable();
    }
    ImGui::Spacing();
    colour_legend();
}

std::vector<std::string> App::run_notes(int i) const {
    const Pane& p = *panes_[i];
    if (!p.current) return {};
    const JobOutput& o = *p.current;
    std::vector<std::string> notes;
    if (!o.input.trace) {
        notes = viz::run_notes(o.input.workload, o.input.hierarchy, o.result, {o.input.gpu_model, o.input.gpu.sms});
    } else {
        notes = viz::run_notes(std::nullopt, o.input.hierarchy, o.result, {o.input.gpu_model, o.input.gpu.sms});
        notes.insert(notes.begin(), describe_subject(o.input.workload, o.input.trace.get()));
    }
    if (o.input.gpu_model)  // as the PNG's legend (cachesim diagram) says it
        for (std::string& line : viz::known_miss_notes(known_misses_of(o)))
            notes.push_back(std::move(line));
    return notes;
}

namespace {

// What a pane's legend shows, in words: two panes whose legends would read alike share one.
std::string legend_summary(const viz::CellColouring& c, bool fetch_wins, std::uint32_t sms) {
    if (!c.muted()) return fetch_wins ? "state any_miss" : "state";
    if (c.density) {
        char range[64];
        std::snprintf(range, sizeof range, "density %.3g %.3g", c.density_min, c.density_max);
        return range;
    }
    if (c.by == viz::ColourBy::hit_source) return "source";
    return "sm " + std::to_string(sms);
}

}  // namespace

void App::colour_legend() {
    // One legend where the panes' cells are coloured alike; otherwise each pane's, after its
    // name, since A's ramp or SMs would misread B's cells. Each is kept for --state with the
    // panes it describes and what it shows. A pane's legend: the state colours, or (density, SM,
    // hit source) the ramp, the SMs or the sources and the muted states, as the PNG's legend. Its
    // items follow one another while they fit the panel's width, then start a new line.
    const auto colour_legend_items = [&](int pane) {
        const viz::CellColouring& c = panes_[pane]->texture.colouring();
        bool line_start = true;
        const auto place = [&line_start](float w) {
            const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
            if (!line_start && ImGui::GetItemRectMax().x + 14 + w <= right) ImGui::SameLine(0, 14);
            line_start = false;
        };
        const auto swatch = [&](viz::Rgba colour, const std::string& label) {
            place(12 + ImGui::GetStyle().ItemSpacing.x + text_width(label));
            ImGui::BeginGroup();
            ImGui::ColorButton(label.c_str(), ImGui::ColorConvertU32ToFloat4(to_imgui(colour)), ImGuiColorEditFlags_NoTooltip, ImVec2(12, 12));
            ImGui::SameLine();
            ImGui::TextUnformatted(wrap_at_spaces(label, ImGui::GetContentRegionAvail().x).c_str());
            ImGui::EndGroup();
        };
        const auto heading = [&](const std::string& text) {
            wrapped_text(text);
            line_start = false;
        };
        if (!c.muted()) {
            for (viz::CellState s : viz::kLegendOrder) {
                swatch(viz::cell_color(s), std::string(viz::cell_state_name(s)));
                if (s == viz::CellState::fetched_from_l2) line_start = true;
            }
            if (panes_[pane]->texture.aggregated() && c.rule == viz::AggregateRule::any_miss) ImGui::TextDisabled("a fetch wins a shared cell");
            return;
        }
        if (c.density) {
            heading("L1 misses per (step x line), log scale:");
            char lo[32], hi[32];
            std::snprintf(lo, sizeof lo, "%.3g", c.density_min);
            std::snprintf(hi, sizeof hi, "%.3g", c.density_max);
            place(text_width(lo));
            ImGui::TextUnformatted(lo);
            // As long as fits between the numbers, within 60 to 160 pixels.
            const float room = ImGui::GetContentRegionAvail().x - text_width(lo) - text_width(hi) - 2 * 14;
            const float bar_w = std::clamp(room, 60.0f, 160.0f), bar_h = 12;
            place(bar_w);
            const ImVec2 at = ImGui::GetCursorScreenPos();
            ImDrawList* dl = ImGui::GetWindowDrawList();
            for (int k = 0; k < 32; ++k) {
                const float x0 = at.x + bar_w * k / 32, x1 = at.x + bar_w * (k + 1) / 32;
                dl->AddRectFilledMultiColor(ImVec2(x0, at.y + 2), ImVec2(x1, at.y + 2 + bar_h), to_imgui(viz::miss_density_color(k / 32.0)),
                                            to_imgui(viz::miss_density_color((k + 1) / 32.0)), to_imgui(viz::miss_density_color((k + 1) / 32.0)),
                                            to_imgui(viz::miss_density_color(k / 32.0)));
            }
            dl->AddRect(ImVec2(at.x, at.y + 2), ImVec2(at.x + bar_w, at.y + 2 + bar_h), IM_COL32(60, 60, 60, 255));
            ImGui::Dummy(ImVec2(bar_w, bar_h + 2));
            place(text_width(hi));
            ImGui::TextUnformatted(hi);
            line_start = true;
        } else if (c.by == viz::ColourBy::hit_source) {
            heading("who brought the sectors L1 hits found:");
            for (HitSource s : viz::kHitSourceOrder) swatch(viz::hit_source_color(s), std::string(viz::hit_source_name(s)));
            line_start = true;
            for (viz::CellState s : {viz::CellState::fetched_from_memory, viz::CellState::fetched_from_l2})
                swatch(viz::muted_color(s), std::string(viz::cell_state_name(s)));
        } else {
            const std::uint32_t sms = panes_[pane]->current ? panes_[pane]->current->input.gpu.sms : 0;
            heading("SM that accessed the line:");
            const std::vector<std::string> labels = viz::sm_legend_labels(sms);
            for (std::uint32_t k = 0; k < labels.size(); ++k) swatch(viz::sm_color(k), labels[k]);
            line_start = true;
        }
        for (viz::CellState s : {viz::CellState::accessed, viz::CellState::in_l1, viz::CellState::in_l2, viz::CellState::not_cached})
            swatch(viz::muted_color(s), viz::muted_state_label(s, c.by, c.density));
    };
    const int n = compare_ ? 2 : 1;
    std::array<std::string, 2> summary;
    for (int i = 0; i < n; ++i) {
        const Pane& p = *panes_[i];
        const viz::CellColouring& c = p.texture.colouring();
        summary[i] = legend_summary(c, p.texture.aggregated() && c.rule == viz::AggregateRule::any_miss,
                                    p.current ? p.current->input.gpu.sms : 0);
    }
    const bool shared = n == 1 || summary[0] == summary[1];
    for (int i = 0; i < (shared ? 1 : n); ++i) {
        const ImVec2 at = ImGui::GetCursorScreenPos();
        const float w = ImGui::GetContentRegionAvail().x;
        if (!shared) {
            ImGui::TextDisabled("%s:", panes_[i]->name.c_str());
            ImGui::SameLine();
        }
        colour_legend_items(i);
        const std::string panes = shared && n == 2 ? panes_[0]->name + " " + panes_[1]->name : panes_[i]->name;
        widgets_.push_back({"colour_legend " + panes + "|" + summary[i], {at.x, at.y, w, ImGui::GetCursorScreenPos().y - at.y}});
    }
}

namespace {

// The space between a memory chart box's top and its title (the margins are viz's, shared with
// the PNG).
constexpr float kBoxTextTop = 4;
constexpr float kBoxTextPad = static_cast<float>(viz::kBoxTextPad), kArrowLabelGap = static_cast<float>(viz::kArrowLabelGap);

// The least width at which every text of `chart` fits, as the PNG's, with the panel's one font;
// the title wraps at spaces, so only its widest word counts.
float memory_chart_width(const viz::MemoryChart& chart, const std::string& title) {
    const double texts =
        viz::memory_chart_least_width(chart, [](const std::string& text, viz::ChartText) { return text_width(text); });
    return std::ceil(std::max(widest_word(title), static_cast<float>(texts)));
}

}  // namespace

void App::memory_chart_panel() {
    // The GPU runs' memory charts (viz/memory_chart.hpp's boxes and arrows, unit coordinates)
    // drawn with the draw list: side by side in compare mode where both fit at the width their
    // texts need, else A above B. What the panel cannot hold scrolls, so no text is cut.
    std::vector<const Pane*> shown;
    for (int i = 0; i < (compare_ ? 2 : 1); ++i)
        if (panes_[i]->current && panes_[i]->current->memory_chart) shown.push_back(panes_[i].get());
    if (shown.empty()) {
        ImGui::TextWrapped("The memory chart belongs to GPU-model runs (model: gpu): requests and sectors from the kernel "
                           "through L1 and L2 to DRAM, in the manner of Nsight Compute's memory workload chart.");
        return;
    }
    ImGui::BeginChild("memory_chart", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    const ImVec2 origin = ImGui::GetCursorScreenPos(), avail = ImGui::GetContentRegionAvail();
    widgets_.push_back({"chart_view", {origin.x, origin.y, avail.x, avail.y}});
    const float font = ImGui::GetFontSize(), line = font * 1.25f, gap = 2 * font;
    const std::size_t n = shown.size();

    struct Placed {
        const viz::MemoryChart* chart;
        std::string title;
        float x = 0, y = 0, w = 0, title_h = 0, h = 0;
    };
    std::vector<Placed> placed;
    float need_sum = 0;
    for (const Pane* p : shown) {
        const viz::MemoryChart& chart = *p->current->memory_chart;
        Placed c{&chart, p->name + ": " + chart.title};
        c.w = memory_chart_width(chart, c.title);
        need_sum += c.w;
        placed.push_back(std::move(c));
    }
    const bool side_by_side = need_sum + gap * static_cast<float>(n - 1) <= avail.x;
    const float extra = side_by_side ? (avail.x - need_sum - gap * static_cast<float>(n - 1)) / static_cast<float>(n) : 0;
    for (Placed& c : placed) {
        c.w = side_by_side ? c.w + extra : std::max(c.w, avail.x);
        c.title = wrap_at_spaces(c.title, c.w);
        c.title_h = static_cast<float>(1 + std::count(c.title.begin(), c.title.end(), '\n')) * font + line * 0.3f;
    }
    // Side by side the boxes start level, below the taller title; stacked, each chart takes at
    // least its share of the panel's height. Tall enough for every box's and arrow's text (the
    // chart's least height, its parts in proportion to their text, spaced as in the PNG: wider
    // than the lines here).
    float title_h = 0;
    for (const Placed& c : placed) title_h = std::max(title_h, c.title_h);
    float x = origin.x, y = origin.y, content_w = 0;
    for (Placed& c : placed) {
        const float least = static_cast<float>(c.chart->min_height_fonts) * font;
        if (side_by_side) {
            c.title_h = title_h;
            c.h = std::max(avail.y - title_h - line * 0.2f, least);
        } else {
            c.h = std::max((avail.y - gap * static_cast<float>(n - 1)) / static_cast<float>(n) - c.title_h, least);
        }
        c.x = x, c.y = y;
        content_w = std::max(content_w, x + c.w - origin.x);
        if (side_by_side) x += c.w + gap;
        else y += c.title_h + c.h + gap;
    }
    float content_h = 0;
    for (const Placed& c : placed) content_h = std::max(content_h, c.y + c.title_h + c.h - origin.y);
    widgets_.push_back({"chart_content", {origin.x, origin.y, content_w, content_h}});

    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImU32 ink = IM_COL32(20, 20, 20, 255), grey = IM_COL32(60, 60, 60, 255);
    for (std::size_t k = 0; k < n; ++k) {
        const Placed& c = placed[k];
        const std::string& pane = shown[k]->name;
        // Each text drawn and its box kept for --state.
        const auto text = [&](const std::string& name, float tx, float ty, ImU32 colour, const std::string& s) {
            dl->AddText(ImVec2(tx, ty), colour, s.c_str());
            widgets_.push_back({name + s, {tx, ty, text_width(s), font}});
        };
        float ty = c.y;
        for (std::size_t from = 0; from <= c.title.size(); ty += font) {
            const std::size_t end = std::min(c.title.find('\n', from), c.title.size());
            text("chart_title " + pane + "|", c.x, ty, ink, c.title.substr(from, end - from));
            from = end + 1;
        }
        const float top = c.y + c.title_h;
        for (const viz::ChartBox& b : c.chart->boxes) {
            const ImVec2 a(c.x + static_cast<float>(b.x) * c.w, top + static_cast<float>(b.y) * c.h);
            const ImVec2 z(a.x + static_cast<float>(b.w) * c.w, a.y + static_cast<float>(b.h) * c.h);
            dl->AddRectFilled(a, z, IM_COL32(240, 240, 240, 255));
            dl->AddRect(a, z, grey);
            widgets_.push_back({"chart_box " + pane + "|" + b.title, {a.x, a.y, z.x - a.x, z.y - a.y}});
            float by = a.y + kBoxTextTop;
            const std::string in_box = "chart_text " + pane + "|" + b.title + "|";
            text(in_box, a.x + kBoxTextPad, by, ink, b.title);
            for (const std::string& l : b.lines) text(in_box, a.x + kBoxTextPad, by += line, grey, l);
        }
        for (const viz::ChartArrow& arrow : c.chart->arrows) {
            const ImVec2 a(c.x + static_cast<float>(arrow.x0) * c.w, top + static_cast<float>(arrow.y0) * c.h);
            const ImVec2 z(c.x + static_cast<float>(arrow.x1) * c.w, top + static_cast<float>(arrow.y1) * c.h);
            dl->AddLine(a, z, grey, 2);
            dl->AddTriangleFilled(ImVec2(z.x - 6, z.y - 8), ImVec2(z.x + 6, z.y - 8), z, grey);  // points down
            float ly = (a.y + z.y) / 2 - static_cast<float>(arrow.labels.size()) * line / 2;
            for (const std::string& l : arrow.labels) {
                text("chart_label " + pane + "|", a.x + kArrowLabelGap, ly, grey, l);
                ly += line;
            }
        }
    }
    ImGui::Dummy(ImVec2(content_w, content_h));
    ImGui::EndChild();
}

}  // namespace cachesim::gui
