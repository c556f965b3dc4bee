#pragma once
// Drives a single Cache<Policy> with a sequence of line numbers and reports hits and misses.
#include <string>
#include <vector>

#include "sim/cache.hpp"
#include "sim/geometry.hpp"

namespace cachesim::test {

inline CacheGeometry geometry_for(std::uint64_t lines, std::uint32_t ways, PolicyKind policy,
                                  std::uint32_t line_bytes = 16) {
    CacheConfig c;
    c.size_bytes = lines * line_bytes;
    c.line_bytes = line_bytes;
    c.ways = ways;
    c.policy = policy;
    return *make_geometry(c).geometry;
}

// Returns "h"/"m" per access, e.g. "mmhmm".
template <class Policy>
std::string replay_lines(Cache<Policy>& cache, const std::vector<std::uint64_t>& lines) {
    std::string pattern;
    for (std::uint64_t line : lines) pattern += cache.access(line, 0, false, true).hit ? 'h' : 'm';
    return pattern;
}

}  // namespace cachesim::test
