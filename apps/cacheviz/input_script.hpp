#pragma once
// Scripted input (cacheviz --script FILE) for tests and demos: synthetic SFML events fed through
// the same path as the window's own, at given frames. One event per line, '#' comments:
//   FRAME key NAME        press and release within the frame (NAME: Space, Left, Right, Home, End,
//                         Escape, Enter, Add, Subtract, Equal, Hyphen, or a letter A-Z; a
//                         "ctrl+" or "shift+" prefix holds that modifier)
//   FRAME down NAME | up NAME     the press or the release alone
//   FRAME move X Y        the mouse moves to window pixel (X, Y)
//   FRAME click X Y [right]       press and release there within the frame
//   FRAME press X Y [right] | release X Y [right]
//   FRAME wheel X Y DELTA
// FRAME counts from 0 (the events go in before that frame is built).
#include <SFML/Window/Event.hpp>
#include <string>
#include <vector>

namespace cachesim::gui {

struct ScriptedEvent {
    int frame = 0;
    sf::Event event{};
};

// Throws InputError naming the file and line.
std::vector<ScriptedEvent> parse_input_script(const std::string& text, const std::string& source);

}  // namespace cachesim::gui
