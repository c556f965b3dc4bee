#pragma once
// What issues requests in lock step: the blocks resident on each SM, and in each round the warp of
// an SM that issues (loose round robin, with rates, bursts and start skips, or greedy then
// oldest). Knows nothing of caches: the caller tells it whether a request missed in L1.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "sim/gpu/gpu_config.hpp"
#include "sim/gpu/greedy_then_oldest.hpp"
#include "sim/gpu/issue_burst.hpp"
#include "sim/gpu/loose_round_robin.hpp"
#include "sim/gpu/warp_age_weight.hpp"
#include "sim/gpu/warp_rate.hpp"
#include "sim/gpu/warp_slots.hpp"
#include "sim/rng.hpp"

namespace cachesim {

class IssueScheduler {
public:
    // Rounds per chunk of the lock-step run (lockstep_run.hpp). An SM's L1 state (about 130 KiB on
    // the H200) is cold in the host's caches when its turn comes again, so a chunk must be long
    // enough to pay for reloading it: 1,024 rounds took the naive matmul with warp rate spread
    // twice as long as 16,384.
    static constexpr std::uint64_t kChunkRounds = 16384;

    // A launch of `blocks` blocks whose warps issue `burst` requests per turn (issue_burst_for),
    // older warps weighted by `age_weight` (warp_age_weight_for; 1: none), a warp passed over on
    // `miss_wait` turns after a request that missed in L1 (miss_wait_turns_for; 0: none), and
    // blocks that read from the L2 weighted by `warm_age_weight` beyond groups of
    // GpuConfig::warp_age_warm_group (warp_age_warm_weight_for; a group of 0: as the others).
    IssueScheduler(const GpuConfig& config, const GpuOccupancy& occupancy, WarpSlots& slots, std::uint64_t blocks,
                   std::uint32_t burst, double age_weight = 1, double miss_wait = 0, double warm_age_weight = 1);

    // Dispatches the first wave of blocks (GpuConfig::cta_order).
    void first_wave();
    // Blocks of the launch not yet dispatched.
    bool blocks_waiting() const { return dispatched_ < blocks_; }
    // Gives SM s, which has a free residency slot, the next block.
    void dispatch_next(std::uint32_t s) { dispatch(s, dispatched_); }
    // The block dispatch_next gives next.
    std::uint64_t next_block() const { return dispatched_; }
    // Gives SM s `block`, its warps' dispatch order (WarpSlot::age) counted from `age`, as a
    // dispatch plan says (dispatch_plan.hpp). Touches the state of SM s alone, so the SMs of a
    // chunk dispatch on threads of their own. A built-in launch's blocks only (each has a warp).
    void dispatch_planned(std::uint32_t s, std::uint64_t block, std::uint64_t age);
    std::uint64_t blocks() const { return blocks_; }
    std::uint64_t live_warps() const;
    // The fewest requests any block resident on SM s has left (~0 when none is resident): the SM
    // issues one request a round, so none of its blocks finishes sooner.
    std::uint64_t fewest_requests_left(std::uint32_t s) const;
    bool sm_busy(std::uint32_t s) const { return sms_[s].live_warps != 0; }

    // The warp slot (global index) of SM s that issues this round; the SM has a live warp.
    std::size_t pick(std::uint32_t s) {
        SmTurn& sm = sms_[s];
        WarpSlot* w = slots_.data() + static_cast<std::size_t>(s) * warps_per_sm_;
        std::uint32_t local;
        if (continues_burst(w[sm.last], burst_, burst_magic_)) local = sm.last;  // a new warp in its slot starts at k 0
        else if (rated_) local = pick_by_credit(w, warps_per_sm_, sm.last);
        else if (!greedy_) local = pick_round_robin(w, warps_per_sm_, sm.last);
        else local = pick_greedy_then_oldest(w, warps_per_sm_, sm.current);
        return static_cast<std::size_t>(s) * warps_per_sm_ + local;
    }

    // The lock-step run's interface, shared with cycle timing (cycle_scheduler.hpp): in rounds an
    // SM with a live warp issues in every round, and a round is its own clock.
    std::uint64_t next_issue(std::uint32_t s, std::uint64_t from, std::uint64_t, std::size_t& slot) {
        slot = pick(s);
        return from;
    }
    bool retire(std::uint32_t s, std::size_t slot, std::uint64_t, bool missed, std::uint64_t) {
        return retire(s, slot, missed);
    }
    static std::uint64_t clock(std::uint64_t round) { return round; }

    std::uint32_t warps_per_block() const { return warps_per_block_; }
    // The warp's index within its block.
    std::uint32_t warp_in_block(std::uint32_t s, std::size_t slot) const {
        return static_cast<std::uint32_t>((slot - static_cast<std::size_t>(s) * warps_per_sm_) % warps_per_block_);
    }

    // After the request of the warp in `slot` of SM s (missed: a load sector missed in L1). Returns
    // true when its block has finished (a residency slot is free).
    bool retire(std::uint32_t s, std::size_t slot, bool missed) {
        WarpSlot& w = slots_[slot];
        w.stalled = greedy_ && missed;
        if (missed && miss_waits_) [[unlikely]]
            w.skip = std::max(w.skip, miss_wait_turns(w, slot));
        if (++w.k < w.requests) {
            if (redraw_ && w.k % redraw_ == 0) [[unlikely]]
                w.rate = drawn_rate(w, warp_in_block(s, slot));
            return false;
        }
        return finish(s, w);
    }

    // The rounds in a row from now that the warp in `slot`, just picked, keeps the turn: to its
    // burst's end (a warp that continues its burst is picked again) or its last request, and at
    // most `limit`. Rounds without misses only (the planner's).
    std::uint32_t rounds_in_turn(std::size_t slot, std::uint64_t limit) const {
        const WarpSlot& w = slots_[slot];
        const std::uint32_t burst = burst_ ? burst_ : 1;
        std::uint64_t n = burst - w.k % burst;
        n = std::min<std::uint64_t>(n, w.requests - w.k);
        return static_cast<std::uint32_t>(std::min(n, limit));
    }
    // retire() for n requests in a row of the warp in `slot` (rounds_in_turn), none missing. A
    // rate drawn afresh in between is overwritten before the next pick reads it, so only the last
    // is drawn.
    bool retire_run(std::uint32_t s, std::size_t slot, std::uint32_t n) {
        WarpSlot& w = slots_[slot];
        const std::uint32_t before = w.k;
        w.k += n;
        if (w.k < w.requests) {
            if (redraw_ && w.k / redraw_ != before / redraw_) [[unlikely]]
                w.rate = drawn_rate(w, warp_in_block(s, slot));
            return false;
        }
        return finish(s, w);
    }

    // retire() for an SM that follows planned picks (DispatchPlanner::keep_picks): the rates,
    // bursts and skips only decide the picks, so only the warp's progress and its block's count
    // are kept.
    bool retire_followed(std::uint32_t s, std::size_t slot) {
        WarpSlot& w = slots_[slot];
        if (++w.k < w.requests) return false;
        return finish(s, w);
    }
    // The first global warp slot of SM s.
    std::size_t first_slot(std::uint32_t s) const { return static_cast<std::size_t>(s) * warps_per_sm_; }

private:
    // The warp w of SM s has made its last request. Returns true when its block has finished.
    bool finish(std::uint32_t s, WarpSlot& w) {
        w.lanes = 0;
        w.stalled = false;
        --sms_[s].live_warps;
        if (ranked_) promote_younger(s, w);
        return --block_left_[w.block_slot] == 0;
    }
    // The turns the warp in `slot` is passed over after its request k missed: the whole turns, and
    // one more with the probability of the fraction, drawn from (seed, block, slot, k).
    std::uint32_t miss_wait_turns(const WarpSlot& w, std::size_t slot) const {
        std::uint64_t state = keyed_draw_state(config_.seed, DrawStream::miss_wait, w.block, slot, w.k);
        return miss_wait_whole_ + (splitmix64(state) < miss_wait_odds_ ? 1 : 0);
    }
    // The warp's rate as drawn for its current request (rates drawn afresh: its epoch), weighted by
    // its age rank on its scheduler.
    std::uint64_t drawn_rate(const WarpSlot& w, std::uint32_t warp) const {
        const std::uint64_t credit = warp_issue_credit(config_, w.block, warp, redraw_ ? w.k / redraw_ : 0);
        return ranked_ ? age_weighted(credit, w) : credit;
    }
    // A rate weighted by the warp's age rank, with the weights of where its block's data comes
    // from: DRAM for the blocks the pass's table names (else for a first-wave block of a launch
    // whose L2 starts cold), the L2 for any other.
    std::uint64_t age_weighted(std::uint64_t credit, const WarpSlot& w) const {
        const bool from_dram = dram_blocks_ ? (*dram_blocks_)[w.block] != 0
                                            : first_wave_cold_ && w.age < first_wave_end_age_;
        const bool from_l2 = warm_split_ && !from_dram;
        const WarpAgeWeights& weights = from_l2 ? warm_weights_ : age_weights_;
        if (!weights.on()) return credit;
        const std::size_t slot = static_cast<std::size_t>(&w - slots_.data());
        const std::uint32_t rank = rank_by_sm_ ? warp_rank_[slot] / schedulers_ : warp_rank_[slot];
        const std::uint64_t rate = weights.apply(credit, rank);
        if (!from_l2 || !warm_steps_.on()) return rate;
        return warm_steps_.apply(rate, static_cast<std::int64_t>(scheduler_rank_[slot]) - rank);
    }
    // Warp `finished` of SM s is done: the younger blocks' warps it ranks ahead of move up.
    void promote_younger(std::uint32_t s, const WarpSlot& finished);
    // Whether warp slots a and b hold warps of one block (a block's warps sit in consecutive slots).
    bool same_block(std::size_t a, std::size_t b) const { return a / warps_per_block_ == b / warps_per_block_; }
    // Whether warp slots a and b of SM s share a scheduler (its index within the SM mod schedulers_).
    bool same_scheduler(std::uint32_t s, std::size_t a, std::size_t b) const {
        const std::size_t first = first_slot(s);
        return (a - first) % schedulers_ == (b - first) % schedulers_;
    }
    // Calls f(o) for every warp slot o of SM s on the same scheduler as `slot` (slot itself included).
    template <class F>
    void for_scheduler_mates(std::uint32_t s, std::size_t slot, F&& f) const {
        const std::size_t first = first_slot(s);
        for (std::size_t o = first + (slot - first) % schedulers_; o < first + warps_per_sm_; o += schedulers_) f(o);
    }

    // Calls f(o) for every warp slot o whose rank counts the warp in `slot` (slot itself
    // included): its scheduler's, or its SM's (GpuConfig::warp_age_rank block).
    template <class F>
    void for_rank_mates(std::uint32_t s, std::size_t slot, F&& f) const {
        if (!rank_by_sm_) return for_scheduler_mates(s, slot, f);
        const std::size_t first = first_slot(s);
        for (std::size_t o = first; o < first + warps_per_sm_; ++o) f(o);
    }

    // A host cache line each: the SMs of a chunk run on several threads, and every pick writes it.
    struct alignas(64) SmTurn {
        std::uint32_t live_warps = 0;
        std::uint32_t last = 0;           // loose round robin: local slot that issued last
        std::uint32_t current = kNoWarp;  // gto: local slot being run greedily
    };
    void dispatch(std::uint32_t s, std::uint64_t block);
    // The global index of SM s's first free residency slot.
    std::uint32_t free_block_slot(std::uint32_t s) const;
    // Puts the warps of a block into SM s's residency slot `block_slot`: load(warp slot, warp in
    // block) loads one and says whether it issues anything.
    template <class Load>
    void load_warps(std::uint32_t s, std::uint32_t block_slot, Load&& load);

    const GpuConfig& config_;
    WarpSlots& slots_;
    std::uint64_t blocks_ = 0, dispatched_ = 0;
    std::uint32_t warps_per_block_ = 1, blocks_per_sm_ = 1, warps_per_sm_ = 1;
    std::uint32_t burst_ = 1;  // issue_burst_for(): requests per turn of the round robin
    std::uint64_t burst_magic_ = 0;  // burst_magic(burst_)
    bool greedy_ = false, rated_ = false;
    std::uint32_t redraw_ = 0;  // rated: requests between draws of a warp's rate (0: never)
    bool miss_waits_ = false;           // loose round robin: a miss passes its warp over
    std::uint32_t miss_wait_whole_ = 0;  // the whole turns of the miss wait
    std::uint64_t miss_wait_odds_ = 0;   // its fraction, scaled to 2^64
    std::vector<std::uint32_t> block_left_;  // live warps per block residency slot
    WarpAgeWeights age_weights_;             // rated: older warps first (off when the weight is 1)
    WarpAgeWeights warm_weights_;            // the same for blocks that read from the L2 (warm_split_)
    WarpStepWeights warm_steps_;             // ranked by block: an L2 block's warps apart (GpuConfig::warp_age_warm_step)
    bool warm_split_ = false;                // rated with a warm group: blocks that read from the L2 apart
    const std::vector<std::uint8_t>* dram_blocks_ = nullptr;  // GpuConfig::pass_dram_blocks
    bool ranked_ = false;                    // either table weighs ages: warp_rank_ is kept
    bool first_wave_cold_ = true;            // the pass's L2 starts cold: its first wave reads DRAM
    std::uint64_t first_wave_end_age_ = ~0ull;  // warps with a smaller WarpSlot::age: the first wave
    bool rank_by_sm_ = false;                // warp_rank_ counts the SM's warps: the rank is it / schedulers_
    std::vector<std::uint32_t> warp_rank_;   // per warp slot: live warps of older blocks on its scheduler (or SM)
    std::vector<std::uint32_t> scheduler_rank_;  // with warm_steps_: those on its scheduler
    std::uint32_t schedulers_ = 1;           // warp schedulers per SM: a warp slot's is its index mod this
    std::vector<SmTurn> sms_;
};

}  // namespace cachesim
