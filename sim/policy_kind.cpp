#include "sim/policy_kind.hpp"

namespace cachesim {

std::string_view policy_name(PolicyKind kind) { return choice_name<PolicyKind>(kPolicyChoices, kind); }

std::optional<PolicyKind> parse_policy(std::string_view text) { return parse_choice<PolicyKind>(kPolicyChoices, text); }

}  // namespace cachesim
