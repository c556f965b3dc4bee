#pragma once
// Measured timing (GpuConfig::timeline): every warp's requests spread evenly over its measured
// interval, or between its progress samples, on its measured SM; all requests in time order
// (ties: by warp index, so warps with the same interval take turns as loose round robin would),
// each request's L2 traffic played at once.
// Replaces the lock-step scheduler; the front end and the L2 system are the same.
#include <cstdint>
#include <queue>
#include <vector>

#include "sim/gpu/l2_system.hpp"
#include "sim/gpu/sm_front_end.hpp"
#include "sim/thread_model.hpp"
#include "traces/warp_times.hpp"

namespace cachesim {

// A measured timeline must describe this launch on this GPU; throws SimulationError otherwise.
void validate_timeline(const WorkloadSpec& spec, const GpuConfig& config);

template <class L1Policy, class L2Policy>
void replay_timeline(const GpuConfig& config, WarpSlots& slots, std::uint32_t warps_per_block,
                     SmFrontEnd<L1Policy>& front, L2System<L2Policy>& l2, const RunControl& control) {
    const WarpTimeline& timeline = *config.timeline;
    const std::uint64_t warps = timeline.warps.size();
    const std::uint32_t per_warp = slots.requests_per_warp();
    const std::uint64_t total_requests = warps * per_warp;
    auto time_of = [&](std::uint64_t warp, std::uint32_t k) { return timeline.request_time(warp, k, per_warp); };
    constexpr std::size_t kNoSlot = ~std::size_t{0};
    struct Next {
        double time;
        std::uint64_t warp;  // index in the timeline
        std::size_t slot;    // its warp slot once it has issued
    };
    auto later = [](const Next& a, const Next& b) { return a.time != b.time ? a.time > b.time : a.warp > b.warp; };
    std::priority_queue<Next, std::vector<Next>, decltype(later)> queue(later);
    for (std::uint64_t w = 0; w < warps; ++w) queue.push({time_of(w, 0), w, kNoSlot});
    // Warp slots are a pool: a warp takes one at its first request and returns it after its last.
    std::vector<std::size_t> free_slots;
    for (std::size_t i = slots.size(); i-- > 0;) free_slots.push_back(i);
    std::vector<L2Event> events;
    std::uint64_t done = 0;
    while (!queue.empty()) {
        Next next = queue.top();
        queue.pop();
        if (next.slot == kNoSlot) {
            if (free_slots.empty()) {
                const std::size_t old = slots.size();
                slots.resize(std::max<std::size_t>(64, 2 * old));
                for (std::size_t i = slots.size(); i-- > old;) free_slots.push_back(i);
            }
            next.slot = free_slots.back();
            free_slots.pop_back();
            slots.load(next.slot, next.warp / warps_per_block, static_cast<std::uint32_t>(next.warp % warps_per_block),
                       0);
        }
        const std::uint32_t s = timeline.warps[next.warp].sm;
        const bool missed = front.issue(s, slots, next.slot, 0, events);
        WarpSlot& w = slots[next.slot];
        if (config.issue_log) [[unlikely]]  // "round": the request's place in the measured order
            config.issue_log->push_back(
                {done, s, w.block, static_cast<std::uint32_t>(next.warp % warps_per_block), w.k, missed});
        std::size_t i = 0;
        l2.play(s, 0, events, i, static_cast<std::uint64_t>(next.time), w.block);
        events.clear();
        if (++w.k < per_warp) {
            queue.push({time_of(next.warp, w.k), next.warp, next.slot});
        } else {
            w.lanes = 0;
            free_slots.push_back(next.slot);
        }
        if (control.observer) [[unlikely]]
            control.observer->on_step_end(done);  // with measured timing, every request is a step
        if ((++done & 0xffff) == 0) {
            if (control.cancel && control.cancel->load(std::memory_order_relaxed)) throw Cancelled();
            if (control.progress) control.progress(static_cast<double>(done) / static_cast<double>(total_requests));
        }
    }
}

}  // namespace cachesim
