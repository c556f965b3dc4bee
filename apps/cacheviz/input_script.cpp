#include "apps/cacheviz/input_script.hpp"

#include <map>
#include <sstream>

#include "traces/input_error.hpp"

namespace cachesim::gui {

namespace {

sf::Keyboard::Key key_code(const std::string& name) {
    static const std::map<std::string, sf::Keyboard::Key> keys = {
        {"Space", sf::Keyboard::Space},   {"Left", sf::Keyboard::Left},         {"Right", sf::Keyboard::Right},
        {"Up", sf::Keyboard::Up},         {"Down", sf::Keyboard::Down},         {"Home", sf::Keyboard::Home},
        {"End", sf::Keyboard::End},       {"Escape", sf::Keyboard::Escape},     {"Enter", sf::Keyboard::Enter},
        {"Add", sf::Keyboard::Add},       {"Subtract", sf::Keyboard::Subtract}, {"Equal", sf::Keyboard::Equal},
        {"Hyphen", sf::Keyboard::Hyphen}, {"Tab", sf::Keyboard::Tab},           {"Backspace", sf::Keyboard::Backspace},
    };
    if (const auto it = keys.find(name); it != keys.end()) return it->second;
    if (name.size() == 1 && name[0] >= 'A' && name[0] <= 'Z') return static_cast<sf::Keyboard::Key>(sf::Keyboard::A + (name[0] - 'A'));
    return sf::Keyboard::Unknown;
}

}  // namespace

std::vector<ScriptedEvent> parse_input_script(const std::string& text, const std::string& source) {
    std::vector<ScriptedEvent> events;
    std::istringstream in(text);
    int number = 0;
    for (std::string line; std::getline(in, line);) {
        ++number;
        if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
        std::istringstream words(line);
        std::string verb;
        int frame = 0;
        if (!(words >> frame)) {
            if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
            throw InputError(source + ":" + std::to_string(number) + ": expected FRAME ACTION ..., got '" + line + "'");
        }
        const auto fail = [&](const std::string& what) {
            return InputError(source + ":" + std::to_string(number) + ": " + what + " in '" + line + "'");
        };
        if (frame < 0) throw fail("a negative frame");
        if (!(words >> verb)) throw fail("no action");
        const auto push = [&](const sf::Event& e) { events.push_back({frame, ScriptedEvent::Kind::event, e, {}}); };
        if (verb == "idle") {
            events.push_back({frame, ScriptedEvent::Kind::idle, {}, {}});
        } else if (verb == "snapshot") {
            std::string path;
            if (!(words >> path)) throw fail("no PATH");
            events.push_back({frame, ScriptedEvent::Kind::snapshot, {}, path});
        } else if (verb == "key" || verb == "down" || verb == "up") {
            std::string name;
            if (!(words >> name)) throw fail("no key name");
            sf::Event e{};
            e.key.control = e.key.shift = e.key.alt = e.key.system = false;
            for (const auto& [prefix, flag] : {std::pair<std::string, bool*>{"ctrl+", &e.key.control}, {"shift+", &e.key.shift}})
                if (name.rfind(prefix, 0) == 0) {
                    *flag = true;
                    name.erase(0, prefix.size());
                }
            e.key.code = key_code(name);
            if (e.key.code == sf::Keyboard::Unknown) throw fail("unknown key '" + name + "'");
            if (verb != "up") { e.type = sf::Event::KeyPressed; push(e); }
            if (verb != "down") { e.type = sf::Event::KeyReleased; push(e); }
        } else if (verb == "move" || verb == "click" || verb == "press" || verb == "release" || verb == "wheel") {
            int x = 0, y = 0;
            if (!(words >> x >> y)) throw fail("expected X Y");
            sf::Event e{};
            e.type = sf::Event::MouseMoved;
            e.mouseMove.x = x;
            e.mouseMove.y = y;
            push(e);
            if (verb == "move") continue;
            if (verb == "wheel") {
                float delta = 0;
                if (!(words >> delta)) throw fail("expected DELTA");
                sf::Event w{};
                w.type = sf::Event::MouseWheelScrolled;
                w.mouseWheelScroll.wheel = sf::Mouse::VerticalWheel;
                w.mouseWheelScroll.delta = delta;
                w.mouseWheelScroll.x = x;
                w.mouseWheelScroll.y = y;
                push(w);
                continue;
            }
            std::string button;
            words >> button;
            if (!button.empty() && button != "right" && button != "left") throw fail("unknown button '" + button + "'");
            sf::Event b{};
            b.mouseButton.button = button == "right" ? sf::Mouse::Right : sf::Mouse::Left;
            b.mouseButton.x = x;
            b.mouseButton.y = y;
            if (verb != "release") { b.type = sf::Event::MouseButtonPressed; push(b); }
            if (verb != "press") { b.type = sf::Event::MouseButtonReleased; push(b); }
        } else {
            throw fail("unknown action '" + verb + "'");
        }
    }
    return events;
}

}  // namespace cachesim::gui
