// The visible state as text (cacheviz --state FILE) and the export command: what the tests and
// scripts read instead of parsing pixels for text.
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>

#include "apps/cacheviz/app.hpp"
#include "apps/cacheviz/diagram_command.hpp"
#include "viz/view_choices.hpp"

namespace cachesim::gui {

std::string App::diagram_command(int i) const {
    const Pane& pane = *panes_[i];
    if (!pane.current || !pane.current->diagram) return "";
    const std::uint64_t steps = pane.current->diagram->steps();
    const auto from = static_cast<std::uint64_t>(std::clamp(std::floor(view_.t0), 0.0, static_cast<double>(steps ? steps - 1 : 0)));
    const auto to = static_cast<std::uint64_t>(std::clamp(std::ceil(view_.t1), static_cast<double>(from + 1), static_cast<double>(std::max<std::uint64_t>(steps, from + 1))));
    gui::DiagramViewOptions opts;
    opts.aggregate = options_.aggregate;
    opts.colour_by = options_.colour_by;
    // Cropped to some lines: --lines, the rows the view shows (whole rows, outwards).
    const std::uint64_t rows = pane.current->diagram->rows();
    const auto r0 = static_cast<std::uint64_t>(std::clamp(std::floor(view_.r0), 0.0, static_cast<double>(rows ? rows - 1 : 0)));
    const auto r1 = static_cast<std::uint64_t>(std::clamp(std::ceil(view_.r1), static_cast<double>(r0 + 1), static_cast<double>(std::max<std::uint64_t>(rows, r0 + 1))));
    if (r0 > 0 || r1 < rows) opts.lines = std::pair{r0, r1};
    return gui::diagram_command(pane.current->input, from, to, "cacheviz-" + pane.name + ".png", opts);
}

std::string App::state_text() const {
    std::ostringstream s;
    s << "playhead " << view_.playhead << "\n";
    s << "playing " << view_.playing << "\n";
    char buf[200];
    std::snprintf(buf, sizeof buf, "view %.3f %.3f %.3f %.3f\n", view_.t0, view_.t1, view_.r0, view_.r1);
    s << buf;
    s << "compare " << compare_ << "\n";
    s << "difference " << show_difference_ << "\n";
    s << "layout " << controls_w_ << " " << bottom_h_ << " " << arrays_w_ << "\n";
    s << "status " << status_ << "\n";
    s << "aggregate " << viz::aggregate_name(options_.aggregate) << "\n";
    s << "colour_by " << choice_name<viz::ColourBy>(viz::kColourByChoices, options_.colour_by) << "\n";
    for (const auto& [name, r] : widgets_) s << "widget " << name << " " << r[0] << " " << r[1] << " " << r[2] << " " << r[3] << "\n";
    for (int i = 0; i < (compare_ ? 2 : 1); ++i) {
        const Pane& p = *panes_[i];
        const std::string k = p.name;
        s << "pane " << k << " config " << describe_subject(p.config.workload, p.config.trace.get()) << "\n";
        s << "pane " << k << " stale " << p.stale() << "\n";
        if (!p.current) continue;
        s << "pane " << k << " shown " << describe_subject(p.current->input.workload, p.current->input.trace.get()) << "\n";
        s << "pane " << k << " steps " << (p.current->diagram ? p.current->diagram->steps() : 0) << "\n";
        for (const LevelStats& l : p.current->result.levels)
            s << "pane " << k << " misses " << l.name << " " << l.misses() << " read_misses " << l.read_misses << "\n";
        s << "pane " << k << " command " << diagram_command(i) << "\n";
        {
            const viz::CellColouring& c = p.texture.colouring();
            s << "pane " << k << " colouring rule " << viz::aggregate_name(c.rule) << " density " << c.density << " by "
              << choice_name<viz::ColourBy>(viz::kColourByChoices, c.by)
              << " aggregated " << p.texture.aggregated() << " range " << c.density_min << " " << c.density_max << "\n";
        }
        const StripShown& st = strips_[i];
        if (st.w > 0) {
            s << "pane " << k << " strip " << st.x << " " << st.y << " " << st.w << " " << st.h << " top " << st.top_rate << "\n";
            for (const auto& [name, rate] : st.levels) s << "pane " << k << " strip_level " << name << " " << rate << "\n";
        }
        // The labels beside the cells as drawn: text, then its box (x y w h).
        for (const auto& [key, labels] : {std::pair{"time_label", &time_labels_[i]}, std::pair{"row_label", &row_labels_[i]}})
            for (const LabelShown& l : *labels)
                s << "pane " << k << " " << key << " " << l.text << " " << l.x << " " << l.y << " " << l.w << " " << l.h << "\n";
        // The stats table's rows as the panel shows them.
        for (const StatsRow& r : stats_rows()) s << "pane " << k << " stat " << r.key << " = " << r.value(*p.current) << "\n";
        if (p.snapshot_job) s << "pane " << k << " array_view computing\n";
        if (p.array_view) {
            s << "pane " << k << " array_view step " << p.array_view->step << "\n";
            // Per array: its finest texture level, and the elements across x down the texels drawn.
            const auto block = [](const ArrayImage& img) {
                return std::to_string(img.per_texel_x) + "x" + std::to_string(img.per_texel_y);
            };
            for (std::size_t a = 0; a < p.array_view->arrays.size() && a < p.array_images.size(); ++a) {
                const viz::ArrayGrid& g = p.array_view->arrays[a];
                if (p.array_images[a].empty()) continue;
                const ArrayImage& img = p.array_images[a].front();
                s << "pane " << k << " array " << g.name << " " << g.width << " " << g.height << " texels " << img.width << " "
                  << img.height << " per_texel " << block(img);
                if (a < p.array_levels.size() && p.array_levels[a] < p.array_images[a].size())
                    s << " drawn_per_texel " << block(p.array_images[a][p.array_levels[a]]);
                s << "\n";
            }
            for (const auto& [name, r] : array_rects_[i])
                s << "pane " << k << " array_rect " << name << " " << r[0] << " " << r[1] << " " << r[2] << " " << r[3] << "\n";
        } else if (!p.snapshot_job && !p.array_view_note.empty()) {
            s << "pane " << k << " array_view none " << p.array_view_note << "\n";
        }
        for (const std::string& n : run_notes(i)) s << "pane " << k << " note " << n << "\n";
        if (p.current->memory_chart) {
            const viz::MemoryChart& m = *p.current->memory_chart;
            for (const viz::ChartBox& b : m.boxes) {
                s << "pane " << k << " chart_box " << b.title << "\n";
                for (const std::string& l : b.lines) s << "pane " << k << " chart_line " << b.title << ": " << l << "\n";
            }
            for (const viz::ChartArrow& a : m.arrows)
                for (const std::string& l : a.labels) s << "pane " << k << " chart_arrow " << l << "\n";
        }
        if (!last_command_[i].empty()) s << "pane " << k << " copied " << last_command_[i] << "\n";
        if (p.hover_job && p.hover_job->done() && p.hover_job->contents() && p.hover_job->contents()->focus) {
            const viz::LineHistory& h = *p.hover_job->contents()->focus;
            const auto opt = [](const std::optional<std::uint64_t>& v) { return v ? std::to_string(*v) : std::string("-"); };
            s << "pane " << k << " hover " << p.hover_job->request().step << " " << h.line << " last_use " << opt(h.last_access_step)
              << " reuse " << opt(h.reuse_distance) << " resident " << h.resident << " evicted " << opt(h.evicted_step) << " by "
              << opt(h.evicted_by_line) << "\n";
        }
        if (p.contents_shown && p.contents_shown->contents()) {
            const viz::CacheContents& c = *p.contents_shown->contents();
            s << "pane " << k << " contents_step " << c.step << "\n";
            for (const viz::LevelContents& l : c.levels) {
                // Every way, empty ones too; the valid ways come in the same order.
                std::size_t next_valid = 0;
                for (std::uint32_t set = 0; set < l.sets; ++set) {
                    const std::optional<std::uint32_t> victim = l.next_victim(set);
                    for (std::uint32_t way = 0; way < l.ways; ++way) {
                        const bool valid = next_valid < l.resident.size() && l.resident[next_valid].set == set &&
                                           l.resident[next_valid].way == way;
                        s << "pane " << k << " way " << l.name << " " << set << " " << way << " valid " << valid;
                        if (valid) {
                            const viz::WayContents& w = l.resident[next_valid++].contents;
                            s << " line " << w.line << " dirty " << w.dirty << " age "
                              << (w.age == viz::kUnknownAge ? std::string("-") : std::to_string(w.age));
                        }
                        if (victim == way) s << " next_victim";
                        s << "\n";
                    }
                }
            }
        }
    }
    return s.str();
}

}  // namespace cachesim::gui
