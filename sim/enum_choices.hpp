#pragma once
// One table per enum: each value with its name (as options and reports spell it) and a line of
// help. Names, parsing and help text all come from the table, so they cannot disagree.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cachesim {

template <class E>
struct EnumChoice {
    E value;
    std::string_view name;
    std::string_view help;
};

// Another spelling that parses to a value (names are what is printed; aliases are only read).
template <class E>
struct EnumAlias {
    std::string_view name;
    E value;
};

template <class E>
constexpr std::string_view choice_name(std::span<const EnumChoice<E>> table, E value) {
    for (const EnumChoice<E>& c : table)
        if (c.value == value) return c.name;
    return "?";
}

template <class E>
constexpr std::optional<E> parse_choice(std::span<const EnumChoice<E>> table, std::string_view text,
                                        std::span<const EnumAlias<E>> aliases = {}) {
    for (const EnumChoice<E>& c : table)
        if (c.name == text) return c.value;
    for (const EnumAlias<E>& a : aliases)
        if (a.name == text) return a.value;
    return std::nullopt;
}

// A choice's name and help without its enum type, for option help, --explain and the GUI.
struct ChoiceText {
    std::string_view name;
    std::string_view help;
};

template <class E>
std::vector<ChoiceText> choice_texts(std::span<const EnumChoice<E>> table) {
    std::vector<ChoiceText> texts;
    for (const EnumChoice<E>& c : table) texts.push_back({c.name, c.help});
    return texts;
}

// "a, b or c", for error messages.
inline std::string choice_list(std::span<const ChoiceText> choices) {
    std::string list;
    for (std::size_t i = 0; i < choices.size(); ++i) {
        if (i) list += i + 1 == choices.size() ? " or " : ", ";
        list += choices[i].name;
    }
    return list;
}

// "a (what a does) | b (what b does)", for option help.
inline std::string choice_help(std::span<const ChoiceText> choices) {
    std::string help;
    for (const ChoiceText& c : choices) {
        if (!help.empty()) help += " | ";
        help += c.name;
        if (!c.help.empty()) help += " (" + std::string(c.help) + ")";
    }
    return help;
}

}  // namespace cachesim
