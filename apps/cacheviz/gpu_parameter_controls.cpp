#include "apps/cacheviz/gpu_parameter_controls.hpp"

#include <imgui.h>

#include <cstdio>
#include <cstring>
#include <sstream>

#include "apps/cacheviz/text_wrap.hpp"
#include "apps/common/cli_errors.hpp"
#include "sim/gpu/gpu_parameters.hpp"
#include "sim/gpu/gpu_presets.hpp"

namespace cachesim::gui {

namespace {

// The edited value as the option would spell it, or "" when the control was not changed.
std::string edit(const GpuParameter& p, const std::string& label, const std::string& value) {
    char slider_text[32] = "";  // a slider shows its value with three decimals
    if (p.type == ParameterType::real) std::snprintf(slider_text, sizeof slider_text, "%.3f", std::stof(value));
    const std::string frame_text = p.type == ParameterType::real ? slider_text : value;
    const std::string shown = label_for_next_widget(label, frame_width_for(frame_text, p.type == ParameterType::choice));
    switch (p.type) {
        case ParameterType::choice: {
            std::string chosen;
            if (ImGui::BeginCombo(shown.c_str(), value.c_str())) {
                for (const ChoiceText& c : p.choices)
                    if (ImGui::Selectable(std::string(c.name).c_str(), c.name == value)) chosen = c.name;
                ImGui::EndCombo();
            }
            return chosen;
        }
        case ParameterType::real: {
            float v = std::stof(value);
            if (!ImGui::SliderFloat(shown.c_str(), &v, static_cast<float>(p.min), static_cast<float>(p.max), "%.3f"))
                return "";
            std::ostringstream text;
            text << v;
            return text.str();
        }
        case ParameterType::count: {
            std::uint64_t v = std::stoull(value);
            if (!ImGui::InputScalar(shown.c_str(), ImGuiDataType_U64, &v, nullptr, nullptr, "%llu",
                                    ImGuiInputTextFlags_EnterReturnsTrue) &&
                !ImGui::IsItemDeactivatedAfterEdit())
                return "";
            return std::to_string(v);
        }
        case ParameterType::bytes:
        case ParameterType::text:
        default: {
            char buffer[256];
            std::snprintf(buffer, sizeof buffer, "%s", value.c_str());
            if (!ImGui::InputText(shown.c_str(), buffer, sizeof buffer, ImGuiInputTextFlags_EnterReturnsTrue) &&
                !ImGui::IsItemDeactivatedAfterEdit())
                return "";
            return buffer;
        }
    }
}

void tooltip(const GpuParameter& p, const GpuConfig& gpu) {
    if (!ImGui::IsItemHovered()) return;
    // A configuration edited away from its preset still shows the preset's sources.
    const std::string preset = find_gpu_preset(gpu.name) ? gpu.name : std::string(kDefaultGpuPreset);
    const ParameterSource source = parameter_source(p, preset);
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 35.0f);
    ImGui::TextUnformatted(("--" + std::string(p.option) + ": " + p.help_text()).c_str());
    ImGui::TextDisabled("%s, %s: %s", preset.c_str(), std::string(provenance_name(source.kind)).c_str(),
                        std::string(source.detail).c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

}  // namespace

bool gpu_parameter_controls(GpuConfig& gpu, std::string& error) {
    bool changed = false;
    std::string_view group;
    bool open = false;
    for (const GpuParameter& p : gpu_parameters()) {
        if (p.group != group) {
            group = p.group;
            const bool first = &p == &gpu_parameters().front();
            open = ImGui::CollapsingHeader(std::string(group).c_str(), first ? ImGuiTreeNodeFlags_DefaultOpen : 0);
        }
        if (!open) continue;
        const std::string value = p.get(gpu);
        const std::string edited = edit(p, std::string(p.option), value);
        tooltip(p, gpu);
        if (edited.empty() || edited == value) continue;
        try {
            GpuConfig next = gpu;
            p.set(next, edited, p.option);
            gpu = std::move(next);
            changed = true;
        } catch (const std::exception& e) {
            error = cli::error_text(e);
        }
    }
    return changed;
}

}  // namespace cachesim::gui
