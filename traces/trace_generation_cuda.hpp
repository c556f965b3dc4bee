#pragma once
// GPU backend of the trace generation (library cachesim_tracegen_cuda, built only with nvcc):
// the same functor through Thrust's CUDA system; records are copied back chunk by chunk.
#include "traces/trace_generation.hpp"

namespace cachesim {

// True when a CUDA device and driver are usable.
bool cuda_trace_generation_available();

// Throws std::runtime_error when no device is usable or a CUDA call fails, InputError for an
// invalid spec.
void generate_trace_cuda(const WorkloadSpec& spec, const TraceChunkSink& sink,
                         std::size_t records_per_chunk = kDefaultRecordsPerChunk);

}  // namespace cachesim
