#pragma once
// Which ways of each set are empty, as a bitmap, for sets with many ways whose lines are found
// through an index rather than a scan (sim/cache.hpp): the first empty way of a set without
// reading its tags, and nothing to do for a full set, which after its first misses is the rule.
#include <bit>
#include <cstdint>
#include <vector>

namespace cachesim {

class EmptyWays {
public:
    static constexpr std::uint32_t kNone = ~0u;

    void reset(std::uint32_t sets, std::uint32_t ways) {
        words_per_set_ = (ways + 63) / 64;
        bits_.assign(static_cast<std::size_t>(sets) * words_per_set_, ~0ull);
        if (ways % 64)  // the last word holds only the set's remaining ways
            for (std::uint32_t s = 0; s < sets; ++s) bits_[word(s, ways - 1)] = (1ull << (ways % 64)) - 1;
        empty_.assign(sets, ways);
    }
    // The lowest empty way of the set, or kNone.
    std::uint32_t first(std::uint32_t set) const {
        if (empty_[set] == 0) return kNone;
        const std::uint64_t* bits = &bits_[static_cast<std::size_t>(set) * words_per_set_];
        for (std::uint32_t w = 0;; ++w)
            if (bits[w]) return 64 * w + static_cast<std::uint32_t>(std::countr_zero(bits[w]));
    }
    void fill(std::uint32_t set, std::uint32_t way) {
        bits_[word(set, way)] &= ~(1ull << (way % 64));
        --empty_[set];
    }
    void empty(std::uint32_t set, std::uint32_t way) {
        bits_[word(set, way)] |= 1ull << (way % 64);
        ++empty_[set];
    }

private:
    std::size_t word(std::uint32_t set, std::uint32_t way) const {
        return static_cast<std::size_t>(set) * words_per_set_ + way / 64;
    }
    std::uint32_t words_per_set_ = 1;
    std::vector<std::uint64_t> bits_;   // per set: bit w set while way w is empty
    std::vector<std::uint32_t> empty_;  // per set: how many ways are empty
};

}  // namespace cachesim
