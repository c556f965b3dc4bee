#pragma once
// Which slice of the L2 (L2System::split) an L2 event's line belongs to: slices are runs of
// consecutive sets (set x slices / sets), so that threads playing different slices write to
// different host cache lines. A value the SM front ends copy, so that they can sort their events
// by slice as they record them.
#include <cstdint>

#include "sim/geometry.hpp"
#include "sim/gpu/sector_cache.hpp"

namespace cachesim {

class L2Slicing {
public:
    L2Slicing() = default;  // one slice
    // set_of: the L2 partitions' set mapping; line_shift, sector_shift: the L2's.
    // sets: of each partition (at least `slices`).
    L2Slicing(std::uint32_t slices, std::uint32_t sets, const SetMapping& set_of, std::uint32_t line_shift,
              std::uint32_t sector_shift)
        : slices_(slices), per_set_((static_cast<std::uint64_t>(slices) << 32) / sets), set_of_(set_of),
          line_shift_(line_shift), sectors_per_line_shift_(line_shift - sector_shift) {}

    std::uint32_t slices() const { return slices_; }
    bool sliced() const { return slices_ > 1; }
    // set x slices / sets, rounded down (monotone in the set, below slices).
    std::uint32_t of_set(std::uint32_t set) const { return static_cast<std::uint32_t>((set * per_set_) >> 32); }
    std::uint32_t of_line(std::uint64_t l2_line) const { return of_set(set_of_(l2_line)); }
    // A load event carries the L1 sector's address, a store event the L2 sector.
    std::uint32_t of_load(std::uint64_t address) const { return of_line(address >> line_shift_); }
    std::uint32_t of_store(std::uint64_t sector_id) const { return of_line(sector_id >> sectors_per_line_shift_); }

private:
    std::uint32_t slices_ = 1;
    std::uint64_t per_set_ = 0;  // 2^32 x slices / sets
    SetMapping set_of_;
    std::uint32_t line_shift_ = 7, sectors_per_line_shift_ = 2;
};

}  // namespace cachesim
