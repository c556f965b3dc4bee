#pragma once
// How the parameter table's rows read and print their values: parsing with errors that name the
// option, and accessors bound to one GpuConfig member (used by sim/gpu/gpu_parameters.cpp only).
#include <cerrno>
#include <cstdlib>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "sim/enum_choices.hpp"
#include "sim/gpu/gpu_config.hpp"
#include "traces/choice_hint.hpp"
#include "traces/input_error.hpp"
#include "traces/workload_spec.hpp"

namespace cachesim::parameter_accessors {

[[noreturn]] inline void bad_value(std::string_view option, std::string_view expected, std::string_view text,
                                   std::string_view hint = {}) {
    throw InputError("--" + std::string(option) + ": expected " + std::string(expected) + ", not '" +
                     std::string(text) + "'" + std::string(hint));
}

inline std::uint64_t whole_number(std::string_view text, std::string_view option) {
    const bool digits = !text.empty() && text.size() <= 19 && text.find_first_not_of("0123456789") == std::string_view::npos;
    if (!digits) bad_value(option, "a whole number", text);
    return std::stoull(std::string(text));
}

inline std::uint32_t number32(std::uint64_t value, std::string_view text, std::string_view option) {
    if (value > std::numeric_limits<std::uint32_t>::max()) bad_value(option, "a smaller number", text);
    return static_cast<std::uint32_t>(value);
}

inline std::uint64_t byte_size(std::string_view text, std::string_view option) {
    return parse_size(text, "--" + std::string(option));
}

// A real number from lo to hi; `expected` names the accepted values in the message otherwise.
inline double real_in(std::string_view text, std::string_view option, double lo, double hi,
                      std::string_view expected) {
    const std::string s(text);
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size() || !(v >= lo && v <= hi)) bad_value(option, expected, text);
    return v;
}

// Six significant digits: 0.05, not 0.050000000000000003 (as the help shows it).
inline std::string short_real(double v) {
    std::ostringstream out;
    out << v;
    return out.str();
}

template <class E>
E choice_value(std::span<const EnumChoice<E>> table, std::string_view text, std::string_view option,
               std::span<const EnumAlias<E>> aliases = {}) {
    const std::optional<E> value = parse_choice<E>(table, text, aliases);
    if (!value)
        bad_value(option, choice_list(choice_texts<E>(table)), text,
                  case_hint(text, [&](std::string_view lower) { return parse_choice<E>(table, lower, aliases).has_value(); }));
    return *value;
}

// Accessors bound to one GpuConfig member.
template <auto Member>
std::string get_number(const GpuConfig& c) { return std::to_string(c.*Member); }
// A count with an "auto" value: "auto", or the count.
template <auto Member, std::uint32_t Automatic>
std::string get_count_or_auto(const GpuConfig& c) {
    return c.*Member == Automatic ? std::string("auto") : std::to_string(c.*Member);
}
template <auto Member>
void set_count32(GpuConfig& c, std::string_view text, std::string_view option) {
    c.*Member = number32(whole_number(text, option), text, option);
}
template <auto Member>
void set_bytes32(GpuConfig& c, std::string_view text, std::string_view option) {
    c.*Member = number32(byte_size(text, option), text, option);
}

// A real member that also takes "auto" (stored as `auto_value`): a number from lo to hi, and
// `expected` naming the accepted values in the message otherwise.
struct RealOrAuto {
    double auto_value, lo, hi;
    std::string_view expected;
};
template <auto Member, const RealOrAuto& R>
std::string get_real_or_auto(const GpuConfig& c) {
    return c.*Member == R.auto_value ? std::string("auto") : short_real(c.*Member);
}
template <auto Member, const RealOrAuto& R>
void set_real_or_auto(GpuConfig& c, std::string_view text, std::string_view option) {
    c.*Member = text == "auto" ? R.auto_value : real_in(text, option, R.lo, R.hi, R.expected);
}

template <auto Member, const auto& Table>
std::string get_choice(const GpuConfig& c) {
    using E = std::remove_cvref_t<decltype(c.*Member)>;
    return std::string(choice_name<E>(Table, c.*Member));
}
template <auto Member, const auto& Table>
void set_choice(GpuConfig& c, std::string_view text, std::string_view option) {
    using E = std::remove_cvref_t<decltype(c.*Member)>;
    c.*Member = choice_value<E>(Table, text, option);
}

template <class E, std::size_t N>
std::vector<ChoiceText> texts(const EnumChoice<E> (&table)[N]) { return choice_texts<E>(table); }

// The caches' fields: CacheConfig inside GpuConfig (l1 or l2).
template <CacheConfig GpuConfig::*Level, std::uint32_t CacheConfig::*Field>
std::string get_level_number(const GpuConfig& c) { return std::to_string((c.*Level).*Field); }
template <CacheConfig GpuConfig::*Level, std::uint32_t CacheConfig::*Field>
void set_level_count(GpuConfig& c, std::string_view text, std::string_view option) {
    (c.*Level).*Field = number32(whole_number(text, option), text, option);
}
template <CacheConfig GpuConfig::*Level>
std::string get_ways(const GpuConfig& c) { return (c.*Level).ways == 0 ? "full" : std::to_string((c.*Level).ways); }
template <CacheConfig GpuConfig::*Level>
void set_ways(GpuConfig& c, std::string_view text, std::string_view option) {
    if (text == "full") {
        (c.*Level).ways = 0;
        return;
    }
    const std::uint64_t ways = whole_number(text, option);
    if (ways == 0 || ways > (1ull << 31)) bad_value(option, "a positive number of ways or full", text);
    (c.*Level).ways = static_cast<std::uint32_t>(ways);
}
template <CacheConfig GpuConfig::*Level>
std::string get_policy(const GpuConfig& c) { return std::string(policy_name((c.*Level).policy)); }
template <CacheConfig GpuConfig::*Level>
void set_policy(GpuConfig& c, std::string_view text, std::string_view option) {
    (c.*Level).policy = choice_value<PolicyKind>(kPolicyChoices, text, option);
}

inline std::string carveouts_text(const GpuConfig& c) {
    std::string text;
    for (std::uint32_t kib : c.carveouts_kib) {
        if (!text.empty()) text += ',';
        text += std::to_string(kib);
    }
    return text;
}

inline void set_carveouts(GpuConfig& c, std::string_view text, std::string_view option) {
    std::vector<std::uint32_t> kib;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        const std::string_view part = text.substr(start, comma - start);
        const std::uint64_t v = byte_size(part, option);  // whole KiB; 0 allowed
        if (v > (1u << 20)) throw InputError("--" + std::string(option) + ": " + std::string(part) + " KiB is too large");
        kib.push_back(static_cast<std::uint32_t>(v));
        start = comma + 1;
    }
    c.carveouts_kib = std::move(kib);
}

// "auto" as `automatic`, or a count from `min` to `max`; anything else is refused naming both.
inline std::uint32_t count_or_auto(std::string_view text, std::string_view option, std::uint32_t min, std::uint32_t max,
                                   std::uint32_t automatic) {
    if (text == "auto") return automatic;
    const bool digits = !text.empty() && text.size() <= 9 && text.find_first_not_of("0123456789") == std::string_view::npos;
    const std::uint64_t v = digits ? std::stoull(std::string(text)) : 0;
    if (!digits || v < min || v > max)
        bad_value(option, "auto or a count from " + std::to_string(min) + " to " + std::to_string(max), text);
    return static_cast<std::uint32_t>(v);
}

inline void set_issue_burst(GpuConfig& c, std::string_view text, std::string_view option) {
    c.issue_burst = count_or_auto(text, option, 1, kMaxIssueBurst, kIssueBurstAuto);
}

inline void set_block_start_skip(GpuConfig& c, std::string_view text, std::string_view option) {
    c.block_start_skip = count_or_auto(text, option, 0, kMaxBlockStartSkip, kBlockStartSkipAuto);
}

inline void set_lockstep_warps(GpuConfig& c, std::string_view text, std::string_view option) {
    c.lockstep_warps = count_or_auto(text, option, 0, kMaxLockstepWarps, kLockstepWarpsAuto);
}

inline void set_warp_rate_spread(GpuConfig& c, std::string_view text, std::string_view option) {
    const std::string s(text);
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size() || errno == ERANGE) bad_value(option, "a number", text);
    c.warp_rate_spread = v;  // validate() checks the range
}

}  // namespace cachesim::parameter_accessors
