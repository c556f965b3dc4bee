#pragma once
// Issue bursts (GpuConfig::issue_burst): under loose round robin a warp keeps the turn for a group
// of requests in a row (the loads the compiler hoisted ahead of their first use), then passes it on.
#include <cstdint>

#include "sim/gpu/gpu_config.hpp"
#include "sim/gpu/warp_slot.hpp"
#include "traces/workload_spec.hpp"

namespace cachesim {

// The requests a warp issues per turn of the round robin (GpuConfig::issue_burst, "auto" resolved
// for the workload); 1 under gto, which issues greedily anyway. `spec` is null for a launch whose
// workload is unknown (a recorded kernel), whose "auto" is 1: how its loops were compiled is not in
// the trace.
std::uint32_t issue_burst_for(const GpuConfig& config, const WorkloadSpec* spec);
// The loads of one iteration of gpubench's loop for this workload as `compilation` compiles it.
std::uint32_t compiled_loop_burst(KernelCompilation compilation, const WorkloadSpec& spec);
// Cycle timing's burst (every scheduler): the requests a warp issues before it waits for their data.
std::uint32_t cycle_issue_burst(const GpuConfig& config, const WorkloadSpec* spec);

// Whether the warp that issued last keeps the turn: it is inside a group of `burst` requests.
// Groups start at request 0 of a warp, so a new warp in the slot starts a group of its own.
// Without a division (the scheduler asks at every pick, and "auto" bursts such as a 9x9 stencil's
// 81 are no power of two): k is a multiple of burst exactly when k x magic, modulo 2^64, is below
// magic, with magic = burst_magic(burst) = 2^64 / burst rounded up (Lemire, Kaser and Kurz 2019).
inline std::uint64_t burst_magic(std::uint32_t burst) { return ~0ull / (burst ? burst : 1) + 1; }
inline bool continues_burst(const WarpSlot& last, std::uint32_t burst, std::uint64_t magic) {
    return burst > 1 && last.live() && static_cast<std::uint64_t>(last.k) * magic > magic - 1;
}

}  // namespace cachesim
