#pragma once
// Load gates (cycle timing, GpuConfig::load_gates sass): inside one iteration of a compiled loop a
// warp issues its instructions in order, so a load that follows an add or multiply-add in the SASS
// cannot issue before the loads that add consumes have returned. gate[j] is how many of the
// iteration's first loads must have arrived before its load j issues (0: none). Read off gpubench's
// SASS (tests/data/h200/sass_loads.txt, sass_loads_variants.txt: L load, F add or multiply-add):
// a matmul multiply-add consumes two loads (A and B), a stencil add one (the first add two).
#include <cstdint>
#include <vector>

#include "sim/gpu/gpu_config.hpp"
#include "traces/workload_spec.hpp"

namespace cachesim {

// The gates of the loop's `burst` loads for the workload as compiled (GpuConfig::compilation);
// empty when no SASS of that loop was recorded (the warp then waits only at the burst's end).
std::vector<std::uint32_t> load_gates(const GpuConfig& config, const WorkloadSpec& spec, std::uint32_t burst);

// The gates of a loop body in SASS order ('L' load, 'F' add or multiply-add, others ignored), each
// F consuming `per_add` loads (the first `first_add`).
std::vector<std::uint32_t> gates_of(const char* body, std::uint32_t per_add, std::uint32_t first_add);

}  // namespace cachesim
