#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "sim/enum_choices.hpp"

namespace cachesim {

enum class PolicyKind : std::uint8_t { lru, fifo, random, random4, plru, opt };

inline constexpr EnumChoice<PolicyKind> kPolicyChoices[] = {
    {PolicyKind::lru, "lru", "least recently used"},
    {PolicyKind::fifo, "fifo", "first in, first out"},
    {PolicyKind::random, "random", "a seeded random way"},
    {PolicyKind::random4, "random4", "a random aligned group of four lines (Volta, Turing L1)"},
    {PolicyKind::plru, "plru", "tree pseudo-LRU"},
    {PolicyKind::opt, "opt", "Belady's optimum (thread model only)"},
};

inline constexpr PolicyKind kAllPolicies[] = {PolicyKind::lru,     PolicyKind::fifo,
                                              PolicyKind::random,  PolicyKind::random4,
                                              PolicyKind::plru,    PolicyKind::opt};

std::string_view policy_name(PolicyKind kind);
std::optional<PolicyKind> parse_policy(std::string_view text);

}  // namespace cachesim
