#pragma once
// The shape of one cache level, validated once; set indexing without a division per access.
#include <cstdint>
#include <optional>
#include <string>

#include "sim/policy_kind.hpp"

namespace cachesim {

enum class WritePolicy : std::uint8_t {
    write_through_no_allocate,  // stores forwarded, contents untouched (GPU/thesis L1)
    write_back_allocate,        // stores allocate and dirty the line (L2, Dinero's default)
};

struct CacheConfig {
    std::string name = "L1";
    std::uint64_t size_bytes = 0;   // 0 disables the level
    std::uint32_t line_bytes = 64;
    std::uint32_t sector_bytes = 0; // 0: same as the line
    std::uint32_t ways = 0;         // 0: fully associative
    PolicyKind policy = PolicyKind::lru;
    WritePolicy write_policy = WritePolicy::write_back_allocate;

    bool enabled() const { return size_bytes != 0; }
};

// Derived, validated geometry of an enabled level.
struct CacheGeometry {
    std::uint64_t lines = 0;
    std::uint32_t ways = 0;
    std::uint32_t sets = 0;
    std::uint32_t line_bytes = 0;
    std::uint32_t sector_bytes = 0;
    std::uint32_t sectors_per_line = 1;
    std::uint32_t line_shift = 0;
    std::uint32_t sector_shift = 0;
};

// Returns the geometry, or a message naming what is impossible about the configuration.
struct GeometryResult {
    std::optional<CacheGeometry> geometry;
    std::string error;
};
GeometryResult make_geometry(const CacheConfig& config);

// line mod sets for any set count: a mask for powers of two, Lemire's fastmod otherwise.
class SetIndexer {
public:
    explicit SetIndexer(std::uint32_t sets = 1) : sets_(sets) {
        power_of_two_ = (sets & (sets - 1)) == 0;
        mask_ = sets - 1;
        magic_ = ~static_cast<unsigned __int128>(0) / sets + 1;
    }
    std::uint32_t operator()(std::uint64_t line) const {
        if (power_of_two_) return static_cast<std::uint32_t>(line & mask_);
        // fastmod for 64-bit numerators, 32-bit divisor (Lemire, Kaser, Kurz 2019).
        const unsigned __int128 low = magic_ * line;
        return static_cast<std::uint32_t>((static_cast<unsigned __int128>(
                                               static_cast<std::uint64_t>(low >> 64)) * sets_ +
                                           ((static_cast<unsigned __int128>(static_cast<std::uint64_t>(low)) * sets_) >> 64)) >> 64);
    }

private:
    std::uint32_t sets_;
    bool power_of_two_;
    std::uint64_t mask_;
    unsigned __int128 magic_;
};

}  // namespace cachesim
