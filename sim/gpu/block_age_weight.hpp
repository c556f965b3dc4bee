#pragma once
// Older blocks first (GpuConfig::block_age_weight): where a loop is bound by its instructions,
// not by memory, a warp scheduler always has warps ready and gives the slot to the oldest, so the
// blocks an SM holds progress in the order they arrived instead of together. Under loose round
// robin with rates, each live block of the SM that is older than a warp's own block multiplies the
// warp's rate by the weight: the oldest block runs at its drawn rate, the next at weight times it,
// and so on. The rank is kept per residency slot and moves up when an older block finishes.
#include <cstdint>
#include <vector>

namespace cachesim {

class BlockAgeWeights {
public:
    // weight in (0, 1]; 1 leaves every rate as drawn (off). Ranks 0..max_rank.
    void configure(double weight, std::uint32_t max_rank);
    bool on() const { return !scale_.empty(); }
    // A drawn rate (fixed point, warp_rate.hpp) for a warp with `rank` older live blocks on its SM;
    // at least 1, so that every warp still moves.
    std::uint64_t apply(std::uint64_t credit, std::uint32_t rank) const {
        const unsigned __int128 scaled = static_cast<unsigned __int128>(credit) * scale_[rank];
        const std::uint64_t rate = static_cast<std::uint64_t>(scaled >> 32);
        return rate ? rate : 1;
    }

private:
    std::vector<std::uint64_t> scale_;  // weight^rank in 32.32 fixed point
};

}  // namespace cachesim
