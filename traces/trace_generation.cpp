// Host backend of the trace generation: Thrust's CPP system, compiled by the C++ compiler.
#include "traces/trace_generation.hpp"

#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform.h>

#include <algorithm>
#include <vector>

#include "traces/trace_generation_functor.hpp"

namespace cachesim {

std::uint64_t launches_per_chunk(const WorkloadSpec& spec, std::size_t records_per_chunk) {
    const std::uint64_t per_launch = spec.accesses_per_item();
    return std::max<std::uint64_t>(1, records_per_chunk / per_launch);
}

void generate_trace_host(const WorkloadSpec& spec, const TraceChunkSink& sink, std::size_t records_per_chunk) {
    validate(spec);
    const std::uint64_t launches = spec.items();
    const std::uint32_t per_launch = spec.accesses_per_item();
    const std::uint64_t chunk_launches = launches_per_chunk(spec, records_per_chunk);
    std::vector<TraceRecord> records;
    with_trace_functor(spec, [&](const auto& record_at) {
        for (std::uint64_t first = 0; first < launches; first += chunk_launches) {
            const std::uint64_t count = std::min(chunk_launches, launches - first);
            records.resize(count * per_launch);
            const thrust::counting_iterator<std::uint64_t> begin(first * per_launch);
            thrust::transform(thrust::host, begin, begin + records.size(), records.begin(), record_at);
            sink(TraceChunk{first, per_launch, records.data(), records.size()});
        }
    });
}

}  // namespace cachesim
