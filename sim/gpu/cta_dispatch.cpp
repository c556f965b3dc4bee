#include "sim/gpu/cta_dispatch.hpp"

#include <algorithm>

namespace cachesim {

std::uint64_t cta_refill_rank(const GpuConfig& config, std::uint64_t round, std::uint32_t sm) {
    if (config.cta_refill == CtaRefill::sm_order) return sm;
    // splitmix64 of (seed, round, sm): a fresh permutation of the SMs every round
    std::uint64_t z = config.seed * 0x9e3779b97f4a7c15ull + round * 0xbf58476d1ce4e5b9ull + sm * 0x94d049bb133111ebull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    // the SM in the low bits keeps ranks distinct within a round (validate() caps SMs below 2^20)
    return (z & ~0xfffffull) | sm;
}

std::vector<std::uint32_t> first_wave_sms(const GpuConfig& config, std::uint64_t blocks, std::uint32_t blocks_per_sm) {
    const std::uint32_t sms = config.sms;
    const std::uint64_t wave = std::min(blocks, static_cast<std::uint64_t>(sms) * blocks_per_sm);
    std::vector<std::uint32_t> order;
    order.reserve(wave);
    if (config.cta_order == CtaOrder::fill) {  // each SM full before the next
        for (std::uint32_t s = 0; s < sms; ++s)
            for (std::uint32_t r = 0; r < blocks_per_sm && order.size() < wave; ++r) order.push_back(s);
    } else if (config.cta_order == CtaOrder::floorplan || config.cta_order == CtaOrder::floorplan_turns) {
        // The measured rows and side group, walked until every SM is full (validate: together
        // they name every SM).
        const bool turns = config.cta_order == CtaOrder::floorplan_turns;
        const GpuFloorplan& plan = config.floorplan;
        std::vector<std::uint32_t> resident(sms, 0);
        const auto put = [&](std::uint32_t sm) {
            if (order.size() < wave && resident[sm] < blocks_per_sm) {
                ++resident[sm];
                order.push_back(sm);
            }
        };
        const std::size_t rows = std::max<std::size_t>(1, plan.row_starts.size());
        const auto row_start = [&](std::size_t r) { return plan.row_starts.empty() ? 0 : plan.row_starts[r]; };
        std::uint64_t walked = 0, side_turns = 0;
        // The chip starts where earlier launches left its scheduler: with turns, a row the seed chooses.
        for (std::size_t r = turns ? config.seed % rows : 0; order.size() < wave; r = (r + 1) % rows) {
            if (turns && walked + plan.side_lead >= side_turns * plan.side_every) {
                for (std::uint32_t sm : plan.side_group) put(sm);
                ++side_turns;
            }
            const std::size_t end = r + 1 < rows ? row_start(r + 1) : plan.dispatch_cycle.size();
            for (std::size_t i = row_start(r); i < end; ++i, ++walked) put(plan.dispatch_cycle[i]);
            if (!turns && r == 0)
                for (std::uint32_t sm : plan.side_group) put(sm);
        }
    } else {  // one block per SM in turn
        for (std::uint32_t r = 0; r < blocks_per_sm; ++r)
            for (std::uint32_t s = 0; s < sms && order.size() < wave; ++s) order.push_back(s);
    }
    return order;
}

}  // namespace cachesim
