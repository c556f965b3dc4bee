#include "sim/gpu/cycle_scheduler.hpp"

#include <cmath>
#include <string>

#include "sim/gpu/issue_burst.hpp"
#include "sim/gpu/load_gates.hpp"
#include "sim/gpu/loop_issue_cost.hpp"
#include "sim/thread_model.hpp"

namespace cachesim {

CycleScheduler::CycleScheduler(const WorkloadSpec* spec, const GpuConfig& config, const GpuOccupancy& occupancy,
                               WarpSlots& slots, std::uint64_t blocks)
    : base_(config, occupancy, slots, blocks, issue_burst_for(config, spec)), slots_(slots) {
    q_ = config.schedulers_per_sm;
    warps_per_sm_ = occupancy.warps_per_block * occupancy.blocks_per_sm;
    if (q_ < 1 || q_ > kMaxSchedulers)
        throw SimulationError("--schedulers-per-sm " + std::to_string(q_) + " must be between 1 and " +
                              std::to_string(kMaxSchedulers));
    if ((warps_per_sm_ + q_ - 1) / q_ > 64)
        throw SimulationError("--timing cycles: " + std::to_string(warps_per_sm_) + " resident warps per SM on " +
                              std::to_string(q_) + " schedulers is more than 64 per scheduler");
    burst_ = cycle_issue_burst(config, spec);
    cost_ = static_cast<std::uint64_t>(std::llround(cycle_issue_cost(config, spec) * (1u << kCostShift)));
    greedy_ = config.scheduler == WarpScheduler::gto;
    sms_.assign(config.sms, SmState{});
    for (SmState& sm : sms_) {
        std::fill(std::begin(sm.current), std::end(sm.current), kNoWarp);
        std::fill(std::begin(sm.last), std::end(sm.last), 63u);  // the first turn goes to bit 0
        sm.waiting.reserve(warps_per_sm_);
    }
    if (spec) gates_ = load_gates(config, *spec, burst_);
    if (!gates_.empty()) arrived_.assign(slots.size() * burst_, 0);
    burst_ready_.assign(slots.size(), 0);
    warps_per_block_ = occupancy.warps_per_block;
    ends_ = config.warp_ends;  // sized by the run (gpu_model.cpp)
    admitted_.assign(slots.size(), 0);
}

}  // namespace cachesim
