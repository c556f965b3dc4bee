#pragma once
// Which simulator a run uses (--model).
#include <cstdint>
#include <optional>
#include <string_view>

#include "sim/enum_choices.hpp"

namespace cachesim::cli {

enum class ModelKind : std::uint8_t { thread, gpu };

inline constexpr EnumChoice<ModelKind> kModelChoices[] = {
    {ModelKind::thread, "thread", "work items one after another (the thesis's model)"},
    {ModelKind::gpu, "gpu",
     "warps of thread blocks on SMs with per-SM L1s and a shared L2 (see GPU model; without --preset it takes "
     "--preset h200)"},
};

inline std::string_view model_name(ModelKind model) { return choice_name<ModelKind>(kModelChoices, model); }
inline std::optional<ModelKind> parse_model(std::string_view text) { return parse_choice<ModelKind>(kModelChoices, text); }

}  // namespace cachesim::cli
