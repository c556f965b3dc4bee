#include "apps/common/config_origins.hpp"

#include <cctype>
#include <mutex>

#include "sim/text.hpp"

namespace cachesim::cli {

namespace {

std::mutex origins_mutex;
std::vector<ConfigOrigin>& origins() {
    static std::vector<ConfigOrigin> remembered;
    return remembered;
}

bool is_about_value(std::string_view message, const std::string& value) {
    if (value.empty()) return false;
    return message.find("'" + value + "'") != std::string_view::npos || message.starts_with(value + ": ");
}

}  // namespace

std::size_t option_named_at(std::string_view message, std::string_view name) {
    const std::string option = "--" + std::string(name);
    for (std::size_t at = message.find(option); at != std::string_view::npos; at = message.find(option, at + 1)) {
        const std::size_t end = at + option.size();
        if (end == message.size()) return at;
        const char next = message[end];
        if (!std::isalnum(static_cast<unsigned char>(next)) && next != '-' && next != '_') return at;
    }
    return std::string_view::npos;
}

int config_line_of(std::string_view text, std::string_view name) {
    int line = 0;
    while (!text.empty()) {
        ++line;
        const std::size_t end = text.find('\n');
        const std::string_view row = text.substr(0, end);
        text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
        const std::size_t equals = row.find('=');
        if (equals != std::string_view::npos && trim_blanks(row.substr(0, equals)) == name) return line;
    }
    return 0;
}

void remember_config_origins(std::vector<ConfigOrigin> given) {
    const std::lock_guard lock(origins_mutex);
    origins() = std::move(given);
}

std::string config_origin_note(std::string_view message) {
    const std::lock_guard lock(origins_mutex);
    for (const ConfigOrigin& o : origins())
        if (option_named_at(message, o.name) != std::string_view::npos || is_about_value(message, o.value)) {
            std::string note = " (set in --config " + o.file;
            if (o.line > 0) note += " line " + std::to_string(o.line);
            return note + ": " + o.name + " = " + o.value + ")";
        }
    return "";
}

std::string config_origin_of(std::string_view name) {
    const std::lock_guard lock(origins_mutex);
    for (const ConfigOrigin& o : origins())
        if (o.name == name) return "--config " + o.file + (o.line > 0 ? " line " + std::to_string(o.line) : "");
    return "";
}

}  // namespace cachesim::cli
