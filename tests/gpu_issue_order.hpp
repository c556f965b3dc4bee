#pragma once
// A launch's requests in issue order on one SM in lock step (no rate spread), for the tests of the
// scheduler's mechanisms (bursts, block start skips).
#include <algorithm>
#include <cstdint>
#include <tuple>
#include <vector>

#include "sim/gpu/gpu_model.hpp"

namespace cachesim::test {

using Issued = std::tuple<std::uint64_t, std::uint32_t, std::uint32_t>;  // (block, warp, k)

inline std::vector<GpuIssue> issue_log_on_one_sm(const WorkloadSpec& spec, GpuConfig c) {
    c = with_sms(c, 1);
    c.cta_order = CtaOrder::round_robin;
    c.warp_rate_spread = 0;
    std::vector<GpuIssue> log;
    c.issue_log = &log;
    simulate_gpu_model(spec, c);
    std::sort(log.begin(), log.end(), [](const GpuIssue& a, const GpuIssue& b) { return a.round < b.round; });
    return log;
}

inline std::vector<Issued> issued(const std::vector<GpuIssue>& log) {
    std::vector<Issued> order;
    for (const GpuIssue& i : log) order.emplace_back(i.block, i.warp, i.k);
    return order;
}

}  // namespace cachesim::test
