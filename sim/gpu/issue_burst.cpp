#include "sim/gpu/issue_burst.hpp"

namespace cachesim {

std::uint32_t cycle_issue_burst(const GpuConfig& config, const WorkloadSpec* spec) {
    if (config.issue_burst != kIssueBurstAuto) return config.issue_burst;
    if (!spec) return 1;  // a recorded kernel: how its loops were compiled is not in the trace
    // The stencil's loops over the box are unrolled: all its loads come before the first add
    // uses one (3x3: 9 loads, then the adds; 9x9: the adds start after 7 loads, each using a load
    // issued 6 before, so the warp waits once). The matmul's k loop is unrolled 16 times: 32 loads
    // per iteration, the first multiply-add after 6 of them. index32 compiles the loops the same
    // way; unroll1 keeps them rolled: one load (stencil) or two (matmul) per iteration.
    return compiled_loop_burst(config.compilation, *spec);
}

std::uint32_t compiled_loop_burst(KernelCompilation compilation, const WorkloadSpec& spec) {
    if (compilation == KernelCompilation::unroll1) return spec.kind == WorkloadKind::stencil ? 1 : 2;
    return spec.kind == WorkloadKind::stencil ? spec.stencil_w * spec.stencil_h : 32;
}

std::uint32_t issue_burst_for(const GpuConfig& config, const WorkloadSpec* spec) {
    if (config.scheduler != WarpScheduler::lrr) return 1;
    return cycle_issue_burst(config, spec);
}

}  // namespace cachesim
