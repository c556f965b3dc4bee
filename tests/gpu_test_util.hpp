#pragma once
// Workloads for the GPU-model tests: a matmul or a box stencil of a given size and schedule.
#include <cstdint>

#include "traces/workload_spec.hpp"

namespace cachesim::test {

inline WorkloadSpec matmul(std::uint32_t w, std::uint32_t h, std::uint32_t depth, const char* schedule = "linear") {
    WorkloadSpec s;
    s.kind = WorkloadKind::matmul;
    s.width = w;
    s.height = h;
    s.depth = depth;
    s.schedule = parse_schedule(schedule);
    return s;
}

inline WorkloadSpec stencil(std::uint32_t w, std::uint32_t h, std::uint32_t box, const char* schedule = "linear") {
    WorkloadSpec s;
    s.kind = WorkloadKind::stencil;
    s.width = w;
    s.height = h;
    s.stencil_w = s.stencil_h = box;
    s.schedule = parse_schedule(schedule);
    return s;
}

}  // namespace cachesim::test
