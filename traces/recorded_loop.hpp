#pragma once
// A recorded kernel's compiled loop, from its executed instructions: what Nsight Compute's loop
// counters give for a profiled launch (traces/loop_counters.hpp), read instead from a trace that
// holds every warp instruction (an Accel-Sim traceg; traces/instruction_pipes.hpp reads it), and
// the loads one iteration of the loop issues, which the counters do not give. A cst version 3
// trace carries it in its header, so the GPU model replays the kernel with its own loop.
#include <cstdint>
#include <string>

#include "traces/loop_counters.hpp"

namespace cachesim {

struct RecordedLoop {
    std::uint64_t load_requests = 0;      // global load warp instructions with an active lane
    std::uint64_t warp_instructions = 0;  // every warp instruction: the issue port's cycles
    std::uint64_t alu_cycles = 0;         // the ALU pipe's cycles (instruction_pipes.hpp)
    std::uint64_t fma_heavy_only_cycles = 0;  // the fma pipe's cycles that only its heavy half takes
    std::uint64_t fma_either_cycles = 0;      // the fma pipe's cycles either half takes
    // The loads of one iteration, load-weighted over the warps' iterations (a warp's instructions
    // cut wherever its PC goes back); 0 without loads.
    std::uint32_t loads_per_iteration = 0;

    bool empty() const { return load_requests == 0; }
    // The loop's counters as loop_counters() derives them from Nsight Compute's: the issue port,
    // the ALU and the fma pipe's heavy half, which takes the integer multiplies and, the scheduler
    // balancing the halves, as much of the rest as evens them: max(heavy only, all fma / 2) (the
    // busier half; the fma pipe as a whole, halved, is never busier). Throws InputError when empty.
    LoopCounters counters() const;
    // "32 loads an iteration, 3.62 cycles per load request (issue)".
    std::string describe() const;
};

bool operator==(const RecordedLoop& a, const RecordedLoop& b);

}  // namespace cachesim
