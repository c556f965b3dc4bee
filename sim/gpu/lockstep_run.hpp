#pragma once
// The lock-step run: in every round each SM with work issues one request. Rounds are simulated in
// chunks. Inside a chunk each SM runs on its own (its L1 and its warps depend on nothing else),
// recording the traffic it sends to the L2 with its round; the L2 then replays it in (round, SM)
// order, exactly as if the SMs had advanced in lock step. An SM stops where one of its blocks
// finishes while blocks wait: the freed residency goes to the next block only once every SM has
// been simulated up to that round, in (round, refill rank) order. With an observer the chunk is
// one round, so events arrive round by round.
//
// With more than one thread the SMs of a chunk run in parallel, and the L2 replays a chunk while
// the SMs run the next one, its slices (L2System::split: groups of sets, independent of each
// other) in parallel too: each SM records its events per slice, and each slice replays its own in
// (round, SM) order. Refills are handed out in the same order: a batch takes the waiting
// SMs, in order, up to the first round at which an SM of the batch could free a slot again (it
// issues one request a round, so not before its emptiest block's remaining requests); those SMs
// then run in parallel. Results are the same for any thread count. Where the refills are known
// ahead (a DispatchPlan), no SM waits for another: each takes its planned blocks as it goes, and
// every SM of a chunk runs in one batch.
//
// The scheduler decides when an SM issues: IssueScheduler in every round, CycleScheduler
// (cycle timing) in the ticks at which one of its schedulers has a ready warp; its clock() turns
// a round or tick into the L2 coalescer's time.
#include <algorithm>
#include <atomic>
#include <string>
#include <cstdint>
#include <deque>
#include <memory>
#include <type_traits>
#include <vector>

#include "sim/gpu/cta_dispatch.hpp"
#include "sim/gpu/dispatch_plan.hpp"
#include "sim/gpu/issue_scheduler.hpp"
#include "sim/gpu/l2_system.hpp"
#include "sim/gpu/sm_front_end.hpp"
#include "sim/gpu/worker_pool.hpp"
#include "sim/thread_model.hpp"

namespace cachesim {

template <class L1Policy, class L2Policy, class Scheduler = IssueScheduler>
class LockstepRun {
public:
    // fronts: one front end per thread (fronts.size() threads); front_counters: what they fill.
    LockstepRun(const GpuConfig& config, WarpSlots& slots, Scheduler& scheduler,
                std::deque<SmFrontEnd<L1Policy>>& fronts, const std::vector<GpuCounters>& front_counters,
                L2System<L2Policy>& l2, const RunControl& control)
        : config_(config),
          slots_(slots),
          scheduler_(scheduler),
          fronts_(fronts),
          front_counters_(front_counters),
          l2_(l2),
          control_(control),
          refills_(config) {
        const std::size_t buffers = fronts.size() > 1 ? 2 : 1;  // the L2 replays one while the SMs fill the other
        slices_ = l2.slices();
        replay_scratch_.assign(fronts.size(), {});
        for (SmFrontEnd<L1Policy>& front : fronts) front.set_slicing(l2.slicing());
        for (std::size_t b = 0; b < buffers; ++b) {
            events_[b].assign(static_cast<std::size_t>(config.sms) * slices_, {});
            if (control.gpu_traffic_memory_limit) sm_traffic_[b].assign(config.sms, 0);
            if (l2.groups_by_block()) request_block_[b].assign(static_cast<std::size_t>(config.sms) * kChunkRounds, 0);
        }
        next_round_.assign(config.sms, 0);
        last_issue_.assign(config.sms, 0);
        parked_.assign(config.sms, kNotParked);
    }

    // On several threads, refills from `planner` (for this launch; the scheduler an IssueScheduler),
    // which plans a chunk ahead of the SMs on one of the threads.
    void use_planner(DispatchPlanner& planner) {
        planner_ = &planner;
        if constexpr (requires { scheduler_.retire_followed(0u, std::size_t{0}); })
            planner.keep_picks(kChunkRounds);
        plan_.per_sm.assign(config_.sms, {});
        plan_next_.assign(config_.sms, 0);
    }

    // On several threads: the batches of SMs run side by side, and the SM runs in them.
    std::uint64_t batches() const { return batches_; }
    std::uint64_t batch_runs() const { return batch_runs_; }

    // Runs the launch; returns the rounds (or cycles) it took.
    std::uint64_t run(std::uint64_t total_requests) {
        scheduler_.first_wave();
        if (fronts_.size() > 1) run_parallel(total_requests);
        else run_serial(total_requests);
        const std::uint64_t last = *std::max_element(last_issue_.begin(), last_issue_.end());
        return last == 0 ? 0 : scheduler_.clock(last - 1) + 1;
    }

private:
    // Rounds (or ticks) per chunk: the scheduler's. Per SM and chunk the L2 events are buffered
    // (tens of MiB at most).
    static constexpr std::uint64_t kChunkRounds = Scheduler::kChunkRounds;
    static constexpr std::uint64_t kNotParked = ~0ull;
    static constexpr std::uint32_t kNoEvent = ~0u;
    static constexpr std::uint32_t kPrefetchAhead = 6;  // SMs
    static constexpr std::size_t kEventsAhead = 12;     // of an SM's list: three host lines on

    void run_serial(std::uint64_t total_requests) {
        const std::uint64_t chunk = control_.observer ? 1 : kChunkRounds;
        SmFrontEnd<L1Policy>& front = fronts_[0];
        std::uint64_t start = 0;
        while (scheduler_.live_warps() != 0) {
            const std::uint64_t end = start + chunk;
            for (std::uint32_t s = 0; s < config_.sms; ++s) run_sm(s, start, end, front, 0);
            while (!refills_.empty()) {
                const std::uint32_t s = refills_.pop();
                if (scheduler_.blocks_waiting()) scheduler_.dispatch_next(s);
                run_sm(s, start, end, front, 0);
            }
            throw_if_traffic_over();
            for (std::uint32_t slice = 0; slice < slices_; ++slice) replay_l2(start, end, 0, slice, 0);
            start = end;
            between_chunks(start, chunk, total_requests);
        }
    }

    void run_parallel(std::uint64_t total_requests) {
        WorkerPool pool(static_cast<unsigned>(fronts_.size()));
        std::uint64_t start = 0, end = 0;
        std::size_t buffer = 0;
        std::vector<std::uint32_t> batch;
        batch.reserve(config_.sms);
        auto run_batch = [&](std::size_t i, unsigned worker) { run_sm(batch[i], start, end, fronts_[worker], buffer); };
        WorkerPool::Job sms_job, replay_job;
        std::uint64_t replay_start = 0;
        std::size_t replay_buffer = 0;
        auto replay = [&](std::size_t slice, unsigned worker) {
            replay_l2(replay_start, replay_start + kChunkRounds, replay_buffer, static_cast<std::uint32_t>(slice), worker);
        };
        bool replaying = false, planning = false;
        // The pool must not outlive a throw while the L2 replays or the planner plans: wait first.
        struct Finish {
            WorkerPool& pool;
            WorkerPool::Job& job;
            bool& pending;
            ~Finish() {
                if (pending) pool.wait(job, false);
            }
        } finish_replay{pool, replay_job, replaying};
        WorkerPool::Job plan_job;
        auto plan_ahead = [&](std::size_t, unsigned) { planner_->advance(end + kChunkRounds); };
        Finish finish_plan{pool, plan_job, planning};
        if (planner_) {
            planner_->advance(kChunkRounds);
            planner_->drain_into(plan_);
        }
        while (scheduler_.live_warps() != 0) {
            end = start + kChunkRounds;
            if (planner_) {  // the next chunk's refills, while the SMs run this one
                plan_job.set(1, plan_ahead);
                pool.post(plan_job);
                planning = true;
            }
            batch.clear();
            for (std::uint32_t s = 0; s < config_.sms; ++s) batch.push_back(s);
            for (;;) {
                sms_job.set(batch.size(), run_batch);
                ++batches_;
                batch_runs_ += batch.size();
                pool.run(sms_job);
                throw_if_traffic_over();
                for (std::uint32_t s : batch)
                    if (parked_[s] != kNotParked) refills_.push(parked_[s], s);
                if (refills_.empty()) break;
                next_batch(batch);
            }
            if (planning) {
                pool.wait(plan_job);
                planning = false;
                planner_->drain_into(plan_);
            }
            if (replaying) pool.wait(replay_job);
            replay_start = start;
            replay_buffer = buffer;
            replay_job.set(slices_, replay);
            pool.post(replay_job);
            replaying = true;
            buffer ^= 1;
            start = end;
            between_chunks(start, kChunkRounds, total_requests);
        }
    }

    // The SMs waiting for a block that can receive theirs now, in refill order: up to the first
    // round at which an SM already taken could park again (see the top of the file).
    void next_batch(std::vector<std::uint32_t>& batch) {
        batch.clear();
        std::uint64_t horizon = ~0ull;
        while (!refills_.empty() && refills_.top_round() < horizon) {
            const std::uint64_t round = refills_.top_round();
            const std::uint32_t s = refills_.pop();
            if (scheduler_.blocks_waiting()) scheduler_.dispatch_next(s);
            const std::uint64_t left = scheduler_.fewest_requests_left(s);
            if (left != ~0ull) horizon = std::min(horizon, round + left);
            batch.push_back(s);
        }
    }

    // The L2 traffic SM s buffers, held to RunControl::gpu_traffic_memory_limit: its lists' storage
    // in `buffer` (which only grows) is added to the run's total as the SM finishes its part of a
    // chunk. Past the limit the other SMs stop at once (a worker thread cannot throw), and the
    // thread that runs them throws when they return (throw_if_traffic_over).
    void count_traffic(std::uint32_t s, std::size_t buffer) {
        const L2EventList* lists = &events_[buffer][static_cast<std::size_t>(s) * slices_];
        std::uint64_t bytes = 0;
        for (std::uint32_t slice = 0; slice < slices_; ++slice) bytes += lists[slice].events.capacity() * sizeof(L2Event);
        std::uint64_t& counted = sm_traffic_[buffer][s];
        if (bytes == counted) return;
        const std::uint64_t held = traffic_held_.fetch_add(bytes - counted) + (bytes - counted);
        counted = bytes;
        if (held > control_.gpu_traffic_memory_limit) traffic_over_.store(true);
    }
    void throw_if_traffic_over() const {
        if (!traffic_over_.load()) [[likely]]
            return;
        throw SimulationError("the L2 traffic the GPU model buffers holds " + std::to_string(traffic_held_.load() >> 20) +
                              " MiB (it grows with the L1's misses), past its share of the memory limit (" +
                              std::to_string(control_.gpu_traffic_memory_limit >> 20) +
                              " MiB); raise --max-memory, or use --threads 1, which buffers one chunk");
    }

    void between_chunks(std::uint64_t start, std::uint64_t chunk, std::uint64_t total_requests) {
        if (L1Timing* timing = fronts_[0].timing()) timing->end_chunk();  // no SM runs now
        if (control_.cancel && control_.cancel->load(std::memory_order_relaxed)) throw Cancelled();
        if (control_.progress && total_requests && (start & 16383) < chunk) {
            std::uint64_t requests = 0;
            for (const GpuCounters& c : front_counters_) requests += c.requests();
            // (a recorded launch's total is an estimate: never past the end)
            control_.progress(std::min(1.0, static_cast<double>(requests) / static_cast<double>(total_requests)));
        }
    }

    // Simulates SM s from its next round up to `end`, or until a block of it finishes while
    // blocks wait: the SM is then parked (parked_[s], and queued for the next block when serial).
    void run_sm(std::uint32_t s, std::uint64_t start, std::uint64_t end, SmFrontEnd<L1Policy>& front,
                std::size_t buffer) {
        if (traffic_over_.load(std::memory_order_relaxed)) [[unlikely]]
            return;  // the run stops (count_traffic)
        // The SM's next round and last issue are kept here and stored once at the end: their
        // neighbours in next_round_ and last_issue_ belong to SMs that other threads run.
        std::uint64_t next = next_round_[s], last_issue = last_issue_[s];
        std::uint64_t parked = kNotParked;
        L2EventList* events = &events_[buffer][static_cast<std::size_t>(s) * slices_];
        HostVector<std::uint64_t>& request_block = request_block_[buffer];
        // The planner's picks, where it keeps them: in rounds the SM issues in every round it is busy.
        const std::uint16_t* picks = nullptr;
        std::size_t first_slot = 0;
        if constexpr (requires { scheduler_.retire_followed(0u, std::size_t{0}); })
            if (planner_ && planner_->keeps_picks()) {
                picks = planner_->picks(start, s);
                first_slot = scheduler_.first_slot(s);
            }
        while (next < end) {
            if (!scheduler_.sm_busy(s)) {
                next = end;
                break;
            }
            std::size_t slot = 0;
            std::uint64_t round;
            if (picks) {
                round = next;
                slot = first_slot + picks[round - start];
            } else {
                round = scheduler_.next_issue(s, next, end, slot);
                if (round >= end) {
                    next = end;
                    break;
                }
            }
            next = round + 1;
            const std::uint32_t in_chunk = static_cast<std::uint32_t>(round - start);
            if (!request_block.empty()) request_block[block_index(s, in_chunk)] = slots_[slot].block;
            front.set_clock(scheduler_.clock(round));
            const bool missed = front.issue(s, slots_, slot, in_chunk, events);
            if (config_.issue_log) [[unlikely]]
                config_.issue_log->push_back(
                    {round, s, slots_[slot].block, scheduler_.warp_in_block(s, slot), slots_[slot].k, missed});
            last_issue = round + 1;
            if constexpr (std::is_same_v<Scheduler, IssueScheduler>)
                if (config_.warp_ends && slots_[slot].k + 1 == slots_[slot].requests) [[unlikely]]
                    note_end(s, slot, round + 1);
            if (config_.warp_progress) [[unlikely]]
                note_progress(s, slot, scheduler_.clock(round));
            bool finished = false;
            if constexpr (requires { scheduler_.retire_followed(0u, std::size_t{0}); })
                if (picks) finished = scheduler_.retire_followed(s, slot);
            if (!picks) finished = scheduler_.retire(s, slot, round, missed, front.data_ready());
            if (!finished) continue;
            if (planner_) {  // a block finished: the SM receives at once what the plan gives it then
                if constexpr (requires { scheduler_.dispatch_planned(s, 0ull, 0ull); }) {
                    const std::vector<PlannedBlock>& mine = plan_.per_sm[s];
                    std::size_t& i = plan_next_[s];
                    if (i < mine.size() && mine[i].round == round) {
                        scheduler_.dispatch_planned(s, mine[i].block, mine[i].age);
                        ++i;
                    }
                }
            } else if (scheduler_.blocks_waiting()) {
                parked = round;
                if (fronts_.size() == 1) refills_.push(round, s);
                break;
            }
        }
        next_round_[s] = next;
        last_issue_[s] = last_issue;
        parked_[s] = parked;
        if (control_.gpu_traffic_memory_limit) count_traffic(s, buffer);
    }

    // Plays the chunk's L2 traffic of one slice in (round, SM) order, with `worker`'s scratch.
    void replay_l2(std::uint64_t start, std::uint64_t end, std::size_t buffer, std::uint32_t slice, unsigned worker) {
        std::vector<L2EventList>& events = events_[buffer];
        const HostVector<std::uint64_t>& request_block = request_block_[buffer];
        ReplayScratch& scratch = replay_scratch_[worker];
        std::vector<std::size_t>& cursor = scratch.cursor;
        cursor.assign(config_.sms, 0);
        const std::uint32_t rounds = static_cast<std::uint32_t>(end - start);
        // The SMs that send the slice something in each round, in SM order: senders[first[r] ..
        // first[r + 1]) (a counting sort of each SM's rounds; most SMs send a slice nothing in a
        // given round, and a scan of every SM in every round cost more than the slice's lookups).
        std::vector<std::uint32_t>& first = scratch.first;
        std::vector<std::uint32_t>& senders = scratch.senders;
        std::vector<std::uint64_t>& blocks = scratch.blocks;
        first.assign(rounds + 2, 0);
        for (std::uint32_t s = 0; s < config_.sms; ++s) {
            std::uint32_t last = kNoEvent;
            for (const L2Event& e : events[s * slices_ + slice].events)
                if (e.round != last) ++first[(last = e.round) + 2];
        }
        for (std::uint32_t r = 2; r < rounds + 2; ++r) first[r] += first[r - 1];
        senders.resize(first[rounds + 1]);
        // With them the block of each SM's request in that round (the coalescer's group), read
        // here SM by SM, in order, rather than across the SMs' rows while the lookups wait.
        blocks.resize(request_block.empty() ? 0 : senders.size());
        for (std::uint32_t s = 0; s < config_.sms; ++s) {
            std::uint32_t last = kNoEvent;
            for (const L2Event& e : events[s * slices_ + slice].events) {
                if (e.round == last) continue;
                const std::uint32_t at = first[(last = e.round) + 1]++;
                senders[at] = s;
                if (!request_block.empty()) blocks[at] = request_block[block_index(s, e.round)];
            }
        }
        std::uint64_t last_round = 0;  // rounds of the launch: 1 + the last in which a request issued
        if (control_.observer) [[unlikely]]
            last_round = *std::max_element(last_issue_.begin(), last_issue_.end());
        for (std::uint32_t r = 0; r < rounds; ++r) {
            const std::uint32_t* sending = senders.data() + first[r];
            const std::uint64_t* block = blocks.empty() ? nullptr : blocks.data() + first[r];
            const std::uint32_t count = first[r + 1] - first[r];
            // Each SM's lookups are asked of the host's memory a few SMs ahead: the L2's sets and
            // the coalescer's lie in tens of MB, and the replay would wait for each in turn.
            auto prefetch = [&](std::uint32_t s) {
                const L2EventVector& mine = events[s * slices_ + slice].events;
                for (std::size_t i = cursor[s]; i < mine.size() && mine[i].round == r; ++i) l2_.prefetch(s, mine[i]);
            };
            for (std::uint32_t k = 0; k < std::min(count, kPrefetchAhead); ++k) prefetch(sending[k]);
            for (std::uint32_t k = 0; k < count; ++k) {
                if (k + kPrefetchAhead < count) prefetch(sending[k + kPrefetchAhead]);
                const std::uint32_t s = sending[k];
                const L2EventVector& mine = events[s * slices_ + slice].events;
                l2_.play(s, r, mine, cursor[s], scheduler_.clock(start + r), block ? block[k] : 0, slice);
                // The SM's list a few host lines on: the SMs' lists are read side by side, more
                // streams than the host's own prefetcher follows.
                if (cursor[s] + kEventsAhead < mine.size()) __builtin_prefetch(&mine[cursor[s] + kEventsAhead]);
            }
            if (control_.observer && start + r < last_round) [[unlikely]]
                control_.observer->on_step_end(start + r);
        }
        for (std::uint32_t s = 0; s < config_.sms; ++s) events[s * slices_ + slice].events.clear();
    }

    // The warp in `slot` of SM s makes its last request in the round before `end` (GpuConfig::warp_ends;
    // each warp its own entry, so SMs on other threads write beside it safely).
    void note_end(std::uint32_t s, std::size_t slot, std::uint64_t end) {
        const WarpSlot& w = slots_[slot];
        const std::uint32_t warp = scheduler_.warp_in_block(s, slot);
        const std::uint32_t local = static_cast<std::uint32_t>(slot - scheduler_.first_slot(s));
        (*config_.warp_ends)[w.block * scheduler_.warps_per_block() + warp] = {w.block, warp, s, local, end};
    }

    // The warp in `slot` of SM s issues its request k at `time` (GpuConfig::warp_progress): kept
    // every `every` requests, and its last as the end. Each warp its own entries, as note_end.
    void note_progress(std::uint32_t s, std::size_t slot, std::uint64_t time) {
        GpuWarpProgress& progress = *config_.warp_progress;
        const WarpSlot& w = slots_[slot];
        const std::uint32_t warp = scheduler_.warp_in_block(s, slot);
        const std::size_t index = w.block * scheduler_.warps_per_block() + warp;
        if (w.k % progress.every == 0) progress.issued[index].push_back(time);
        if (w.k + 1 == w.requests)
            progress.warps[index] = {w.block, warp, s, static_cast<std::uint32_t>(slot - scheduler_.first_slot(s)), time + 1};
    }

    static std::size_t block_index(std::uint32_t s, std::uint32_t round_in_chunk) {
        return static_cast<std::size_t>(s) * kChunkRounds + round_in_chunk % kChunkRounds;
    }

    const GpuConfig& config_;
    WarpSlots& slots_;
    Scheduler& scheduler_;
    std::deque<SmFrontEnd<L1Policy>>& fronts_;
    const std::vector<GpuCounters>& front_counters_;
    L2System<L2Policy>& l2_;
    const RunControl& control_;
    std::uint64_t batches_ = 0, batch_runs_ = 0;
    DispatchPlanner* planner_ = nullptr;  // plans the refills ahead, where they can be
    DispatchPlan plan_;                   // what it has planned: the refills up to the chunk's end
    std::vector<std::size_t> plan_next_;  // per SM, its next entry in plan_
    RefillQueue refills_;                          // SMs whose block finished, awaiting a successor
    std::vector<std::uint64_t> sm_traffic_[2];  // count_traffic(): per buffer and SM, its event storage counted
    std::atomic<std::uint64_t> traffic_held_{0};
    std::atomic<bool> traffic_over_{false};
    std::vector<L2EventList> events_[2];  // per buffer, SM and slice, the chunk's L2 traffic in order
    // With the coalescer grouping by block (neighbours, pairs), per buffer, SM and round of the
    // chunk: the launch block of the request issued; empty otherwise.
    HostVector<std::uint64_t> request_block_[2];
    std::vector<std::uint64_t> next_round_;  // per SM, the next round not yet simulated
    std::vector<std::uint64_t> last_issue_;  // per SM, 1 + the round of its last request (0: none)
    std::vector<std::uint64_t> parked_;      // per SM, the round it parked in this batch, or kNotParked
    std::uint32_t slices_ = 1;               // of the L2
    // What a thread replaying a slice works with: per SM, its next event to replay; the SMs with
    // events, round by round (see replay_l2).
    struct ReplayScratch {
        std::vector<std::size_t> cursor;
        std::vector<std::uint32_t> first, senders;
        std::vector<std::uint64_t> blocks;  // per entry of senders: the block of its request
    };
    std::vector<ReplayScratch> replay_scratch_;  // per thread
};

}  // namespace cachesim
