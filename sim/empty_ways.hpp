#pragma once
// Which ways of each set are empty, as a bitmap with a count per set: the first empty way of a
// set without reading its tags, and nothing to read for a full set, which after its first misses
// is the rule. The GPU model's sectored caches and the thread model's caches with many ways
// (sim/cache.hpp) use it.
#include <bit>
#include <cstdint>

#include "sim/gpu/host_line_allocator.hpp"

namespace cachesim {

class EmptyWays {
public:
    static constexpr std::uint32_t kNone = ~0u;

    // The host memory reset(sets, ways) allocates.
    static std::uint64_t footprint_bytes(std::uint32_t sets, std::uint32_t ways) {
        return host_block_bytes(std::uint64_t{sets} * words_for(ways) * sizeof(std::uint64_t)) +
               host_block_bytes(std::uint64_t{sets} * sizeof(std::uint32_t));
    }

    // Every way of every set empty.
    void reset(std::uint32_t sets, std::uint32_t ways) {
        words_per_set_ = words_for(ways);
        bits_.assign(static_cast<std::size_t>(sets) * words_per_set_, ~0ull);
        if (ways % 64)  // the last word holds only the set's remaining ways
            for (std::uint32_t s = 0; s < sets; ++s) bits_[word(s, ways - 1)] = (1ull << (ways % 64)) - 1;
        empty_.assign(sets, ways);
    }
    // The lowest empty way of the set, or kNone.
    std::uint32_t first(std::uint32_t set) const {
        if (empty_[set] == 0) return kNone;
        const std::uint64_t* bits = &bits_[static_cast<std::size_t>(set) * words_per_set_];
        for (std::uint32_t w = 0; w < words_per_set_; ++w)
            if (bits[w]) return 64 * w + static_cast<std::uint32_t>(std::countr_zero(bits[w]));
        return kNone;
    }
    // An empty way takes a line.
    void fill(std::uint32_t set, std::uint32_t way) {
        bits_[word(set, way)] &= ~(1ull << (way % 64));
        --empty_[set];
    }
    // A full way loses its line.
    void empty(std::uint32_t set, std::uint32_t way) {
        bits_[word(set, way)] |= 1ull << (way % 64);
        ++empty_[set];
    }

private:
    static std::uint32_t words_for(std::uint32_t ways) { return (ways + 63) / 64; }
    std::size_t word(std::uint32_t set, std::uint32_t way) const {
        return static_cast<std::size_t>(set) * words_per_set_ + way / 64;
    }
    std::uint32_t words_per_set_ = 1;
    HostVector<std::uint64_t> bits_;   // per set: bit w set while way w is empty
    HostVector<std::uint32_t> empty_;  // per set: how many ways are empty
};

}  // namespace cachesim
