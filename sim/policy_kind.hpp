#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cachesim {

enum class PolicyKind : std::uint8_t { lru, fifo, random, random4, plru, opt };

inline constexpr PolicyKind kAllPolicies[] = {PolicyKind::lru,     PolicyKind::fifo,
                                              PolicyKind::random,  PolicyKind::random4,
                                              PolicyKind::plru,    PolicyKind::opt};

std::string_view policy_name(PolicyKind kind);
std::optional<PolicyKind> parse_policy(std::string_view text);

}  // namespace cachesim
