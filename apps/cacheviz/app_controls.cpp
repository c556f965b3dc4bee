// The configuration panel: presets, workload, model (the GPU model's parameters from the table),
// the thread model's caches.
#include "apps/cacheviz/app.hpp"

#include <imgui.h>

#include "apps/cacheviz/config.hpp"
#include "apps/cacheviz/edit_controls.hpp"
#include "apps/cacheviz/gpu_parameter_controls.hpp"
#include "apps/cacheviz/workload_controls.hpp"
#include "apps/common/cli_errors.hpp"
#include "apps/common/presets.hpp"
#include "viz/notes.hpp"

namespace cachesim::gui {

void App::controls(Pane& pane) {
    PaneConfig& c = pane.config;
    bool changed = false;
    // Presets.
    if (ImGui::BeginCombo("preset", "apply a preset...")) {
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
    if (c.trace) ImGui::TextWrapped("%s", describe_subject(c.workload, c.trace.get()).c_str());  // a recorded kernel: nothing to edit
    else changed |= workload_controls(c.workload);
    ImGui::Separator();
    ImGui::TextDisabled("Model");
    if (ImGui::BeginCombo("model", std::string(cli::model_name(c.model)).c_str())) {
        for (const EnumChoice<cli::ModelKind>& m : cli::kModelChoices)
            if (ImGui::Selectable(std::string(m.name).c_str(), m.value == c.model)) {
                c.model = m.value;
                changed = true;
            }
        ImGui::EndCombo();
    }
    if (c.model == cli::ModelKind::gpu) {
        if (ImGui::BeginCombo("GPU preset", c.gpu.name.c_str())) {
            for (const GpuPreset& p : gpu_presets())
                if (ImGui::Selectable(p.name.c_str(), p.name == c.gpu.name)) { c.gpu = p.config; changed = true; }
            ImGui::EndCombo();
        }
        changed |= gpu_parameter_controls(c.gpu, pane.config_error);
        if (c.gpu.l1_auto) {
            try {
                ImGui::TextDisabled("L1 per SM: %s B", viz::thousands(effective_l1(c.gpu).size_bytes).c_str());
            } catch (const std::exception& e) {
                ImGui::TextDisabled("%s", cli::error_text(e).c_str());
            }
        }
        if (c.timeline) {
            changed |= ImGui::Checkbox("measured warp order", &c.use_timeline);
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("replay in the order the GPU ran it (%s, launch %u) instead of lockstep rounds;\n"
                                  "it fits only the launch it was recorded for",
                                  c.timeline->source.c_str(), c.timeline->launch);
        }
        ImGui::TextDisabled(c.timeline && c.use_timeline ? "a step is one request, in the measured order"
                                                         : "a step is one scheduling round");
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
    if (!pane.config_error.empty()) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(ImVec4(0.85f, 0.1f, 0.1f, 1), "%s", pane.config_error.c_str());
        ImGui::PopTextWrapPos();
    }
}

}  // namespace cachesim::gui
