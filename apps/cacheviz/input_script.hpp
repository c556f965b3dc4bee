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
//   FRAME idle            the script waits here until no simulation runs (later frames count on
//                         from when it goes on)
//   FRAME snapshot PATH   after that frame is drawn, save the window to PATH.png and the state
//                         (as --state writes it) to PATH.txt, whether or not simulations run
// FRAME counts from 0 (the events go in before that frame is built).
#include <SFML/Window/Event.hpp>
#include <string>
#include <vector>

namespace cachesim::gui {

struct ScriptedEvent {
    enum class Kind { event, idle, snapshot };
    int frame = 0;
    Kind kind = Kind::event;
    sf::Event event{};
    std::string path;  // snapshot
};

// Throws InputError naming the file and line: an unknown action, key or button, a missing or
// malformed number (numbers are whole words), a word left after the action's own.
std::vector<ScriptedEvent> parse_input_script(const std::string& text, const std::string& source);

}  // namespace cachesim::gui
