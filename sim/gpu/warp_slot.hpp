#pragma once
// A warp slot of an SM as the schedulers see it: which warp holds it and how far it has come.
#include <cstdint>

namespace cachesim {

// Fixed point of the warp rate spread's credits: one request (kept here so a slot's defaults
// need no other header).
inline constexpr std::uint64_t kWarpCreditOne = 1ull << 32;

struct WarpSlot {
    std::uint64_t age = 0;         // dispatch order (GTO's "oldest")
    std::uint64_t block = 0;       // launch block index
    std::uint32_t k = 0;           // next request
    std::uint32_t lanes = 0;       // active lanes; 0 = empty slot
    std::uint32_t block_slot = 0;  // global index of its block's residency slot
    bool stalled = false;          // GTO: its last request missed in L1
    // Rate spread (lrr): what a turn of the round robin adds to its credit, and the credit; it
    // issues when the credit reaches kWarpCreditOne.
    std::uint64_t rate = kWarpCreditOne, credit = kWarpCreditOne;
    std::uint32_t skip = 0;  // turns of the round robin still to pass it over (block start skip)
    std::uint32_t requests = 0;  // requests the warp makes in all

    bool live() const { return lanes != 0; }
};

inline constexpr std::uint32_t kNoWarp = ~0u;

}  // namespace cachesim
