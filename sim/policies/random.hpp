#pragma once
#include "sim/policies/policy.hpp"
#include "sim/rng.hpp"

namespace cachesim {

// Uniformly random victim among the ways of the set.
class RandomPolicy {
public:
    static constexpr bool kHitIsIdempotent = true;
    void reset(const PolicyContext& c) {
        ways_ = c.ways;
        rng_ = Rng(c.seed);
    }
    void on_hit(std::uint32_t, std::uint32_t, std::uint64_t) {}
    void on_fill(std::uint32_t, std::uint32_t, std::uint64_t) {}
    void on_invalidate(std::uint32_t, std::uint32_t) {}
    Victim victim(std::uint32_t, std::uint64_t) { return {rng_.below(ways_), 1}; }

private:
    std::uint32_t ways_ = 1;
    Rng rng_;
};

// Volta/Turing L1 as measured by Jia et al. (thesis 2.1.2): on a miss in a full set, one aligned
// group of 4 consecutive ways is chosen at random and all 4 of its lines are invalidated; the new
// line goes into the group, whose other ways then fill before the policy is asked again.
class Random4Policy {
public:
    static constexpr bool kHitIsIdempotent = true;
    void reset(const PolicyContext& c) {
        groups_ = c.ways / 4;
        rng_ = Rng(c.seed);
    }
    void on_hit(std::uint32_t, std::uint32_t, std::uint64_t) {}
    void on_fill(std::uint32_t, std::uint32_t, std::uint64_t) {}
    void on_invalidate(std::uint32_t, std::uint32_t) {}
    Victim victim(std::uint32_t, std::uint64_t) { return {rng_.below(groups_) * 4, 4}; }

private:
    std::uint32_t groups_ = 1;
    Rng rng_;
};

}  // namespace cachesim
