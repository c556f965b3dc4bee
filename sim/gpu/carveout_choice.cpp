#include "sim/gpu/carveout_choice.hpp"

#include <algorithm>
#include <string>

#include "sim/thread_model.hpp"

namespace cachesim {

namespace {

constexpr std::uint64_t kKib = 1024;

[[noreturn]] void fail(const std::string& message) { throw SimulationError(message); }

// The H200 driver's choices (tests/data/h200/smem/carveout*.csv; docs/fidelity-shared-memory.md, "Which carve-out
// the driver takes"). Without shared memory of the kernel's own, by warps a block:
struct NoSmemCarveout {
    std::uint32_t up_to_warps;
    std::uint64_t kib;
};
constexpr NoSmemCarveout kHopperNoSmem[] = {{15, 32}, {23, 16}, {32, 8}};
// With some, it provisions for twice the resident blocks (as many as an SM takes at most), for blocks of
// fewer warps than this ...
constexpr std::uint32_t kHopperTwiceBelowWarps = 30;
// ... but takes no more than this for the extra room (it takes more only where the resident blocks need it).
constexpr std::uint64_t kHopperRoomCapKib = 132;

// The smallest listed carve-out of at least `bytes` (within the unified array), or none (~0).
std::uint64_t smallest_holding(std::uint64_t bytes, const std::vector<std::uint32_t>& carveouts_kib,
                               std::uint64_t unified_bytes) {
    std::uint64_t best = ~0ull;
    for (std::uint32_t kib : carveouts_kib) {
        const std::uint64_t b = kib * kKib;
        if (b >= bytes && b < best && b <= unified_bytes) best = b;
    }
    return best;
}

// The largest listed carve-out of at most `bytes`, or 0.
std::uint64_t largest_within(std::uint64_t bytes, const std::vector<std::uint32_t>& carveouts_kib) {
    std::uint64_t best = 0;
    for (std::uint32_t kib : carveouts_kib)
        if (kib * kKib <= bytes) best = std::max<std::uint64_t>(best, kib * kKib);
    return best;
}

std::uint64_t hopper_room(const CarveoutLaunch& l, const std::vector<std::uint32_t>& carveouts_kib,
                          std::uint64_t unified_bytes) {
    if (l.smem_per_block == 0) {
        for (const NoSmemCarveout& n : kHopperNoSmem)
            if (l.warps_per_block <= n.up_to_warps) return n.kib * kKib;
        return kHopperNoSmem[std::size(kHopperNoSmem) - 1].kib * kKib;
    }
    const std::uint64_t largest = largest_within(unified_bytes, carveouts_kib);
    const std::uint64_t fitting = l.smem_block_total ? largest / l.smem_block_total : 0;
    std::uint64_t blocks = l.warps_per_block < kHopperTwiceBelowWarps ? 2ull * l.resident_blocks : l.resident_blocks;
    if (l.max_blocks_per_sm != 0) blocks = std::min<std::uint64_t>(blocks, l.max_blocks_per_sm);
    const std::uint64_t wanted = std::min(blocks, fitting) * l.smem_block_total;
    const std::uint64_t room = smallest_holding(wanted, carveouts_kib, unified_bytes);
    const std::uint64_t cap = kHopperRoomCapKib * kKib;
    return room <= cap ? room : largest_within(cap, carveouts_kib);
}

}  // namespace

std::uint64_t choose_carveout_bytes(CarveoutRule rule, const CarveoutLaunch& l,
                                    const std::vector<std::uint32_t>& carveouts_kib, std::uint64_t unified_bytes) {
    const std::uint64_t needed = std::uint64_t{l.resident_blocks} * l.smem_block_total;
    if (carveouts_kib.empty()) return needed;
    const std::uint64_t holding = smallest_holding(needed, carveouts_kib, unified_bytes);
    if (holding == ~0ull) fail("no shared-memory carve-out holds " + std::to_string(needed) + " bytes");
    if (rule == CarveoutRule::occupancy) return holding;
    // The driver's extra room is a carve-out too; never less than what the resident blocks need.
    const std::uint64_t room = smallest_holding(hopper_room(l, carveouts_kib, unified_bytes), carveouts_kib,
                                                unified_bytes);
    return room == ~0ull ? holding : std::max(holding, room);
}

}  // namespace cachesim
