// The configuration panel: presets, workload, model (the GPU model's parameters from the table),
// the thread model's caches.
#include "apps/cacheviz/app.hpp"

#include <imgui.h>

#include "apps/cacheviz/config.hpp"
#include "apps/cacheviz/edit_controls.hpp"
#include "apps/cacheviz/gpu_parameter_controls.hpp"
#include "apps/cacheviz/text_wrap.hpp"
#include "apps/cacheviz/workload_controls.hpp"
#include "apps/common/cli_errors.hpp"
#include "apps/common/presets.hpp"
#include "viz/notes.hpp"

namespace cachesim::gui {

void App::controls(Pane& pane) {
    PaneConfig& c = pane.config;
    bool changed = false;
    const auto wrapped = [](const std::string& text) {
        ImGui::TextDisabled("%s", wrap_at_spaces(text, ImGui::GetContentRegionAvail().x).c_str());
    };
    // Presets.
    const char* const apply = "apply a preset...";
    if (ImGui::BeginCombo(label_for_next_widget("preset", frame_width_for(apply, true)).c_str(), apply)) {
        for (const std::string& name : cli::all_preset_names())
            if (ImGui::Selectable(name.c_str())) {
                try {
                    c = config_from_args({"--preset", name});
                    changed = true;
                } catch (const std::exception& e) {
                    pane.config_error = cli::error_text(e);
                }
            }
        ImGui::EndCombo();
    }
    ImGui::Separator();
    ImGui::TextDisabled("Workload");
    const float avail = ImGui::GetContentRegionAvail().x;
    if (c.trace) ImGui::TextUnformatted(wrap_at_spaces(describe_subject(c.workload, c.trace.get()), avail).c_str());  // nothing to edit
    else changed |= workload_controls(c.workload);
    ImGui::Separator();
    ImGui::TextDisabled("Model");
    const std::string model(cli::model_name(c.model));
    if (ImGui::BeginCombo(label_for_next_widget("model", frame_width_for(model, true)).c_str(), model.c_str())) {
        for (const EnumChoice<cli::ModelKind>& m : cli::kModelChoices)
            if (ImGui::Selectable(std::string(m.name).c_str(), m.value == c.model)) {
                c.model = m.value;
                changed = true;
            }
        ImGui::EndCombo();
    }
    if (c.model == cli::ModelKind::gpu) {
        const std::string gpu_label = label_for_next_widget("GPU preset", frame_width_for(c.gpu.name, true));
        if (ImGui::BeginCombo(gpu_label.c_str(), c.gpu.name.c_str())) {
            for (const GpuPreset& p : gpu_presets())
                if (ImGui::Selectable(p.name.c_str(), p.name == c.gpu.name)) { c.gpu = p.config; changed = true; }
            ImGui::EndCombo();
        }
        changed |= gpu_parameter_controls(c.gpu, pane.config_error);
        if (c.gpu.l1_auto) {
            try {
                wrapped("L1 per SM: " + viz::thousands(effective_l1(c.gpu).size_bytes) + " B");
            } catch (const std::exception& e) {
                wrapped(cli::error_text(e));
            }
        }
        if (c.timeline) {
            changed |= ImGui::Checkbox(checkbox_label("measured warp order").c_str(), &c.use_timeline);
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("replay in the order the GPU ran it (%s, launch %u) instead of lockstep rounds;\n"
                                  "it fits only the launch it was recorded for",
                                  c.timeline->source.c_str(), c.timeline->launch);
        }
        wrapped(c.timeline && c.use_timeline ? "a step is one request, in the measured order" : "a step is one scheduling round");
    }

    if (c.model == cli::ModelKind::thread) {
        ImGui::Separator();
        ImGui::TextDisabled("Caches");
        changed |= level_controls(c.hierarchy.l1);
        ImGui::Spacing();
        changed |= level_controls(c.hierarchy.l2);
    }
    std::uint64_t seed = c.hierarchy.seed;
    if (edit_u64("seed", seed)) { c.hierarchy.seed = seed; changed = true; }
    if (changed) start_run(pane);
    if (!pane.config_error.empty())
        ImGui::TextColored(ImVec4(0.85f, 0.1f, 0.1f, 1), "%s", wrap_at_spaces(pane.config_error, avail).c_str());
}

}  // namespace cachesim::gui
