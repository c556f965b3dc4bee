#pragma once
// Counters of one cache level: plain data, printed by separate reporters.
#include <cstdint>
#include <string>
#include <vector>

#include "sim/reuse_distance.hpp"
#include "traces/access_source.hpp"

namespace cachesim {

// One array's accesses at one level. A host cache line each: the GPU model's threads each write
// their own at every request, and small vectors of them, made one after another, would otherwise
// share lines across threads.
struct alignas(64) ArrayCounters {
    std::uint64_t reads = 0, read_misses = 0, writes = 0, write_misses = 0;
};

struct LevelStats {
    std::string name;
    // Lookups. At a write-through, no-write-allocate level, stores are forwarded without a
    // lookup: they count in `writes_forwarded`, not in reads/writes.
    std::uint64_t reads = 0, read_hits = 0, read_misses = 0;
    std::uint64_t writes = 0, write_hits = 0, write_misses = 0;
    std::uint64_t writes_forwarded = 0;
    std::uint64_t evictions = 0;  // valid lines removed to make room
    std::uint64_t writebacks = 0;  // dirty sectors written to the level below
    std::uint64_t bytes_from_below = 0;  // fills
    std::uint64_t bytes_to_below = 0;    // write-backs and forwarded stores
    // Miss classes (3C): compulsory = first touch of the line; capacity = a fully associative LRU
    // cache of the same size would miss too; conflict = the rest.
    std::uint64_t compulsory = 0, capacity = 0, conflict = 0;
    bool classified = false;
    // The SHARDS rate the analysis sampled lines at (0: every line). When sampled, the reuse
    // histogram and the miss classes are estimates (sample counts scaled by 1 / rate).
    double reuse_sample = 0;
    std::vector<ArrayCounters> per_array;
    ReuseHistogram reuse;

    std::uint64_t accesses() const { return reads + writes; }
    std::uint64_t hits() const { return read_hits + write_hits; }
    std::uint64_t misses() const { return read_misses + write_misses; }
    double hit_rate() const {
        return accesses() == 0 ? 0.0 : static_cast<double>(hits()) / static_cast<double>(accesses());
    }
};

struct SimulationResult {
    std::uint64_t accesses = 0;  // thread-level accesses replayed
    std::uint64_t reads = 0, writes = 0;
    std::uint64_t steps = 0;     // work items (thread model) or trace records
    std::vector<LevelStats> levels;  // enabled levels, top first
    std::uint64_t memory_bytes_read = 0, memory_bytes_written = 0;
    std::vector<ArrayInfo> arrays;
    double seconds = 0;  // simulation time, excluding set-up and reporting
    double accesses_per_second() const { return seconds > 0 ? accesses / seconds : 0.0; }
};

}  // namespace cachesim
