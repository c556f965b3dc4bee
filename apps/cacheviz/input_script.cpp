#include "apps/cacheviz/input_script.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
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

// A whole word as an integer ("20right" is not one: the button would hide in the number).
bool whole_int(const std::string& word, int& value) {
    const char* end = word.data() + word.size();
    const auto [stop, error] = std::from_chars(word.data(), end, value);
    return error == std::errc() && stop == end;
}

bool whole_float(const std::string& word, float& value) {
    char* stop = nullptr;
    value = std::strtof(word.c_str(), &stop);
    return !word.empty() && stop == word.c_str() + word.size() && std::isfinite(value);
}

std::string joined(const std::vector<std::string>& words, std::size_t from, std::size_t to) {
    std::string text;
    for (std::size_t i = from; i < to; ++i) text += (i > from ? " " : "") + words[i];
    return text;
}

}  // namespace

std::vector<ScriptedEvent> parse_input_script(const std::string& text, const std::string& source) {
    std::vector<ScriptedEvent> events;
    std::istringstream in(text);
    int number = 0;
    for (std::string line; std::getline(in, line);) {
        ++number;
        if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
        std::vector<std::string> words;
        {
            std::istringstream split(line);
            for (std::string word; split >> word;) words.push_back(word);
        }
        if (words.empty()) continue;
        const auto fail = [&](const std::string& what) {
            return InputError(source + ":" + std::to_string(number) + ": " + what + " in '" + line + "'");
        };
        int frame = 0;
        if (!whole_int(words[0], frame))
            throw InputError(source + ":" + std::to_string(number) + ": expected FRAME ACTION ..., got '" + line + "'");
        if (frame < 0) throw fail("a negative frame");
        if (words.size() < 2) throw fail("no action");
        const std::string& verb = words[1];
        // words[used] is the first word the action has not taken; any left over is a mistake.
        std::size_t used = 2;
        const auto next_word = [&]() -> const std::string* { return used < words.size() ? &words[used++] : nullptr; };
        const auto push = [&](const sf::Event& e) { events.push_back({frame, ScriptedEvent::Kind::event, e, {}}); };
        if (verb == "idle") {
            events.push_back({frame, ScriptedEvent::Kind::idle, {}, {}});
        } else if (verb == "snapshot") {
            const std::string* path = next_word();
            if (!path) throw fail("no PATH");
            events.push_back({frame, ScriptedEvent::Kind::snapshot, {}, *path});
        } else if (verb == "key" || verb == "down" || verb == "up") {
            const std::string* word = next_word();
            if (!word) throw fail("no key name");
            std::string name = *word;
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
            const std::string* x_word = next_word();
            const std::string* y_word = next_word();
            if (!x_word || !y_word || !whole_int(*x_word, x) || !whole_int(*y_word, y)) throw fail("expected X Y");
            sf::Event e{};
            e.type = sf::Event::MouseMoved;
            e.mouseMove.x = x;
            e.mouseMove.y = y;
            push(e);
            if (verb == "wheel") {
                float delta = 0;
                const std::string* delta_word = next_word();
                if (!delta_word || !whole_float(*delta_word, delta)) throw fail("expected DELTA");
                sf::Event w{};
                w.type = sf::Event::MouseWheelScrolled;
                w.mouseWheelScroll.wheel = sf::Mouse::VerticalWheel;
                w.mouseWheelScroll.delta = delta;
                w.mouseWheelScroll.x = x;
                w.mouseWheelScroll.y = y;
                push(w);
            } else if (verb != "move") {
                const std::string* word = next_word();
                const std::string button = word ? *word : std::string();
                if (!button.empty() && button != "right" && button != "left") throw fail("unknown button '" + button + "'");
                sf::Event b{};
                b.mouseButton.button = button == "right" ? sf::Mouse::Right : sf::Mouse::Left;
                b.mouseButton.x = x;
                b.mouseButton.y = y;
                if (verb != "release") { b.type = sf::Event::MouseButtonPressed; push(b); }
                if (verb != "press") { b.type = sf::Event::MouseButtonReleased; push(b); }
            }
        } else {
            throw fail("unknown action '" + verb + "'");
        }
        if (used < words.size())
            throw fail("unexpected '" + joined(words, used, words.size()) + "' after '" + joined(words, 1, used) + "'");
    }
    return events;
}

}  // namespace cachesim::gui
