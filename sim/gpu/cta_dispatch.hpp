#pragma once
// Which SM receives each block (CTA): the first wave fills the SMs in GpuConfig::cta_order, and
// later blocks go to SMs as they free a residency slot, in round order and, among the SMs that
// free one in the same round, in GpuConfig::cta_refill's rank.
#include <cstdint>
#include <functional>
#include <queue>
#include <tuple>
#include <vector>

#include "sim/gpu/gpu_config.hpp"

namespace cachesim {

// Later waves: among the SMs that free a block slot in the same round, the one with the smallest
// rank receives the next block first (CtaRefill::sm_order: the SM index itself).
std::uint64_t cta_refill_rank(const GpuConfig& config, std::uint64_t round, std::uint32_t sm);

// The first wave: the SM of each block dispatched before any finishes (block i goes to the i-th
// entry), for `blocks` blocks and at most `blocks_per_sm` resident per SM.
std::vector<std::uint32_t> first_wave_sms(const GpuConfig& config, std::uint64_t blocks, std::uint32_t blocks_per_sm);

// SMs that freed a block slot and wait for the next block, served in (round, refill rank) order.
class RefillQueue {
public:
    explicit RefillQueue(const GpuConfig& config) : config_(config) {}
    void push(std::uint64_t round, std::uint32_t sm) { queue_.push({round, cta_refill_rank(config_, round, sm), sm}); }
    bool empty() const { return queue_.empty(); }
    // The round in which the next SM to receive a block freed its slot.
    std::uint64_t top_round() const { return std::get<0>(queue_.top()); }
    // The SM that receives the next block.
    std::uint32_t pop() {
        const std::uint32_t sm = std::get<2>(queue_.top());
        queue_.pop();
        return sm;
    }

private:
    using Freed = std::tuple<std::uint64_t, std::uint64_t, std::uint32_t>;  // (round, refill rank, SM)
    const GpuConfig& config_;
    std::priority_queue<Freed, std::vector<Freed>, std::greater<>> queue_;
};

}  // namespace cachesim
