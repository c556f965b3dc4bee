#include "sim/gpu/dispatch_plan.hpp"

#include "sim/gpu/cta_dispatch.hpp"
#include "sim/gpu/issue_scheduler.hpp"
#include "sim/gpu/warp_slots.hpp"

namespace cachesim {

bool dispatch_plannable(const GpuConfig& config) {
    return config.timing == IssueTiming::rounds && config.scheduler == WarpScheduler::lrr;
}

DispatchPlan plan_dispatch(const WorkloadSpec& spec, const GpuConfig& config, const GpuOccupancy& occupancy,
                           std::uint64_t blocks, std::uint32_t burst) {
    const std::size_t slot_count =
        static_cast<std::size_t>(config.sms) * occupancy.warps_per_block * occupancy.blocks_per_sm;
    WarpSlots slots(spec, config, slot_count, false);
    IssueScheduler scheduler(config, occupancy, slots, blocks, burst);
    scheduler.first_wave();
    DispatchPlan plan;
    plan.per_sm.resize(config.sms);
    // The lock step's order of refills (lockstep_run.hpp): an SM runs until one of its blocks
    // finishes while blocks wait, and the SMs so parked receive the next blocks in (round, refill
    // rank) order. Each SM issues one request a round while it has a live warp.
    RefillQueue refills(config);
    std::vector<std::uint64_t> next(config.sms, 0);
    auto run = [&](std::uint32_t s) {
        while (scheduler.sm_busy(s)) {
            const std::uint64_t round = next[s]++;
            const std::size_t slot = scheduler.pick(s);
            if (scheduler.retire(s, slot, false) && scheduler.blocks_waiting()) {
                refills.push(round, s);
                return;
            }
        }
    };
    for (std::uint32_t s = 0; s < config.sms; ++s) run(s);
    while (!refills.empty()) {
        const std::uint64_t round = refills.top_round();
        const std::uint32_t s = refills.pop();
        if (scheduler.blocks_waiting()) {
            plan.per_sm[s].push_back({round, scheduler.next_block(), slots.warps_loaded()});
            scheduler.dispatch_next(s);
        }
        run(s);
    }
    plan.warps = slots.warps_loaded();
    return plan;
}

}  // namespace cachesim
