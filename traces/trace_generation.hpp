#pragma once
// Per-thread address traces of a workload and schedule, generated with Thrust from one functor
// (traces/trace_generation_functor.hpp) on the host here, or on the GPU through
// traces/trace_generation_cuda.hpp. Every backend produces the same bytes: records hold no
// uninitialised padding. Records arrive in launch order, in chunks of whole launches, for a trace
// writer to consume; nothing is held beyond one chunk.
#include <cstdint>
#include <functional>

#include "traces/workload_spec.hpp"

namespace cachesim {

// One access of one thread. The launch index is implicit: chunk.first_launch + i / per_launch.
struct TraceRecord {
    std::uint64_t address;
    std::uint32_t size;
    std::uint16_t array;
    std::uint8_t is_write;
    std::uint8_t reserved;  // always 0, so that records compare (and hash) byte for byte
};
static_assert(sizeof(TraceRecord) == 16, "TraceRecord must have no padding");

struct TraceChunk {
    std::uint64_t first_launch = 0;        // launch index of the first record
    std::uint32_t accesses_per_launch = 0;  // records per launch, the same for every launch
    const TraceRecord* records = nullptr;
    std::size_t count = 0;                 // a multiple of accesses_per_launch
};

using TraceChunkSink = std::function<void(const TraceChunk&)>;

// Chunks hold about this many records (at least one whole launch).
inline constexpr std::size_t kDefaultRecordsPerChunk = std::size_t{1} << 20;

// Launches per chunk for a workload, so that a chunk stays near `records_per_chunk`.
std::uint64_t launches_per_chunk(const WorkloadSpec& spec, std::size_t records_per_chunk);

// Host backend (Thrust's CPP system). Throws InputError for an invalid spec.
void generate_trace_host(const WorkloadSpec& spec, const TraceChunkSink& sink,
                         std::size_t records_per_chunk = kDefaultRecordsPerChunk);

}  // namespace cachesim
