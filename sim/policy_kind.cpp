#include "sim/policy_kind.hpp"

namespace cachesim {

std::string_view policy_name(PolicyKind kind) {
    switch (kind) {
        case PolicyKind::lru: return "lru";
        case PolicyKind::fifo: return "fifo";
        case PolicyKind::random: return "random";
        case PolicyKind::random4: return "random4";
        case PolicyKind::plru: return "plru";
        case PolicyKind::opt: return "opt";
    }
    return "?";
}

std::optional<PolicyKind> parse_policy(std::string_view text) {
    for (PolicyKind kind : kAllPolicies)
        if (policy_name(kind) == text) return kind;
    return std::nullopt;
}

}  // namespace cachesim
