#include "sim/gpu/known_misses.hpp"

namespace cachesim {

namespace {

// Column widths up to this are in the validation sets at every block size from 64 up.
constexpr std::uint32_t kWidestCheckedStrip = 128;

bool one_warp_blocks(const WorkloadSpec*, const GpuConfig& config) { return config.block <= config.warp_size; }

// A matmul in column strips wider than the sets hold, narrower than the launch (a strip as wide
// as the matrix is the naive order, which the sets hold).
bool wide_matmul_strips(const WorkloadSpec* workload, const GpuConfig& config) {
    return workload && workload->kind == WorkloadKind::matmul && workload->schedule.kind == ScheduleKind::column &&
           workload->schedule.width > kWidestCheckedStrip && workload->schedule.width < workload->width &&
           !one_warp_blocks(workload, config);
}

// The measured figures are the thesis sweep on the H200 (tests/data/h200/thesis_matmul.csv) and
// the H100 runs of tests/data/h100/wide_strips and one_warp_blocks.
constexpr KnownMiss kKnownMisses[] = {
    {one_warp_blocks, "blocks of one warp", "L1 up to 32 points low",
     "the chip runs an SM's one-warp blocks in waves that end together, which the model's "
     "pace does not; for the 1024^3 matmul at block 32 its L1 hit rate was up to 32 points below the chip's "
     "(the naive order 39.8% against the H200's 71.9%) (docs/fidelity.md, \"One-warp blocks: the chip's waves\")"},
    {wide_matmul_strips, "matmul strips wider than 128 columns", "L1 4 to 17 points high",
     "on the chip the blocks sharing a strip's columns drift apart, which "
     "the model's pace does not follow; for the 1024^3 matmul in strips of 256 and 512 columns its L1 hit rate "
     "was 4 to 17 points above the chip's at blocks 64 to 1024 (docs/fidelity.md, \"Wide strips: the chip's "
     "pace, not the cache\")"},
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
