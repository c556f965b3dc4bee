#pragma once
// Cycle timing's issue order (GpuConfig::timing cycles): warps wait for memory. Each SM has
// schedulers_per_sm schedulers; warp slot j of an SM belongs to scheduler j mod Q. A scheduler
// issues at most one request a cycle: the warp in the middle of a burst goes on, otherwise a
// ready warp starts one (loose round robin among the ready warps, or the oldest under gto). A
// warp issues its burst (the loads of one iteration of its compiled loop) one request a cycle,
// then waits until the data of the whole burst is there (the front end says when: L1 hit, a
// sector on its way, or an L1 miss) and is ready again. Each request takes its scheduler for the
// loop's issue cost (GpuConfig::issue_cycles, loop_issue_cost.hpp; 1: one request a cycle): the
// scheduler issues again only once that many cycles have passed, in 1/256 cycle steps. A new
// block's warps are ready from the cycle after the one in which the block before them freed the
// slot.
//
// Time is counted in ticks, Q per cycle: tick c*Q + q is scheduler q's issue slot in cycle c, so
// an SM issues at most one request a tick, and the lock-step run (lockstep_run.hpp) runs ticks
// as it runs rounds: SMs alone in chunks, the L2 in (tick, SM) order, refills in the same order.
// Within an SM time jumps to the next cycle at which a warp is ready (a queue of ready times), so
// empty cycles cost nothing.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "sim/gpu/issue_scheduler.hpp"

namespace cachesim {

class CycleScheduler {
public:
    static constexpr std::uint32_t kMaxSchedulers = 16;
    // Ticks per chunk of the lock-step run (lockstep_run.hpp). Within a chunk an SM does not see
    // the DRAM reads other SMs started (l2_presence.hpp), so a chunk is short: 256 cycles at four
    // schedulers, less than an L2 hit takes, so an SM is blind to what is on its way for at most
    // that long.
    static constexpr std::uint64_t kChunkRounds = 1024;

    // Throws SimulationError when a scheduler would hold more than 64 warps.
    // spec: the built-in workload, or null for a recorded kernel (no compiled loop known: "auto"
    // bursts are 1 and loads are not gated); blocks: the launch's blocks.
    CycleScheduler(const WorkloadSpec* spec, const GpuConfig& config, const GpuOccupancy& occupancy, WarpSlots& slots,
                   std::uint64_t blocks);

    void first_wave() {
        base_.first_wave();
        for (std::uint32_t s = 0; s < sms_.size(); ++s) admit(s);
    }
    bool blocks_waiting() const { return base_.blocks_waiting(); }
    void dispatch_next(std::uint32_t s) {
        base_.dispatch_next(s);
        admit(s);
    }
    std::uint64_t blocks() const { return base_.blocks(); }
    std::uint64_t live_warps() const { return base_.live_warps(); }
    // An SM issues at most one request a tick, so none of its blocks finishes sooner.
    std::uint64_t fewest_requests_left(std::uint32_t s) const { return base_.fewest_requests_left(s); }
    bool sm_busy(std::uint32_t s) const { return base_.sm_busy(s); }
    std::uint32_t warp_in_block(std::uint32_t s, std::size_t slot) const { return base_.warp_in_block(s, slot); }
    std::uint32_t warps_per_block() const { return base_.warps_per_block(); }
    std::size_t first_slot(std::uint32_t s) const { return base_.first_slot(s); }
    std::uint32_t burst() const { return burst_; }
    const std::vector<std::uint32_t>& gates() const { return gates_; }

    // The cycle of a tick (the L2 coalescer's clock).
    std::uint64_t clock(std::uint64_t tick) const { return tick / q_; }

    // The first tick in [from, end) at which SM s issues, and the warp slot (global index) that
    // does; `end` when it issues nothing before. The SM has a live warp.
    std::uint64_t next_issue(std::uint32_t s, std::uint64_t from, std::uint64_t end, std::size_t& slot) {
        SmState& sm = sms_[s];
        std::uint64_t c = from / q_;
        std::uint32_t q = static_cast<std::uint32_t>(from % q_);
        for (;;) {
            if (c * q_ + q >= end) return end;
            while (!sm.waiting.empty() && sm.waiting.front().ready <= c) make_ready(sm);
            for (; q < q_; ++q) {
                if (free_cycle(sm.free[q]) > c) continue;  // still busy with its last request
                const std::uint32_t local = choose(s, sm, q);
                if (local == kNoWarp) continue;
                const std::uint64_t tick = c * q_ + q;
                if (tick >= end) return end;
                sm.current[q] = local;
                sm.last[q] = local / q_;
                // the cost accumulates in fractions of a cycle: a scheduler whose cost is 5.25
                // issues at cycles 0, 5, 10, 15, 21, 26, ... (one request a cycle at cost 1)
                sm.free[q] = std::max(sm.free[q], c << kCostShift) + cost_;
                slot = static_cast<std::size_t>(s) * warps_per_sm_ + local;
                return tick;
            }
            // the next cycle at which a scheduler with a ready warp is free, or a waiting warp is ready
            std::uint64_t next = ~0ull;
            for (std::uint32_t i = 0; i < q_; ++i)
                if (sm.ready[i] != 0) next = std::min(next, std::max(c + 1, free_cycle(sm.free[i])));
            if (!sm.waiting.empty()) next = std::min(next, std::max(c + 1, sm.waiting.front().ready));
            if (next == ~0ull) return end;  // not reached: a busy SM has a warp
            c = next;
            q = 0;
        }
    }

    // After the request of the warp in `slot` of SM s at `tick`; data_ready: the cycle its data is
    // there. Returns true when its block has finished (a residency slot is free).
    bool retire(std::uint32_t s, std::size_t slot, std::uint64_t tick, bool missed, std::uint64_t data_ready) {
        SmState& sm = sms_[s];
        const std::uint64_t c = tick / q_;
        const std::uint32_t local = static_cast<std::uint32_t>(slot - static_cast<std::size_t>(s) * warps_per_sm_);
        const std::uint32_t q = local % q_;
        const std::uint64_t bit = 1ull << (local / q_);
        burst_ready_[slot] = std::max(burst_ready_[slot], data_ready);
        if (!gates_.empty()) arrived_[slot * burst_ + slots_[slot].k % burst_] = burst_ready_[slot];
        const bool freed = base_.retire(s, slot, missed);
        const WarpSlot& w = slots_[slot];
        if (!w.live()) {  // its last request: the slot is empty again
            if (ends_) [[unlikely]] {
                const std::uint32_t warp = base_.warp_in_block(s, slot);
                (*ends_)[w.block * warps_per_block_ + warp] = {w.block, warp, s, local, burst_ready_[slot]};
            }
            sm.ready[q] &= ~bit;
            sm.current[q] = kNoWarp;
            admitted_[slot] = 0;
            if (freed) sm.resume = c + 1;  // the next block starts issuing the cycle after
            return freed;
        }
        if (w.k % burst_ == 0) {  // the burst is out: wait for its data
            sm.ready[q] &= ~bit;
            sm.current[q] = kNoWarp;
            push_waiting(sm, std::max(burst_ready_[slot], c + 1), local);
            burst_ready_[slot] = 0;
        } else if (!gates_.empty()) {  // the next load waits for the loads an add before it consumes
            const std::uint32_t gate = gates_[w.k % burst_];
            const std::uint64_t needed = gate == 0 ? 0 : arrived_[slot * burst_ + gate - 1];
            if (needed > c + 1) {
                sm.ready[q] &= ~bit;
                sm.current[q] = kNoWarp;
                push_waiting(sm, needed, local);
            }
        }
        return freed;
    }

private:
    struct Waiting {
        std::uint64_t ready;
        std::uint32_t local;
    };
    struct SmState {
        std::vector<Waiting> waiting;             // min-heap by (ready cycle, local slot)
        std::uint64_t ready[kMaxSchedulers]{};    // per scheduler, bit i: its warp i (local slot q + i*Q) is ready
        std::uint32_t current[kMaxSchedulers]{};  // per scheduler, the warp in the middle of a burst
        std::uint32_t last[kMaxSchedulers]{};     // per scheduler, the bit that issued last (round robin)
        std::uint64_t resume = 0;                 // the cycle from which newly dispatched warps are ready
        std::uint64_t free[kMaxSchedulers]{};     // per scheduler, when it may issue again (1/256 cycles)
    };
    static constexpr unsigned kCostShift = 8;  // issue costs and free times in 1/256 cycles
    // The cycle in which a scheduler free from `free` on may issue (it becomes free during it).
    static std::uint64_t free_cycle(std::uint64_t free) { return free >> kCostShift; }
    static bool later(const Waiting& a, const Waiting& b) {
        return a.ready != b.ready ? a.ready > b.ready : a.local > b.local;
    }
    void push_waiting(SmState& sm, std::uint64_t ready, std::uint32_t local) {
        sm.waiting.push_back({ready, local});
        std::push_heap(sm.waiting.begin(), sm.waiting.end(), later);
    }
    void make_ready(SmState& sm) {
        std::pop_heap(sm.waiting.begin(), sm.waiting.end(), later);
        const std::uint32_t local = sm.waiting.back().local;
        sm.waiting.pop_back();
        sm.ready[local % q_] |= 1ull << (local / q_);
    }
    // The warp (local slot) scheduler q of SM s issues now, or kNoWarp.
    std::uint32_t choose(std::uint32_t s, const SmState& sm, std::uint32_t q) const {
        if (sm.current[q] != kNoWarp) return sm.current[q];
        const std::uint64_t bits = sm.ready[q];
        if (!bits) return kNoWarp;
        std::uint32_t i;
        if (greedy_) {
            const WarpSlot* w = slots_.data() + static_cast<std::size_t>(s) * warps_per_sm_;
            i = static_cast<std::uint32_t>(std::countr_zero(bits));
            for (std::uint64_t m = bits & (bits - 1); m; m &= m - 1) {
                const std::uint32_t j = static_cast<std::uint32_t>(std::countr_zero(m));
                if (w[q + j * q_].age < w[q + i * q_].age) i = j;
            }
        } else {
            const std::uint32_t last = sm.last[q];
            const std::uint64_t after = last >= 63 ? 0 : bits & (~0ull << (last + 1));
            i = static_cast<std::uint32_t>(std::countr_zero(after ? after : bits));
        }
        return q + i * q_;
    }
    // Newly dispatched warps of SM s become ready at its resume cycle.
    void admit(std::uint32_t s) {
        SmState& sm = sms_[s];
        for (std::uint32_t local = 0; local < warps_per_sm_; ++local) {
            const std::size_t slot = static_cast<std::size_t>(s) * warps_per_sm_ + local;
            if (!slots_[slot].live() || admitted_[slot]) continue;
            admitted_[slot] = 1;
            burst_ready_[slot] = 0;
            push_waiting(sm, sm.resume, local);
        }
    }

    IssueScheduler base_;  // blocks on SMs, dispatch and refill, requests left
    WarpSlots& slots_;
    std::uint32_t q_ = 4, warps_per_sm_ = 1, burst_ = 1, warps_per_block_ = 1;
    std::vector<GpuWarpEnd>* ends_ = nullptr;  // GpuConfig::warp_ends
    std::uint64_t cost_ = 1u << kCostShift;  // a request's issue cost in 1/256 cycles
    bool greedy_ = false;
    std::vector<SmState> sms_;
    std::vector<std::uint64_t> burst_ready_;  // per warp slot: when the data of its burst so far is there
    std::vector<std::uint8_t> admitted_;      // per warp slot: its warp is known to the scheduler
    // Load gates (load_gates.hpp; empty: none): per position in the burst, how many of the
    // burst's first loads must be there before it issues; per warp slot and position, when the
    // data of the burst's loads up to it is there (a running maximum).
    std::vector<std::uint32_t> gates_;
    std::vector<std::uint64_t> arrived_;
};

}  // namespace cachesim
