#pragma once
// The viz colours as ImGui wants them.
#include <imgui.h>

#include "viz/canvas.hpp"

namespace cachesim::gui {

inline ImU32 to_imgui(viz::Rgba c) { return IM_COL32(c.r, c.g, c.b, c.a); }

}  // namespace cachesim::gui
