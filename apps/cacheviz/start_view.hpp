#pragma once
// The view cacheviz opens with (--playhead, --zoom, --zoom-lines), checked against the run's
// extent: a step or line past the run is refused (exit 2), never quietly moved into it.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace cachesim::gui {

struct StartView {
    std::uint64_t playhead = 0;
    std::optional<std::pair<double, double>> zoom_steps, zoom_lines;  // [from, to)
};

// The first option of `view` that reaches past a run of `steps` steps and `rows` lines, as a
// one-line message naming the option and its valid range; empty when everything fits. Without
// `rows` (not known before the run) the lines are not checked.
std::string start_view_error(const StartView& view, std::uint64_t steps, std::optional<std::uint64_t> rows);

}  // namespace cachesim::gui
