#include "sim/gpu/loop_issue_cost.hpp"

#include <algorithm>

#include "sim/gpu/issue_burst.hpp"

namespace cachesim {

namespace {

// cycles_per_request of tests/data/h200/issue_cost/issue_cost.csv: the busiest of the issue port
// and the pipes, per load request, on probe launches in no validation set (stencils on 1024^2 at
// block 256, the matmul on 512^2 at depth 512, block 128). The kernel's start (the schedule's
// index arithmetic) is spread over its requests, which is why small boxes cost more per request.
struct LoopCost {
    WorkloadKind kind;
    std::uint32_t box_w, box_h;  // the stencil's box; 0 x 0 for the matmul
    KernelCompilation compilation;
    double cycles;
    LoopLimit limit;  // the busiest: the issue port, or a pipe (fmaheavy or alu)
};
constexpr auto I64 = KernelCompilation::index64;
constexpr auto I32 = KernelCompilation::index32;
constexpr auto U1 = KernelCompilation::unroll1;
constexpr auto Issue = LoopLimit::issue;
constexpr auto Pipe = LoopLimit::pipe;
constexpr LoopCost kCosts[] = {
    {WorkloadKind::stencil, 3, 3, I64, 19.00, Issue},   {WorkloadKind::stencil, 3, 3, I32, 15.33, Issue},
    {WorkloadKind::stencil, 3, 3, U1, 27.44, Issue},    {WorkloadKind::stencil, 5, 5, I64, 11.24, Issue},
    {WorkloadKind::stencil, 5, 5, I32, 8.67, Pipe},    {WorkloadKind::stencil, 5, 5, U1, 20.00, Pipe},
    {WorkloadKind::stencil, 7, 7, I64, 8.96, Issue},    {WorkloadKind::stencil, 7, 7, I32, 7.28, Pipe},
    {WorkloadKind::stencil, 7, 7, U1, 18.45, Pipe},    {WorkloadKind::stencil, 9, 9, I64, 7.96, Issue},
    {WorkloadKind::stencil, 9, 9, I32, 6.74, Pipe},    {WorkloadKind::stencil, 9, 9, U1, 17.73, Pipe},
    {WorkloadKind::stencil, 3, 5, I64, 22.73, Issue},   {WorkloadKind::stencil, 3, 5, I32, 18.13, Issue},
    {WorkloadKind::stencil, 3, 5, U1, 22.53, Issue},    {WorkloadKind::stencil, 11, 11, I64, 12.91, Pipe},
    {WorkloadKind::stencil, 11, 11, I32, 9.19, Issue},  {WorkloadKind::stencil, 11, 11, U1, 15.36, Pipe},
    {WorkloadKind::stencil, 13, 13, I64, 13.62, Pipe}, {WorkloadKind::stencil, 13, 13, I32, 9.03, Issue},
    {WorkloadKind::stencil, 13, 13, U1, 15.09, Pipe},  {WorkloadKind::matmul, 0, 0, I64, 3.62, Issue},
    {WorkloadKind::matmul, 0, 0, I32, 5.22, Pipe},     {WorkloadKind::matmul, 0, 0, U1, 7.59, Issue},
};

const LoopCost* find_loop(const WorkloadSpec& spec, KernelCompilation compilation) {
    const bool stencil = spec.kind == WorkloadKind::stencil;
    const std::uint32_t w = stencil ? spec.stencil_w : 0, h = stencil ? spec.stencil_h : 0;
    for (const LoopCost& cost : kCosts)
        if (cost.kind == spec.kind && cost.box_w == w && cost.box_h == h && cost.compilation == compilation)
            return &cost;
    return nullptr;
}

}  // namespace

void apply_launch_loop(GpuConfig& config, const LoopCounters& loop, std::uint32_t loads_per_iteration) {
    if (config.loop_limit == LoopLimit::automatic) config.loop_limit = loop.pipe_bound() ? LoopLimit::pipe : LoopLimit::issue;
    if (config.loop_issue_cost == kLoopIssueCostAuto)
        config.loop_issue_cost = std::clamp(loop.cycles_per_request, 1.0, kMaxIssueCycles);
    if (config.issue_burst == kIssueBurstAuto && loads_per_iteration > 0)
        config.issue_burst = std::min(loads_per_iteration, kMaxIssueBurst);
}

double measured_issue_cost(const WorkloadSpec& spec, KernelCompilation compilation) {
    const LoopCost* loop = find_loop(spec, compilation);
    return loop ? loop->cycles : 0;
}

LoopLimit measured_loop_limit(const WorkloadSpec& spec, KernelCompilation compilation) {
    const LoopCost* loop = find_loop(spec, compilation);
    return loop ? loop->limit : LoopLimit::automatic;
}

double loop_issue_cost_for(const GpuConfig& config, const WorkloadSpec* spec) {
    if (config.loop_issue_cost != kLoopIssueCostAuto) return config.loop_issue_cost;
    return spec ? measured_issue_cost(*spec, config.compilation) : 0;
}

LoopLimit loop_limit_for(const GpuConfig& config, const WorkloadSpec* spec) {
    if (config.loop_limit != LoopLimit::automatic) return config.loop_limit;
    const LoopLimit measured = spec ? measured_loop_limit(*spec, config.compilation) : LoopLimit::automatic;
    return measured == LoopLimit::automatic ? LoopLimit::issue : measured;
}

double warp_age_weight_for(const GpuConfig& config, const WorkloadSpec* spec) {
    if (config.warp_age_weight != kWarpAgeWeightAuto) return config.warp_age_weight;
    return loop_limit_for(config, spec) == LoopLimit::pipe ? kPipeBoundWarpAgeWeight : 1;
}

double warp_age_warm_weight_for(const GpuConfig& config, const WorkloadSpec* spec) {
    if (config.warp_age_warm_weight != kWarpAgeWeightAuto) return config.warp_age_warm_weight;
    return loop_limit_for(config, spec) == LoopLimit::pipe ? kPipeBoundWarmWarpAgeWeight : 1;
}

double miss_wait_turns_for(const GpuConfig& config, const WorkloadSpec* spec, std::uint32_t warps_per_sm) {
    if (config.miss_wait_turns != kMissWaitAuto) return config.miss_wait_turns;
    const double cost = loop_issue_cost_for(config, spec);
    // the loop as compiled, whatever burst the rounds are given; a recorded kernel's is the burst
    // its trace gave (apply_launch_loop), unknown while that is auto
    const std::uint32_t burst = spec ? compiled_loop_burst(config.compilation, *spec)
                                     : (config.issue_burst == kIssueBurstAuto ? 0 : config.issue_burst);
    if (cost <= 0 || burst == 0) return 0;
    const double warps = static_cast<double>(warps_per_sm) / std::max(1u, config.schedulers_per_sm);
    const double pass = warps * burst * cost;
    const double miss = static_cast<double>(config.lat_l1_miss);
    return miss > pass ? (miss - pass) / pass : 0;
}

std::uint32_t lockstep_warps_for(const GpuConfig& config, const WorkloadSpec* spec) {
    if (config.lockstep_warps != kLockstepWarpsAuto) return config.lockstep_warps;
    if (!spec || spec->kind != WorkloadKind::matmul) return 0;
    switch (config.compilation) {
        case KernelCompilation::index64: return kLockstepWarpsIndex64Matmul;
        case KernelCompilation::index32: return kLockstepWarpsIndex32Matmul;
        case KernelCompilation::unroll1: return kLockstepWarpsUnroll1Matmul;
    }
    return 0;
}

double cycle_issue_cost(const GpuConfig& config, const WorkloadSpec* spec) {
    if (config.issue_cycles != kIssueCyclesAuto) return config.issue_cycles;
    const double cost = loop_issue_cost_for(config, spec);
    return cost > 0 ? cost : 1;
}

}  // namespace cachesim
