#include "sim/gpu/warp_slots.hpp"

#include <algorithm>

#include "sim/gpu/block_start_skip.hpp"
#include "sim/gpu/warp_rate.hpp"
#include "traces/schedule.hpp"

namespace cachesim {

WarpSlots::WarpSlots(const WorkloadSpec& spec, const GpuConfig& config, std::size_t count, bool addresses)
    : spec_(spec), config_(config), lanes_(spec, config.reference_addresses), addresses_(addresses) {
    items_ = spec.items();
    warp_size_ = config.warp_size;
    // Cycle timing replaces both: warps drift apart by waiting for memory.
    const bool rounds = config.timing == IssueTiming::rounds;
    rated_ = rounds && config.scheduler == WarpScheduler::lrr && config.warp_rate_spread > 0;
    start_skip_ = rounds && config.scheduler != WarpScheduler::gto && config.block_start_skip > 0;
    resize(count);
}

WarpSlots::WarpSlots(RecordedWarps& recorded, const GpuConfig& config, std::size_t count)
    : spec_(), config_(config), lanes_(spec_, false), recorded_(&recorded) {
    warp_size_ = config.warp_size;
    rated_ = config.scheduler == WarpScheduler::lrr && config.warp_rate_spread > 0;
    start_skip_ = config.scheduler != WarpScheduler::gto && config.block_start_skip > 0;
    resize(count);
}

void WarpSlots::resize(std::size_t count) {
    warps_.resize(count, WarpSlot{});
    if (!addresses_) return;
    xs_.resize(count * warp_size_, 0);
    ys_.resize(count * warp_size_, 0);
    base_a_.resize(count * warp_size_, 0);
    base_b_.resize(count * warp_size_, 0);
    bases_.resize(count, WarpBases{});
    if (recorded_) requests_.resize(count);
}

bool WarpSlots::fill(std::size_t slot, std::uint64_t block, std::uint32_t w, std::uint32_t block_slot,
                     std::uint64_t age) {
    if (recorded_) {
        const std::uint32_t lanes = recorded_->load(block, w, warp_size_, requests_[slot]);
        if (lanes == 0) return false;  // none of its threads made an access: it issues nothing
        warps_[slot] = WarpSlot{age, block, 0, lanes, block_slot, false};
        warps_[slot].requests = requests_[slot].count();
        if (rated_) warps_[slot].rate = warp_issue_credit(config_, block, w);
        if (start_skip_) warps_[slot].skip = block_start_skip_turns(config_, block);
        return true;
    }
    const std::uint64_t tid0 = block * config_.block + static_cast<std::uint64_t>(w) * warp_size_;
    if (tid0 >= items_) return false;  // threads past the launch return at once: no requests
    const std::uint64_t lanes = std::min<std::uint64_t>(
        {warp_size_, static_cast<std::uint64_t>(config_.block) - static_cast<std::uint64_t>(w) * warp_size_,
         items_ - tid0});
    warps_[slot] = WarpSlot{age, block, 0, static_cast<std::uint32_t>(lanes), block_slot, false};
    warps_[slot].requests = lanes_.accesses_per_item();
    if (rated_) warps_[slot].rate = warp_issue_credit(config_, block, w);  // a full credit: issues at its first turn
    if (start_skip_) warps_[slot].skip = block_start_skip_turns(config_, block);
    if (!addresses_) return true;
    std::uint32_t* xs = &xs_[slot * warp_size_];
    std::uint32_t* ys = &ys_[slot * warp_size_];
    for (std::uint32_t lane = 0; lane < lanes; ++lane) {
        const std::uint64_t item = schedule_map(spec_.schedule, tid0 + lane, spec_.width, spec_.height);
        xs[lane] = static_cast<std::uint32_t>(item % spec_.width);
        ys[lane] = static_cast<std::uint32_t>(item / spec_.width);
    }
    std::uint64_t* a = &base_a_[slot * warp_size_];
    std::uint64_t* b = &base_b_[slot * warp_size_];
    WarpBases& bases = bases_[slot];
    bases.interior = lanes_.prepare(xs, ys, static_cast<std::uint32_t>(lanes), a, b);
    bases.lane0[0] = a[0];
    bases.lane0[1] = b[0];
    bases.stride[0] = even_stride(a, static_cast<std::uint32_t>(lanes));
    bases.stride[1] = even_stride(b, static_cast<std::uint32_t>(lanes));
    return true;
}

}  // namespace cachesim
