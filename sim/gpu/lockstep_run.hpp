#pragma once
// The lock-step run: in every round each SM with work issues one request. Rounds are simulated in
// chunks. Inside a chunk each SM runs on its own (its L1 and its warps depend on nothing else),
// recording the traffic it sends to the L2 with its round; the L2 then replays it in (round, SM)
// order, exactly as if the SMs had advanced in lock step. An SM stops where one of its blocks
// finishes while blocks wait: the freed residency goes to the next block only once every SM has
// been simulated up to that round, in (round, refill rank) order. With an observer the chunk is
// one round, so events arrive round by round.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "sim/gpu/cta_dispatch.hpp"
#include "sim/gpu/issue_scheduler.hpp"
#include "sim/gpu/l2_system.hpp"
#include "sim/gpu/sm_front_end.hpp"
#include "sim/thread_model.hpp"

namespace cachesim {

template <class L1Policy, class L2Policy>
class LockstepRun {
public:
    LockstepRun(const GpuConfig& config, WarpSlots& slots, IssueScheduler& scheduler, SmFrontEnd<L1Policy>& front,
                L2System<L2Policy>& l2, const GpuCounters& counters, const RunControl& control)
        : config_(config),
          slots_(slots),
          scheduler_(scheduler),
          front_(front),
          l2_(l2),
          counters_(counters),
          control_(control),
          refills_(config) {
        events_.assign(config.sms, {});
        next_round_.assign(config.sms, 0);
        if (l2.groups_by_block()) request_block_.assign(static_cast<std::size_t>(config.sms) * kChunkRounds, 0);
    }

    // Runs the launch; returns the rounds it took.
    std::uint64_t run(std::uint64_t total_requests) {
        const std::uint64_t chunk = control_.observer ? 1 : kChunkRounds;
        scheduler_.first_wave();
        std::uint64_t start = 0;
        while (scheduler_.live_warps() != 0) {
            const std::uint64_t end = start + chunk;
            chunk_start_ = start;
            for (std::uint32_t s = 0; s < config_.sms; ++s) run_sm(s, end);
            while (!refills_.empty()) {
                const std::uint32_t s = refills_.pop();
                if (scheduler_.blocks_waiting()) scheduler_.dispatch_next(s);
                run_sm(s, end);
            }
            replay_l2(start, end);
            start = end;
            if (control_.cancel && control_.cancel->load(std::memory_order_relaxed)) throw Cancelled();
            if (control_.progress && total_requests && (start & 16383) < chunk)
                control_.progress(static_cast<double>(counters_.requests()) / static_cast<double>(total_requests));
        }
        return issued_any_ ? last_round_ + 1 : 0;
    }

private:
    // Rounds per chunk. An SM's L1 state (about 130 KiB on the H200) is cold in the host's caches
    // when its turn comes again, so a chunk must be long enough to pay for reloading it: 1,024
    // rounds took the naive matmul with warp rate spread twice as long as 16,384. Per SM and
    // chunk the L2 events are buffered (tens of MiB at most).
    static constexpr std::uint64_t kChunkRounds = 16384;

    // Simulates SM s from its next round up to `end`, or until a block of it finishes while
    // blocks wait (it is then queued for the next block).
    void run_sm(std::uint32_t s, std::uint64_t end) {
        std::uint64_t& next = next_round_[s];
        while (next < end) {
            if (!scheduler_.sm_busy(s)) {
                next = end;
                return;
            }
            const std::uint64_t round = next++;
            const std::uint32_t in_chunk = static_cast<std::uint32_t>(round - chunk_start_);
            const std::size_t slot = scheduler_.pick(s);
            if (!request_block_.empty()) request_block_[block_index(s, in_chunk)] = slots_[slot].block;
            const bool missed = front_.issue(s, slots_, slot, in_chunk, events_[s]);
            if (config_.issue_log) [[unlikely]]
                config_.issue_log->push_back(
                    {round, s, slots_[slot].block, scheduler_.warp_in_block(s, slot), slots_[slot].k, missed});
            last_round_ = std::max(last_round_, round);
            issued_any_ = true;
            if (scheduler_.retire(s, slot, missed) && scheduler_.blocks_waiting()) {
                refills_.push(round, s);
                return;
            }
        }
    }

    // Plays the chunk's L2 traffic in (round, SM) order.
    void replay_l2(std::uint64_t start, std::uint64_t end) {
        cursor_.assign(config_.sms, 0);
        const std::uint32_t rounds = static_cast<std::uint32_t>(end - start);
        for (std::uint32_t r = 0; r < rounds; ++r) {
            for (std::uint32_t s = 0; s < config_.sms; ++s) {
                const std::uint64_t block = request_block_.empty() ? 0 : request_block_[block_index(s, r)];
                l2_.play(s, r, events_[s], cursor_[s], start + r, block);
            }
            if (control_.observer && issued_any_ && start + r <= last_round_) [[unlikely]]
                control_.observer->on_step_end(start + r);
        }
        for (std::vector<L2Event>& events : events_) events.clear();
    }

    static std::size_t block_index(std::uint32_t s, std::uint32_t round_in_chunk) {
        return static_cast<std::size_t>(s) * kChunkRounds + round_in_chunk % kChunkRounds;
    }

    const GpuConfig& config_;
    WarpSlots& slots_;
    IssueScheduler& scheduler_;
    SmFrontEnd<L1Policy>& front_;
    L2System<L2Policy>& l2_;
    const GpuCounters& counters_;
    const RunControl& control_;
    RefillQueue refills_;                      // SMs whose block finished, awaiting a successor
    std::vector<std::vector<L2Event>> events_;  // per SM, the chunk's L2 traffic in order
    std::vector<std::uint64_t> next_round_;     // per SM, the next round not yet simulated
    std::vector<std::size_t> cursor_;           // per SM, its next event to replay
    // With the coalescer grouping by block (neighbours, pairs), per SM and round of the chunk: the
    // launch block of the request issued; empty otherwise.
    std::vector<std::uint64_t> request_block_;
    std::uint64_t chunk_start_ = 0, last_round_ = 0;
    bool issued_any_ = false;
};

}  // namespace cachesim
