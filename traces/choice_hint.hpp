#pragma once
// The hint for a choice written in the wrong case ("unknown schedule 'Column:4' ... (did you mean
// column:4?)"). The code that rejects a value knows what it accepts, so it asks its own parser
// about the value in lower case; a value is never taken in another case silently.
#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

// The edits (a letter inserted, deleted, replaced, or two neighbours swapped) that turn `a` into
// `b`, letters compared without their case.
inline std::size_t edit_distance(std::string_view a, std::string_view b) {
    const std::string x = lowercase_text(a), y = lowercase_text(b);
    std::vector<std::vector<std::size_t>> d(x.size() + 1, std::vector<std::size_t>(y.size() + 1));
    for (std::size_t i = 0; i <= x.size(); ++i) d[i][0] = i;
    for (std::size_t j = 0; j <= y.size(); ++j) d[0][j] = j;
    for (std::size_t i = 1; i <= x.size(); ++i)
        for (std::size_t j = 1; j <= y.size(); ++j) {
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (x[i - 1] != y[j - 1])});
            if (i > 1 && j > 1 && x[i - 1] == y[j - 2] && x[i - 2] == y[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[x.size()][y.size()];
}

// The name of `names` that `name` (an option's name without its dashes) is a slip of: at most two
// edits away, and fewer for a short name (--sms is one edit from --sm, not two from --l2).
template <class Names>
std::optional<std::string> closest_name(std::string_view name, const Names& names) {
    const std::size_t most = std::min<std::size_t>(2, name.size() / 3);
    std::optional<std::string> closest;
    std::size_t best = most + 1;
    for (const auto& known : names) {
        const std::size_t d = edit_distance(name, known);
        if (d < best) {
            best = d;
            closest = std::string(known);
        }
    }
    return closest;
}

}  // namespace cachesim
