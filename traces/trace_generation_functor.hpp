#pragma once
// The one functor every trace-generation backend runs: flattened record index
// (launch index * accesses per launch + k) -> launch index -> work item (the schedule) -> its
// k-th access (the workload) -> a TraceRecord. Plain __host__ __device__ code.
#include <cstdint>

#include "traces/hd.hpp"
#include "traces/schedule.hpp"
#include "traces/trace_generation.hpp"
#include "traces/workload.hpp"

namespace cachesim {

template <class Workload>
struct TraceRecordAt {
    Workload workload;
    Schedule schedule;
    std::uint32_t width, height;
    std::uint32_t per_launch;

    CACHESIM_HD TraceRecord operator()(std::uint64_t record_index) const {
        const std::uint64_t launch = record_index / per_launch;
        const std::uint32_t k = static_cast<std::uint32_t>(record_index - launch * per_launch);
        const Access a = workload.access(schedule_map(schedule, launch, width, height), k);
        TraceRecord r;
        r.address = a.address;
        r.size = a.size;
        r.array = a.array;
        r.is_write = a.is_write ? 1 : 0;
        r.reserved = 0;
        return r;
    }
};

// Calls body(functor) with the functor of the spec's workload kind.
template <class Body>
void with_trace_functor(const WorkloadSpec& spec, Body&& body) {
    const std::uint32_t per_launch = spec.accesses_per_item();
    if (spec.kind == WorkloadKind::stencil)
        body(TraceRecordAt<StencilWorkload>{spec.stencil(), spec.schedule, spec.width, spec.height, per_launch});
    else
        body(TraceRecordAt<MatmulWorkload>{spec.matmul(), spec.schedule, spec.width, spec.height, per_launch});
}

}  // namespace cachesim
