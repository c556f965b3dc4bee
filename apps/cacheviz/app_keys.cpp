// Keyboard shortcuts (docs/gui.md has the table). ImGui's KeysDown is indexed by SFML key code
// (viz/gui/imgui_sfml.cpp), so the keys are named by their SFML codes.
#include <SFML/Window/Keyboard.hpp>
#include <imgui.h>

#include <algorithm>

#include "apps/cacheviz/app.hpp"

namespace cachesim::gui {

void App::handle_keys() {
    const ImGuiIO& io = ImGui::GetIO();
    const auto pressed = [](sf::Keyboard::Key k, bool repeat = false) { return ImGui::IsKeyPressed(k, repeat); };
    if (pressed(sf::Keyboard::Escape) || (io.KeyCtrl && pressed(sf::Keyboard::Q))) quit_requested_ = true;
    if (io.KeyCtrl && pressed(sf::Keyboard::S)) save_request_ = options_.save_path;
    if (io.WantTextInput || io.KeyCtrl) return;  // typing in a field, or a Ctrl shortcut
    const std::uint64_t steps = total_steps();
    const std::uint64_t stride = io.KeyShift ? 10 : 1;
    if (pressed(sf::Keyboard::Space)) view_.playing = !view_.playing;
    if (pressed(sf::Keyboard::Right, true) && steps) {
        view_.playing = false;
        view_.playhead = std::min(view_.playhead + stride, steps - 1);
    }
    if (pressed(sf::Keyboard::Left, true)) {
        view_.playing = false;
        view_.playhead = view_.playhead > stride ? view_.playhead - stride : 0;
    }
    if (pressed(sf::Keyboard::Home)) view_.playhead = 0;
    if (pressed(sf::Keyboard::End) && steps) view_.playhead = steps - 1;
    if (pressed(sf::Keyboard::F)) {
        user_moved_view();
        fit_view();
    }
    if (pressed(sf::Keyboard::D) && compare_) show_difference_ = !show_difference_;
    const bool zoom_in = pressed(sf::Keyboard::Equal, true) || pressed(sf::Keyboard::Add, true);
    const bool zoom_out = pressed(sf::Keyboard::Hyphen, true) || pressed(sf::Keyboard::Subtract, true);
    if (zoom_in || zoom_out) {
        // About the centre, on both axes, as two wheel notches.
        const double f = zoom_in ? 0.85 * 0.85 : 1 / (0.85 * 0.85);
        const double tc = (view_.t0 + view_.t1) / 2, rc = (view_.r0 + view_.r1) / 2;
        view_.t0 = tc - (tc - view_.t0) * f;
        view_.t1 = tc + (view_.t1 - tc) * f;
        view_.r0 = rc - (rc - view_.r0) * f;
        view_.r1 = rc + (view_.r1 - rc) * f;
        user_moved_view();
        clamp_view();
    }
}

}  // namespace cachesim::gui
