#pragma once
// Our own glue between an SFML 2.5 window and Dear ImGui 1.86 (Debian's libimgui-dev): SFML
// events become ImGui input (the 1.86 KeyMap/KeysDown API), and ImGui's draw data is rendered with
// the OpenGL2 backend that ships in Debian's libimgui.a.
#include <SFML/Graphics/RenderWindow.hpp>
#include <SFML/Window/Event.hpp>

namespace cachesim::viz::gui {

// Creates the ImGui context for `window` (call once, with the window's GL context active).
void imgui_init(sf::RenderWindow& window);
// Feeds one SFML event to ImGui. Events are applied when the next frame starts, each button or
// key changing at most once per frame: a press and its release within one frame are seen as down
// for one frame, then up in the next (the rest of the queue waits a frame).
void imgui_process_event(const sf::Event& event);
// True while queued events wait for a later frame.
bool imgui_input_pending();
// Starts an ImGui frame: display size, time step, modifier keys.
void imgui_new_frame(const sf::RenderWindow& window, float seconds_since_last_frame);
// Renders the frame's draw data into the window's current back buffer. Call ImGui::Render()
// first (it closes the frame).
void imgui_render(sf::RenderWindow& window);
void imgui_shutdown();
// Modifier keys only from events (not also polled from the keyboard each frame): for scripted
// input, whose synthetic events the real keyboard knows nothing of.
void imgui_take_modifiers_from_events_only();

}  // namespace cachesim::viz::gui
