#pragma once
#include <vector>

#include "sim/policies/policy.hpp"
#include "sim/set_scan.hpp"

namespace cachesim {

// Belady's optimal: evict the line whose next use lies furthest in the future. The next uses come
// from a pre-pass over this cache's own lookup stream (see sim/opt_oracle.hpp).
class OptPolicy {
public:
    static constexpr bool kHitIsIdempotent = false;  // every hit moves the line's next use
    void reset(const PolicyContext& c) {
        ways_ = c.ways;
        next_use_ = c.next_use;
        due_.assign(static_cast<std::size_t>(c.sets) * c.ways, kNeverUsedAgain);
    }
    void on_hit(std::uint32_t set, std::uint32_t way, std::uint64_t now) { record(set, way, now); }
    void on_fill(std::uint32_t set, std::uint32_t way, std::uint64_t now) { record(set, way, now); }
    void on_invalidate(std::uint32_t, std::uint32_t) {}
    Victim victim(std::uint32_t set, std::uint64_t) const {
        return {index_of_max(&due_[static_cast<std::size_t>(set) * ways_], ways_), 1};
    }

private:
    void record(std::uint32_t set, std::uint32_t way, std::uint64_t now) {
        due_[static_cast<std::size_t>(set) * ways_ + way] =
            (next_use_ && now < next_use_->size()) ? (*next_use_)[now] : kNeverUsedAgain;
    }
    std::uint32_t ways_ = 1;
    const std::vector<std::uint64_t>* next_use_ = nullptr;
    std::vector<std::uint64_t> due_;
};

}  // namespace cachesim
