#include "traces/recorded_loop.hpp"

#include <algorithm>
#include <cstdio>

namespace cachesim {

LoopCounters RecordedLoop::counters() const {
    const double fma = static_cast<double>(fma_heavy_only_cycles + fma_either_cycles);
    const double heavy = std::max(static_cast<double>(fma_heavy_only_cycles), fma / 2);
    return loop_counters(static_cast<double>(load_requests), static_cast<double>(warp_instructions),
                         {{"alu", static_cast<double>(alu_cycles)}, {"fmaheavy", heavy}});
}

std::string RecordedLoop::describe() const {
    if (empty()) return "no global load requests";
    const LoopCounters loop = counters();
    char cost[32];
    std::snprintf(cost, sizeof cost, "%.2f", loop.cycles_per_request);
    return std::to_string(loads_per_iteration) + " loads an iteration, " + cost + " cycles per load request (" +
           loop.busiest + (loop.pipe_bound() ? " pipe" : " port") + ")";
}

bool operator==(const RecordedLoop& a, const RecordedLoop& b) {
    return a.load_requests == b.load_requests && a.warp_instructions == b.warp_instructions &&
           a.alu_cycles == b.alu_cycles && a.fma_heavy_only_cycles == b.fma_heavy_only_cycles &&
           a.fma_either_cycles == b.fma_either_cycles && a.loads_per_iteration == b.loads_per_iteration;
}

}  // namespace cachesim
