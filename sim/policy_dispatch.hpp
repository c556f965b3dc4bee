#pragma once
// Chooses the policy type once per run: f.template operator()<Policy>() is instantiated per policy.
// A policy set names the type behind each kind; a model with its own versions of some derives
// from StandardPolicies and replaces those (Opt = void: the model does not offer OPT, and the
// caller must refuse it before dispatching).
#include <stdexcept>
#include <type_traits>

#include "sim/policies/fifo.hpp"
#include "sim/policies/lru.hpp"
#include "sim/policies/opt.hpp"
#include "sim/policies/plru.hpp"
#include "sim/policies/random.hpp"
#include "sim/policy_kind.hpp"

namespace cachesim {

struct StandardPolicies {
    using Lru = LruPolicy;
    using Fifo = FifoPolicy;
    using Random = RandomPolicy;
    using Random4 = Random4Policy;
    using Plru = PlruPolicy;
    using Opt = OptPolicy;
};

template <class Policies = StandardPolicies, class F>
decltype(auto) with_policy(PolicyKind kind, F&& f) {
    switch (kind) {
        case PolicyKind::fifo: return f.template operator()<typename Policies::Fifo>();
        case PolicyKind::random: return f.template operator()<typename Policies::Random>();
        case PolicyKind::random4: return f.template operator()<typename Policies::Random4>();
        case PolicyKind::plru: return f.template operator()<typename Policies::Plru>();
        case PolicyKind::opt:
            if constexpr (std::is_void_v<typename Policies::Opt>)
                throw std::logic_error("with_policy: this policy set has no OPT (refuse it before dispatching)");
            else
                return f.template operator()<typename Policies::Opt>();
        case PolicyKind::lru:
        default: return f.template operator()<typename Policies::Lru>();
    }
}

}  // namespace cachesim
