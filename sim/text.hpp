#pragma once
// Small text helpers shared by the readers of user files.
#include <string_view>

namespace cachesim {

// `s` without leading and trailing blanks: spaces, tabs and the carriage return of a CRLF line.
inline std::string_view trim_blanks(std::string_view s) {
    const std::size_t first = s.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) return {};
    return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

}  // namespace cachesim
