#pragma once
// Older warps first (GpuConfig::warp_age_weight): where a loop is bound by its instructions, not
// by memory, a warp scheduler nearly always has several warps ready and gives the slot to the
// oldest, so the warps it holds progress in the order they arrived instead of together. Under loose
// round robin with rates, a warp's rank counts the live warps of older blocks on its scheduler
// (warp slot mod schedulers_per_sm; a block's warps keep one pace, as on the chip) and moves up when
// one finishes; ranks below `group` run at their drawn rates and each rank beyond at the weight
// times the one before it: the chip keeps a group of its oldest warps together and leaves the
// younger blocks behind one by one, each slower than the last.
#include <cstdint>
#include <vector>

namespace cachesim {

class WarpAgeWeights {
public:
    // weight in (0, 1]; 1 leaves every rate as drawn (off), as does a group holding every rank.
    // Ranks 0..max_rank; rank r runs at weight^max(0, r - group + 1) of its drawn rate.
    void configure(double weight, std::uint32_t group, std::uint32_t max_rank);
    bool on() const { return !scale_.empty(); }
    // A drawn rate (fixed point, warp_rate.hpp) for a warp with `rank` live warps of older blocks on
    // its scheduler; at least 1, so that every warp still moves.
    std::uint64_t apply(std::uint64_t credit, std::uint32_t rank) const {
        const unsigned __int128 scaled = static_cast<unsigned __int128>(credit) * scale_[rank];
        const std::uint64_t rate = static_cast<std::uint64_t>(scaled >> 32);
        return rate ? rate : 1;
    }

private:
    std::vector<std::uint64_t> scale_;  // each rank's factor in 32.32 fixed point
};

// The pace of a block's warp against its block's (GpuConfig::warp_age_warm_step): with one rank a
// block, a warp whose scheduler holds `offset` more live warps of older blocks than the block's rank
// runs at step^offset of it (faster where the offset is negative). The chip keeps a block's warps
// together where they wait for the same DRAM sectors and lets them part a little where they read
// from the L2.
class WarpStepWeights {
public:
    // step in (0, 1); 1 (or above) leaves every rate as it is (off). Offsets -max_offset..max_offset.
    void configure(double step, std::uint32_t max_offset);
    bool on() const { return !scale_.empty(); }
    std::uint64_t apply(std::uint64_t rate, std::int64_t offset) const {
        const unsigned __int128 scaled =
            static_cast<unsigned __int128>(rate) * scale_[static_cast<std::size_t>(offset + max_offset_)];
        const std::uint64_t stepped = static_cast<std::uint64_t>(scaled >> 32);
        return stepped ? stepped : 1;
    }

private:
    std::int64_t max_offset_ = 0;
    std::vector<std::uint64_t> scale_;  // step^offset for offsets -max_offset_.., in 32.32 fixed point
};

}  // namespace cachesim
