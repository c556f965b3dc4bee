#pragma once
// Chooses the policy type once per run: f.template operator()<Policy>() is instantiated per policy.
#include "sim/policies/fifo.hpp"
#include "sim/policies/lru.hpp"
#include "sim/policies/opt.hpp"
#include "sim/policies/plru.hpp"
#include "sim/policies/random.hpp"
#include "sim/policy_kind.hpp"

namespace cachesim {

template <class F>
decltype(auto) with_policy(PolicyKind kind, F&& f) {
    switch (kind) {
        case PolicyKind::fifo: return f.template operator()<FifoPolicy>();
        case PolicyKind::random: return f.template operator()<RandomPolicy>();
        case PolicyKind::random4: return f.template operator()<Random4Policy>();
        case PolicyKind::plru: return f.template operator()<PlruPolicy>();
        case PolicyKind::opt: return f.template operator()<OptPolicy>();
        case PolicyKind::lru:
        default: return f.template operator()<LruPolicy>();
    }
}

}  // namespace cachesim
