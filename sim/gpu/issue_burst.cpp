#include "sim/gpu/issue_burst.hpp"

namespace cachesim {

std::uint32_t cycle_issue_burst(const GpuConfig& config, const WorkloadSpec* spec) {
    if (config.issue_burst != kIssueBurstAuto) return config.issue_burst;
    if (!spec) return 1;  // a recorded kernel: how its loops were compiled is not in the trace
    return compiled_loop_burst(config.compilation, *spec);
}

// The loads of one iteration as nvcc compiles gpubench's loops (cuobjdump -sass and Nsight Compute's
// per-PC executed instructions of the probe launches: tests/data/h200/sass_loads_variants.txt,
// tests/data/h200/issue_cost/opcode_mix.csv). The stencils of the boxes gpubench specialises
// (square 3, 5, 7, 9) are unrolled whole: all the box's loads in one piece (3x3: 9 loads, then the
// adds; 9x9: the adds start after 7 loads, each using a load issued 6 before). Any other box runs
// the generic kernel, whose loop along a row nvcc unrolls 4 times with the row's remainder first
// (w mod 4 loads), so a row is pieces of w mod 4 + 4, 4, 4, ... loads (one piece of w mod 4 when w
// < 4), each ended by a jump back; the burst is the mean over a row's loads of their piece's loads,
// rounded (11 wide: (7 x 7 + 4 x 4) / 11 = 6). The matmul's k loop is unrolled 16 times: 32 loads
// per iteration, the first multiply-add after 6 of them. index32 compiles the loops the same way;
// unroll1 keeps them rolled: one load (stencil) or two (matmul) per iteration.
std::uint32_t compiled_loop_burst(KernelCompilation compilation, const WorkloadSpec& spec) {
    if (compilation == KernelCompilation::unroll1) return spec.kind == WorkloadKind::stencil ? 1 : 2;
    if (spec.kind != WorkloadKind::stencil) return 32;
    const std::uint32_t w = spec.stencil_w, h = spec.stencil_h;
    if (w == h && (w == 3 || w == 5 || w == 7 || w == 9)) return w * h;
    const std::uint32_t first = w < 4 ? w : w % 4 + 4, fours = w < 4 ? 0 : w / 4 - 1;
    const std::uint64_t squares = std::uint64_t{first} * first + std::uint64_t{fours} * 16;
    return static_cast<std::uint32_t>((2 * squares + w) / (2 * w));  // squares / w, rounded half up
}

std::uint32_t issue_burst_for(const GpuConfig& config, const WorkloadSpec* spec) {
    if (config.scheduler != WarpScheduler::lrr) return 1;
    return cycle_issue_burst(config, spec);
}

}  // namespace cachesim
