#pragma once
namespace cachesim {

// True least-recently-used replacement. It needs no hooks of its own: Cache<LruPolicy> is
// specialised (sim/lru_cache.hpp, brought in by sim/cache.hpp) to keep each set as a recency
// ring, where the order of the ways is itself the replacement state.
struct LruPolicy {};

}  // namespace cachesim
