#pragma once
// Which block each SM receives whenever one of its blocks finishes, worked out ahead of the run.
//
// Where the issue order does not depend on the caches (rounds under loose round robin, with or
// without rates and start skips: a warp's turn never waits on a hit or a miss), the lock step's
// refills follow from the scheduler alone. Run alone, without addresses or caches, it gives the
// dispatch order at a small part of the run's cost (a few percent), a chunk of rounds ahead of the
// SMs. With that plan the SMs of a chunk do not wait for one another's refills (lockstep_run.hpp):
// every SM runs the chunk through on a thread of its own, taking its planned blocks as it goes,
// and the results are those of one thread.
#include <cstdint>
#include <vector>

#include "sim/gpu/cta_dispatch.hpp"
#include "sim/gpu/gpu_config.hpp"
#include "sim/gpu/issue_scheduler.hpp"
#include "sim/gpu/warp_slots.hpp"
#include "traces/workload_spec.hpp"

namespace cachesim {

struct PlannedBlock {
    std::uint64_t round = 0;  // the round in which one of the SM's blocks finished
    std::uint64_t block = 0;  // the launch block it receives
    std::uint64_t age = 0;    // the dispatch order (WarpSlot::age) of the block's first warp
};

struct DispatchPlan {
    std::vector<std::vector<PlannedBlock>> per_sm;  // in the order each SM receives them
    std::uint64_t warps = 0;                        // warps the launch loads in all (once planned through)
};

// Whether a launch with this configuration can be planned: its issue order does not depend on
// hits (not greedy then oldest, which passes over a warp that missed; not cycle timing, where
// warps wait for their data).
bool dispatch_plannable(const GpuConfig& config);

// Plans a built-in launch of `blocks` blocks whose warps issue `burst` requests a turn, as far
// as it is asked to.
class DispatchPlanner {
public:
    DispatchPlanner(const WorkloadSpec& spec, const GpuConfig& config, const GpuOccupancy& occupancy,
                    std::uint64_t blocks, std::uint32_t burst);
    // Plans every refill of a round before `end` that is not planned yet.
    void advance(std::uint64_t end);
    // Moves what has been planned since the last call to the end of `plan`'s lists.
    void drain_into(DispatchPlan& plan);
    // Warps loaded so far (all of the launch's once it is planned through).
    std::uint64_t warps_loaded() const { return slots_.warps_loaded(); }

    // Also keeps which warp each SM issues in each round, for chunks of `chunk_rounds` rounds (a
    // power of two; advance() is then asked up to chunk ends, one chunk ahead of the SMs): an SM
    // that follows these picks needs no scheduler of its own, whose picks (rates drawn afresh, a
    // logarithm and a cosine each) would repeat the planner's. False where a slot does not fit the
    // record (more than 65,536 warps an SM).
    bool keep_picks(std::uint32_t chunk_rounds);
    // The host memory keep_picks(chunk_rounds) takes for `sms` SMs.
    static std::uint64_t picks_bytes(std::uint32_t sms, std::uint32_t chunk_rounds) {
        return 2 * static_cast<std::uint64_t>(sms) * chunk_rounds * sizeof(std::uint16_t);
    }
    bool keeps_picks() const { return chunk_rounds_ != 0; }
    // SM s's picks for the chunk starting at `chunk_start`, its local warp slot in each round in
    // which it issues: the chunk last advanced to, or the one before.
    const std::uint16_t* picks(std::uint64_t chunk_start, std::uint32_t s) const {
        return picks_[(chunk_start >> chunk_shift_) & 1].data() + static_cast<std::size_t>(s) * chunk_rounds_;
    }

private:
    // SM s up to `end`, or until one of its blocks finishes while blocks wait (it is then parked).
    void run(std::uint32_t s, std::uint64_t end);

    WarpSlots slots_;
    IssueScheduler scheduler_;
    RefillQueue refills_;
    std::vector<std::uint64_t> next_;    // per SM, its next round
    std::vector<std::uint8_t> parked_;   // per SM, whether it waits in refills_
    std::vector<std::vector<PlannedBlock>> staged_;  // per SM, planned, not yet drained
    std::uint32_t sms_ = 0, warps_per_sm_ = 1;
    std::uint32_t chunk_rounds_ = 0, chunk_shift_ = 0;  // keep_picks(): the chunk's rounds (0: no picks kept)
    std::vector<std::uint16_t> picks_[2];     // per chunk parity, SM and round of the chunk
};

// The whole plan at once.
DispatchPlan plan_dispatch(const WorkloadSpec& spec, const GpuConfig& config, const GpuOccupancy& occupancy,
                           std::uint64_t blocks, std::uint32_t burst);

}  // namespace cachesim
