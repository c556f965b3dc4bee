#include "apps/cacheviz/edit_controls.hpp"

#include <imgui.h>

#include <algorithm>
#include <string>

#include "apps/cacheviz/text_wrap.hpp"

namespace cachesim::gui {

bool edit_u32(const char* label, std::uint32_t& v, std::uint32_t lo) {
    std::uint32_t x = v;
    const std::string shown = label_for_next_widget(label, frame_width_for(std::to_string(x)));
    if (ImGui::InputScalar(shown.c_str(), ImGuiDataType_U32, &x, nullptr, nullptr, "%u", ImGuiInputTextFlags_EnterReturnsTrue) ||
        (ImGui::IsItemDeactivatedAfterEdit())) {
        x = std::max(x, lo);
        if (x != v) { v = x; return true; }
    }
    return false;
}

bool edit_u64(const char* label, std::uint64_t& v) {
    std::uint64_t x = v;
    const std::string shown = label_for_next_widget(label, frame_width_for(std::to_string(x)));
    if (ImGui::InputScalar(shown.c_str(), ImGuiDataType_U64, &x, nullptr, nullptr, "%llu", ImGuiInputTextFlags_EnterReturnsTrue) ||
        ImGui::IsItemDeactivatedAfterEdit()) {
        if (x != v) { v = x; return true; }
    }
    return false;
}

bool level_controls(CacheConfig& c) {
    bool changed = false;
    ImGui::PushID(c.name.c_str());
    bool enabled = c.enabled();
    if (ImGui::Checkbox(("enable " + c.name).c_str(), &enabled)) {
        c.size_bytes = enabled ? std::uint64_t{16} * 1024 : 0;
        changed = true;
    }
    if (c.enabled()) {
        changed |= edit_u64("size (bytes)", c.size_bytes);
        std::uint64_t lines = c.size_bytes / std::max<std::uint32_t>(c.line_bytes, 1);
        if (edit_u64("lines", lines)) { c.size_bytes = lines * c.line_bytes; changed = true; }
        changed |= edit_u32("line (bytes)", c.line_bytes);
        changed |= edit_u32("sector (0 = line)", c.sector_bytes, 0);
        changed |= edit_u32("ways (0 = full)", c.ways, 0);
        const std::string current(policy_name(c.policy));
        if (ImGui::BeginCombo(label_for_next_widget("policy", frame_width_for(current, true)).c_str(), current.c_str())) {
            for (const EnumChoice<PolicyKind>& p : kPolicyChoices)
                if (ImGui::Selectable(std::string(p.name).c_str(), p.value == c.policy)) {
                    c.policy = p.value;
                    changed = true;
                }
            ImGui::EndCombo();
        }
        int write = c.write_policy == WritePolicy::write_back_allocate ? 1 : 0;
        const char* const stores[] = {"through, no allocate", "back, allocate"};
        if (ImGui::Combo(label_for_next_widget("stores", frame_width_for(stores[write], true)).c_str(), &write, stores, 2)) {
            c.write_policy = write ? WritePolicy::write_back_allocate : WritePolicy::write_through_no_allocate;
            changed = true;
        }
    }
    ImGui::PopID();
    return changed;
}

}  // namespace cachesim::gui
