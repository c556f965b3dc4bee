#include "apps/cacheviz/start_view.hpp"

namespace cachesim::gui {

std::string start_view_error(const StartView& view, std::uint64_t steps, std::optional<std::uint64_t> rows) {
    const auto n = [](std::uint64_t v) { return std::to_string(v); };
    if (view.playhead >= steps)
        return steps == 0 ? "--playhead: the run has no steps"
                          : "--playhead: step " + n(view.playhead) + " is past the last step " + n(steps - 1);
    if (view.zoom_steps && view.zoom_steps->second > static_cast<double>(steps))
        return "--zoom: the run has " + n(steps) + " steps (0:" + n(steps) + ")";
    if (rows && view.zoom_lines && view.zoom_lines->second > static_cast<double>(*rows))
        return "--zoom-lines: the run has " + n(*rows) + " lines (0:" + n(*rows) + ")";
    return "";
}

}  // namespace cachesim::gui
