#include "sim/gpu/dispatch_plan.hpp"

#include <algorithm>
#include <bit>

#include "sim/gpu/loop_issue_cost.hpp"

namespace cachesim {

bool dispatch_plannable(const GpuConfig& config) {
    return config.timing == IssueTiming::rounds && config.scheduler == WarpScheduler::lrr;
}

// The lock step's order of refills (lockstep_run.hpp): an SM runs until one of its blocks finishes
// while blocks wait, and the SMs so parked receive the next blocks in (round, refill rank) order.
// Each SM issues one request a round while it has a live warp.
DispatchPlanner::DispatchPlanner(const WorkloadSpec& spec, const GpuConfig& config, const GpuOccupancy& occupancy,
                                 std::uint64_t blocks, std::uint32_t burst)
    : slots_(spec, config,
             static_cast<std::size_t>(config.sms) * occupancy.warps_per_block * occupancy.blocks_per_sm, false),
      scheduler_(config, occupancy, slots_, blocks, burst, warp_age_weight_for(config, &spec), 0,
                 warp_age_warm_weight_for(config, &spec)),
      refills_(config),
      next_(config.sms, 0),
      parked_(config.sms, 0),
      sms_(config.sms),
      warps_per_sm_(occupancy.warps_per_block * occupancy.blocks_per_sm) {
    staged_.resize(config.sms);
    scheduler_.first_wave();
}

void DispatchPlanner::run(std::uint32_t s, std::uint64_t end) {
    // A turn at a time: a warp keeps the turn to its burst's end, and no request misses here.
    while (next_[s] < end && scheduler_.sm_busy(s)) {
        const std::uint64_t round = next_[s];
        const std::size_t slot = scheduler_.pick(s);
        // (with picks kept, a turn ends at the chunk's end too)
        const std::uint64_t stop = chunk_rounds_ ? std::min(end, (round | (chunk_rounds_ - 1)) + 1) : end;
        const std::uint32_t n = scheduler_.rounds_in_turn(slot, stop - round);
        next_[s] += n;
        if (chunk_rounds_) {
            std::uint16_t* at = &picks_[(round >> chunk_shift_) & 1][static_cast<std::size_t>(s) * chunk_rounds_ +
                                                                      (round & (chunk_rounds_ - 1))];
            std::fill(at, at + n, static_cast<std::uint16_t>(slot - static_cast<std::size_t>(s) * warps_per_sm_));
        }
        if (scheduler_.retire_run(s, slot, n) && scheduler_.blocks_waiting()) {
            refills_.push(round + n - 1, s);
            parked_[s] = 1;
            return;
        }
    }
}

bool DispatchPlanner::keep_picks(std::uint32_t chunk_rounds) {
    if (warps_per_sm_ > 65536 || chunk_rounds == 0 || (chunk_rounds & (chunk_rounds - 1)) != 0) return false;
    chunk_rounds_ = chunk_rounds;
    chunk_shift_ = static_cast<std::uint32_t>(std::countr_zero(chunk_rounds));
    for (std::vector<std::uint16_t>& p : picks_) p.assign(static_cast<std::size_t>(sms_) * chunk_rounds, 0);
    return true;
}

void DispatchPlanner::advance(std::uint64_t end) {
    // Every park before `end` first, so that they are served in order.
    for (std::uint32_t s = 0; s < next_.size(); ++s)
        if (!parked_[s]) run(s, end);
    while (!refills_.empty() && refills_.top_round() < end) {
        const std::uint64_t round = refills_.top_round();
        const std::uint32_t s = refills_.pop();
        parked_[s] = 0;
        if (scheduler_.blocks_waiting()) {
            staged_[s].push_back({round, scheduler_.next_block(), slots_.warps_loaded()});
            scheduler_.dispatch_next(s);
        }
        run(s, end);  // a later park joins the queue in its place
    }
}

void DispatchPlanner::drain_into(DispatchPlan& plan) {
    plan.per_sm.resize(staged_.size());
    for (std::size_t s = 0; s < staged_.size(); ++s) {
        plan.per_sm[s].insert(plan.per_sm[s].end(), staged_[s].begin(), staged_[s].end());
        staged_[s].clear();
    }
    plan.warps = slots_.warps_loaded();
}

DispatchPlan plan_dispatch(const WorkloadSpec& spec, const GpuConfig& config, const GpuOccupancy& occupancy,
                           std::uint64_t blocks, std::uint32_t burst) {
    DispatchPlanner planner(spec, config, occupancy, blocks, burst);
    planner.advance(~0ull);
    DispatchPlan plan;
    planner.drain_into(plan);
    return plan;
}

}  // namespace cachesim
