#pragma once
// The value of an option whose values come from an enum table (sim/enum_choices.hpp), with an
// error that lists the table's names when the text is none of them.
#include <span>
#include <string>
#include <string_view>

#include "sim/enum_choices.hpp"
#include "traces/choice_hint.hpp"
#include "traces/input_error.hpp"

namespace cachesim::cli {

template <class E>
E option_choice(std::span<const EnumChoice<E>> table, std::string_view option, const std::string& text) {
    if (const std::optional<E> value = parse_choice<E>(table, text)) return *value;
    throw InputError("--" + std::string(option) + ": expected " + choice_list(choice_texts<E>(table)) + ", not '" + text + "'" +
                     case_hint(text, [&](std::string_view lower) { return parse_choice<E>(table, lower).has_value(); }));
}

// "a (what a does) | b", the table's names and help for an option's description.
template <class E>
std::string option_choices_help(std::span<const EnumChoice<E>> table) {
    return choice_help(choice_texts<E>(table));
}

}  // namespace cachesim::cli
