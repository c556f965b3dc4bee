#pragma once
// The replacement-policy interface (after DynamoRIO's drcachesim), as a compile-time contract:
//   void reset(const PolicyContext&);
//   void on_hit(set, way, now);      a lookup found the line
//   void on_fill(set, way, now);     a new line was placed in an invalid way
//   void on_invalidate(set, way);    the line left the cache
//   Victim victim(set, now);         which ways to empty when the set is full
// The cache fills invalid ways itself before asking for a victim. `now` is the cache's own
// lookup counter, which Belady's OPT uses to find the next use of the line.
#include <cstdint>
#include <vector>

namespace cachesim {

struct Victim {
    std::uint32_t first_way;
    std::uint32_t count;  // ways [first_way, first_way+count) are emptied; the new line goes first
};

struct PolicyContext {
    std::uint32_t sets = 1;
    std::uint32_t ways = 1;
    std::uint64_t seed = 1;
    // OPT only: for lookup i of this cache, the lookup index of the same line's next use.
    const std::vector<std::uint64_t>* next_use = nullptr;
};

inline constexpr std::uint64_t kNeverUsedAgain = ~0ull;

}  // namespace cachesim
