#include "sim/gpu/known_misses.hpp"

namespace cachesim {

namespace {

// Column widths up to this are in the validation sets at every block size from 64 up.
constexpr std::uint32_t kWidestCheckedStrip = 128;

bool is_matmul(const WorkloadSpec* workload) { return workload && workload->kind == WorkloadKind::matmul; }

bool one_warp(const GpuConfig& config) { return config.block <= config.warp_size; }

// At block 32 the matmul's narrowest strip measured more than 3.1 points off.
constexpr std::uint32_t kNarrowestOneWarpMiss = 128;

// The matmul in blocks of one warp, in the orders whose hits rest on other blocks: the naive
// order and strips of 128 columns or more.
bool one_warp_matmul_blocks(const WorkloadSpec* workload, const GpuConfig& config) {
    if (!is_matmul(workload) || !one_warp(config)) return false;
    const Schedule& s = workload->schedule;
    return s.kind == ScheduleKind::linear || (s.kind == ScheduleKind::column && s.width >= kNarrowestOneWarpMiss);
}

// A matmul in column strips wider than the sets hold, narrower than the launch (a strip as wide
// as the matrix is the naive order, which the sets hold), in blocks of more than one warp.
bool wide_matmul_strips(const WorkloadSpec* workload, const GpuConfig& config) {
    return is_matmul(workload) && !one_warp(config) && workload->schedule.kind == ScheduleKind::column &&
           workload->schedule.width > kWidestCheckedStrip && workload->schedule.width < workload->width;
}

// The measured figures are the thesis sweep on the H200 (tests/data/h200/thesis_matmul.csv,
// thesis_stencil.csv) and the H100 runs of tests/data/h100/wide_strips and one_warp_blocks.
constexpr KnownMiss kKnownMisses[] = {
    {one_warp_matmul_blocks, "one-warp matmul blocks, naive or strips >= 128", "L1 5 to 32 points low",
     "the chip runs an SM's one-warp blocks in waves that end together, which the model's pace does not; for "
     "the 1024^3 matmul at block 32 its L1 hit rate was 4.6 to 32 points below the chip's in the naive order "
     "and in strips of 128 to 2048 columns (the naive order 39.8% against the H200's 71.9%), while narrower "
     "strips, and the 9x9 stencil in every order, were within 3.1 points (docs/fidelity.md, \"One-warp blocks: "
     "the chip's waves\")"},
    {wide_matmul_strips, "matmul strips wider than 128 columns", "L1 4 to 17 points high",
     "on the chip the blocks sharing a strip's columns drift apart, which the model's pace does not follow; "
     "for the 1024^3 matmul in strips of 256 and 512 columns its L1 hit rate was 4 to 17 points above the "
     "chip's at blocks 64 to 1024 (docs/fidelity.md, \"Wide strips: the chip's pace, not the cache\")"},
};

}  // namespace

std::vector<const KnownMiss*> known_misses(const WorkloadSpec* workload, const GpuConfig& config) {
    std::vector<const KnownMiss*> found;
    if (config.timeline) return found;  // the chip's own pace
    for (const KnownMiss& miss : kKnownMisses)
        if (miss.applies(workload, config)) found.push_back(&miss);
    return found;
}

}  // namespace cachesim
