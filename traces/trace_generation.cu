// GPU backend of the trace generation: Thrust's CUDA system running the shared functor.
#include "traces/trace_generation_cuda.hpp"

#include <cuda_runtime_api.h>
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/system_error.h>
#include <thrust/transform.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "traces/trace_generation_functor.hpp"

namespace cachesim {

bool cuda_trace_generation_available() {
    int count = 0;
    return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

void generate_trace_cuda(const WorkloadSpec& spec, const TraceChunkSink& sink, std::size_t records_per_chunk) {
    validate(spec);
    if (!cuda_trace_generation_available())
        throw std::runtime_error("CUDA trace generation: no usable CUDA device");
    const std::uint64_t launches = spec.items();
    const std::uint32_t per_launch = spec.accesses_per_item();
    const std::uint64_t chunk_launches = launches_per_chunk(spec, records_per_chunk);
    try {
        thrust::device_vector<TraceRecord> device_records;
        std::vector<TraceRecord> records;
        with_trace_functor(spec, [&](const auto& record_at) {
            for (std::uint64_t first = 0; first < launches; first += chunk_launches) {
                const std::uint64_t count = std::min(chunk_launches, launches - first);
                device_records.resize(count * per_launch);
                records.resize(count * per_launch);
                const thrust::counting_iterator<std::uint64_t> begin(first * per_launch);
                thrust::transform(thrust::device, begin, begin + records.size(), device_records.begin(), record_at);
                thrust::copy(device_records.begin(), device_records.end(), records.begin());
                sink(TraceChunk{first, per_launch, records.data(), records.size()});
            }
        });
    } catch (const thrust::system_error& e) {
        throw std::runtime_error(std::string("CUDA trace generation failed: ") + e.what());
    }
}

}  // namespace cachesim
