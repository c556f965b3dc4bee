#include "sim/gpu/issue_scheduler.hpp"

#include <algorithm>
#include <cmath>

#include "sim/gpu/cta_dispatch.hpp"
#include "sim/gpu/loop_issue_cost.hpp"

namespace cachesim {

IssueScheduler::IssueScheduler(const GpuConfig& config, const GpuOccupancy& occupancy, WarpSlots& slots,
                               std::uint64_t blocks, std::uint32_t burst, double age_weight, double miss_wait,
                               double warm_age_weight)
    : config_(config), slots_(slots) {
    blocks_ = blocks;
    warps_per_block_ = occupancy.warps_per_block;
    blocks_per_sm_ = occupancy.blocks_per_sm;
    warps_per_sm_ = warps_per_block_ * blocks_per_sm_;
    burst_ = burst;
    burst_magic_ = burst_magic(burst);
    greedy_ = config.scheduler == WarpScheduler::gto;
    rated_ = config.scheduler == WarpScheduler::lrr && config.warp_rate_spread > 0;
    redraw_ = rated_ ? config.warp_rate_redraw : 0;
    if (config.scheduler == WarpScheduler::lrr && miss_wait > 0) {
        miss_waits_ = true;
        miss_wait_whole_ = static_cast<std::uint32_t>(miss_wait);
        miss_wait_odds_ = static_cast<std::uint64_t>(std::ldexp(miss_wait - std::floor(miss_wait), 64));
    }
    block_left_.assign(static_cast<std::size_t>(config.sms) * blocks_per_sm_, 0);
    schedulers_ = std::max(1u, config.schedulers_per_sm);
    // ranks 0 .. (warp slots of a scheduler) - 1
    const std::uint32_t max_rank = (warps_per_sm_ + schedulers_ - 1) / schedulers_ - 1;
    if (rated_) age_weights_.configure(age_weight, config.warp_age_group, max_rank);
    warm_split_ = rated_ && config.warp_age_warm_group > 0;
    if (warm_split_) warm_weights_.configure(warm_age_weight, config.warp_age_warm_group, max_rank);
    first_wave_cold_ = !config.pass_l2_warm;
    if (warm_split_) dram_blocks_ = config.pass_dram_blocks;
    ranked_ = age_weights_.on() || warm_weights_.on();
    rank_by_sm_ = config.warp_age_rank == WarpAgeRank::block;
    if (rank_by_sm_ && warm_weights_.on()) warm_steps_.configure(config.warp_age_warm_step, max_rank);
    if (ranked_) warp_rank_.assign(static_cast<std::size_t>(config.sms) * warps_per_sm_, 0);
    if (warm_steps_.on()) scheduler_rank_.assign(warp_rank_.size(), 0);
    sms_.assign(config.sms, SmTurn{});
    for (SmTurn& sm : sms_) sm.last = warps_per_sm_ - 1;  // the first turn goes to slot 0
}

void IssueScheduler::first_wave() {
    first_wave_end_age_ = ~0ull;
    for (std::uint32_t s : first_wave_sms(config_, blocks_, blocks_per_sm_))
        if (blocks_waiting()) dispatch(s, dispatched_);
    first_wave_end_age_ = slots_.warps_loaded();
}

std::uint64_t IssueScheduler::live_warps() const {
    std::uint64_t live = 0;
    for (const SmTurn& sm : sms_) live += sm.live_warps;
    return live;
}

std::uint64_t IssueScheduler::fewest_requests_left(std::uint32_t s) const {
    std::uint64_t fewest = ~0ull;
    for (std::uint32_t j = 0; j < blocks_per_sm_; ++j) {
        if (block_left_[static_cast<std::size_t>(s) * blocks_per_sm_ + j] == 0) continue;  // a free slot
        std::uint64_t left = 0;
        for (std::uint32_t w = 0; w < warps_per_block_; ++w) {
            const WarpSlot& warp = slots_[static_cast<std::size_t>(s) * warps_per_sm_ + j * warps_per_block_ + w];
            if (warp.live()) left += warp.requests - warp.k;
        }
        fewest = std::min(fewest, left);
    }
    return fewest;
}

std::uint32_t IssueScheduler::free_block_slot(std::uint32_t s) const {
    std::uint32_t j = 0;  // the SM's first free residency slot
    while (block_left_[static_cast<std::size_t>(s) * blocks_per_sm_ + j] != 0) ++j;
    return s * blocks_per_sm_ + j;
}

template <class Load>
void IssueScheduler::load_warps(std::uint32_t s, std::uint32_t block_slot, Load&& load) {
    for (std::uint32_t w = 0; w < warps_per_block_; ++w) {
        // Warps past the end of a built-in launch, or recorded warps without an access, issue nothing.
        const std::size_t slot = static_cast<std::size_t>(block_slot) * warps_per_block_ + w;
        if (!load(slot, w)) continue;
        if (ranked_) {  // a new block is the youngest of its SM
            // Its rank counts the live warps of older blocks on its scheduler (or on its SM,
            // GpuConfig::warp_age_rank), not its own block's: on the chip a block's warps end
            // together, also when it is left behind.
            std::uint32_t older = 0, on_scheduler = 0;
            for_rank_mates(s, slot, [&](std::size_t o) {
                const bool counts = !same_block(o, slot) && slots_[o].live();
                older += counts;
                on_scheduler += counts && same_scheduler(s, o, slot);
            });
            warp_rank_[slot] = older;
            if (warm_steps_.on()) scheduler_rank_[slot] = on_scheduler;
            slots_[slot].rate = age_weighted(slots_[slot].rate, slots_[slot]);
        }
        ++block_left_[block_slot];
        ++sms_[s].live_warps;
    }
}

void IssueScheduler::promote_younger(std::uint32_t s, const WarpSlot& finished) {
    const std::size_t done = static_cast<std::size_t>(&finished - slots_.data());
    for_rank_mates(s, done, [&](std::size_t o) {
        WarpSlot& w = slots_[o];
        if (!w.live() || w.age < finished.age || same_block(o, done)) return;
        --warp_rank_[o];
        if (warm_steps_.on() && same_scheduler(s, o, done)) --scheduler_rank_[o];
        w.rate = drawn_rate(w, warp_in_block(s, o));
    });
}

void IssueScheduler::dispatch_planned(std::uint32_t s, std::uint64_t block, std::uint64_t age) {
    const std::uint32_t block_slot = free_block_slot(s);
    load_warps(s, block_slot, [&](std::size_t slot, std::uint32_t w) {
        if (!slots_.load_planned(slot, block, w, block_slot, age)) return false;
        ++age;
        return true;
    });
}

void IssueScheduler::dispatch(std::uint32_t s, std::uint64_t block) {
    const std::uint32_t block_slot = free_block_slot(s);
    // A block without a warp that issues (a recorded block whose threads made no access) takes no
    // time: the next one takes its place at once.
    for (; block < blocks_; block = ++dispatched_) {
        load_warps(s, block_slot,
                   [&](std::size_t slot, std::uint32_t w) { return slots_.load(slot, block, w, block_slot); });
        if (block_left_[block_slot] != 0) break;
    }
    if (block < blocks_) ++dispatched_;
}

}  // namespace cachesim
