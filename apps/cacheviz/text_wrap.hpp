#pragma once
// Text wrapped for the panels' narrow columns.
#include <string>

namespace cachesim::gui {

// `text` with '\n' where it breaks into lines at most `width` wide (ImGui::CalcTextSize), at
// spaces only: ImGui's own wrapping also breaks after ',' and '.', inside 1,234,567 or 95.44%. A
// word wider than `width` has a line of its own.
std::string wrap_at_spaces(const std::string& text, float width);

}  // namespace cachesim::gui
