#pragma once
// Our own glue between an SFML 2.5 window and Dear ImGui 1.86 (Debian's libimgui-dev): SFML
// events become ImGui input (the 1.86 KeyMap/KeysDown API), and ImGui's draw data is rendered with
// the OpenGL2 backend that ships in Debian's libimgui.a.
#include <SFML/Graphics/RenderWindow.hpp>
#include <SFML/Window/Event.hpp>

namespace cachesim::viz::gui {

// Creates the ImGui context for `window` (call once, with the window's GL context active).
void imgui_init(sf::RenderWindow& window);
// Feeds one SFML event to ImGui.
void imgui_process_event(const sf::Event& event);
// Starts an ImGui frame: display size, time step, modifier keys.
void imgui_new_frame(const sf::RenderWindow& window, float seconds_since_last_frame);
// Renders the frame's draw data into the window's current back buffer. Call ImGui::Render()
// first (it closes the frame).
void imgui_render(sf::RenderWindow& window);
void imgui_shutdown();

}  // namespace cachesim::viz::gui
