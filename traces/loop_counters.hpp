#pragma once
// What limits a compiled loop, from its own Nsight Compute counters: the cycles of a warp scheduler
// each global load request takes, the loop's other instructions included, as the busiest of
//   - the issue port, one warp instruction a cycle (smsp__inst_executed.sum), and
//   - each pipe's active cycles (sm__pipe_<name>_cycles_active.sum; the fma pipe is its heavy and
//     lite halves together, which run side by side, so it counts half),
// per load request (l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum). Both sums run over the same
// schedulers, so their ratio is one scheduler's cycles per one of its requests. The H200's table of
// gpubench's loops (sim/gpu/loop_issue_cost.cpp) was derived the same way
// (scripts/issue_cost_table.py).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "traces/ncu_metrics.hpp"

namespace cachesim {

struct LoopCounters {
    double cycles_per_request = 0;  // the busiest unit's cycles per load request
    std::string busiest;            // "issue", or the pipe's name ("fmaheavy", "alu", ...)
    // Bound by a pipe rather than the issue port: warps wait on the pipe with their operands ready,
    // and a scheduler with several ready warps serves the oldest (docs/model-studies.md, "Loops bound by
    // their instructions").
    bool pipe_bound() const { return busiest != "issue"; }
};

// A pipe's active cycles, by the pipe's name.
struct PipeCycles {
    std::string pipe;
    double cycles = 0;
};

// The loop's counters from a launch's load requests, warp instructions issued and pipes' active
// cycles; the issue port wins a tie. Throws InputError when there are no requests or fewer
// instructions than requests (every request is an instruction): counters of some other launch.
LoopCounters loop_counters(double requests, double instructions, const std::vector<PipeCycles>& pipes);

// The pipe's name when `column` is sm__pipe_<name>_cycles_active.sum, else empty.
std::string pipe_of_metric(std::string_view column);

}  // namespace cachesim
