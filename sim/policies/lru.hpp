#pragma once
#include <algorithm>
#include <utility>
#include <vector>

#include "sim/policies/policy.hpp"
#include "sim/set_scan.hpp"

namespace cachesim {

// Least recently used: a timestamp per way; the victim has the oldest one.
class LruPolicy {
public:
    static constexpr bool kHitIsIdempotent = true;  // re-touching the MRU line changes nothing
    void reset(const PolicyContext& c) {
        ways_ = c.ways;
        stamp_.assign(static_cast<std::size_t>(c.sets) * c.ways, 0);
        clock_ = 0;
    }
    void on_hit(std::uint32_t set, std::uint32_t way, std::uint64_t) { touch(set, way); }
    void on_fill(std::uint32_t set, std::uint32_t way, std::uint64_t) { touch(set, way); }
    void on_invalidate(std::uint32_t, std::uint32_t) {}
    Victim victim(std::uint32_t set, std::uint64_t) const {
        return {index_of_min(&stamp_[static_cast<std::size_t>(set) * ways_], ways_), 1};
    }

private:
    void touch(std::uint32_t set, std::uint32_t way) {
        if (++clock_ == 0) renumber_stamps(stamp_, ways_, clock_);
        stamp_[static_cast<std::size_t>(set) * ways_ + way] = clock_;
    }
    std::uint32_t ways_ = 1;
    std::uint32_t clock_ = 0;
    std::vector<std::uint32_t> stamp_;
};

}  // namespace cachesim
