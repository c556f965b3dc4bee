#pragma once
// The hint for a choice written in the wrong case ("unknown schedule 'Column:4' ... (did you mean
// column:4?)"). The code that rejects a value knows what it accepts, so it asks its own parser
// about the value in lower case; a value is never taken in another case silently.
#include <cctype>
#include <initializer_list>
#include <string>
#include <string_view>

#include "traces/input_error.hpp"

namespace cachesim {

inline std::string lowercase_text(std::string_view text) {
    std::string lower(text);
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return lower;
}

// " (did you mean column:4?)" when `text` has upper-case letters and `accepts` takes it in lower
// case; "" otherwise.
template <class Accepts>
std::string case_hint(std::string_view text, Accepts&& accepts) {
    const std::string lower = lowercase_text(text);
    if (lower == text || !accepts(std::string_view(lower))) return "";
    return " (did you mean " + lower + "?)";
}

// The same for a fixed list of names.
inline std::string case_hint(std::string_view text, std::initializer_list<std::string_view> names) {
    return case_hint(text, [&](std::string_view lower) {
        for (std::string_view name : names)
            if (name == lower) return true;
        return false;
    });
}

// Whether `parse` takes `text` without an InputError, for a parser that throws instead of
// returning nothing.
template <class Parse>
bool parses(Parse&& parse, std::string_view text) {
    try {
        parse(text);
        return true;
    } catch (const InputError&) {
        return false;
    }
}

}  // namespace cachesim
