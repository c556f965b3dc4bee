#include "sim/gpu/known_misses.hpp"

#include "sim/gpu/l1_hit_sources.hpp"
#include "sim/gpu/warp_rate.hpp"

namespace cachesim {

namespace {

// Column widths up to this are in the validation sets at every block size from 64 up.
constexpr std::uint32_t kWidestCheckedStrip = 128;

bool is_matmul(const WorkloadSpec* workload) { return workload && workload->kind == WorkloadKind::matmul; }

bool one_warp(const GpuConfig& config) { return config.block <= config.warp_size; }

// The matmul's orders whose L1 hits rest on other blocks of the SM: the naive order and strips
// of 128 columns or more. Narrower strips share within a block: at block 32, and from a warm L2,
// they measured within 3.1 and 2.5 points where these were far off.
bool shares_across_blocks(const Schedule& s) {
    return s.kind == ScheduleKind::linear || (s.kind == ScheduleKind::column && s.width >= 128);
}

// The matmul in blocks of one warp, in the orders that share across blocks, and in tiles, whose
// one-warp blocks are a tile's rows: the rows of a tile read the same lines of B.
bool one_warp_matmul_blocks(const WorkloadSpec* workload, const GpuConfig& config) {
    return is_matmul(workload) && one_warp(config) &&
           (shares_across_blocks(workload->schedule) || workload->schedule.kind == ScheduleKind::tiled);
}

// A matmul in column strips wider than the sets hold, narrower than the launch (a strip as wide
// as the matrix is the naive order, which the sets hold), in blocks of more than one warp.
bool wide_matmul_strips(const WorkloadSpec* workload, const GpuConfig& config) {
    return is_matmul(workload) && !one_warp(config) && workload->schedule.kind == ScheduleKind::column &&
           workload->schedule.width > kWidestCheckedStrip && workload->schedule.width < workload->width;
}

// The matmul started with its arrays in the L2 (a kernel before it wrote them), in the orders
// that share across blocks: the presets' L1 is the cold launch's there.
bool warm_matmul_sharing_blocks(const WorkloadSpec* workload, const GpuConfig& config) {
    return is_matmul(workload) && config.l2_start == L2Start::warm && shares_across_blocks(workload->schedule);
}

// The matmul with an L1 below the one the rates were fitted at (shared memory takes the rest),
// where it draws rates (not in lock step).
bool small_l1_matmul(const WorkloadSpec* workload, const GpuConfig& config) {
    return is_matmul(workload) && runs_rates_below_fitted_l1(config, workload);
}

// The matmul's naive order in lock step, in blocks of two warps or more, in the loops whose naive
// order was measured high there (the unrolled-once loop's was within 1.0 point).
bool lockstep_naive_matmul(const WorkloadSpec* workload, const GpuConfig& config) {
    return is_matmul(workload) && workload->schedule.kind == ScheduleKind::linear &&
           config.block >= 2 * config.warp_size && config.compilation != KernelCompilation::unroll1 &&
           runs_in_lockstep(config, workload);
}

// The 32-bit matmul's naive order where its rates are drawn (in lock step the region above is
// its own); bounded by the points of its L1 rate from other blocks (kTimingDependentPoints).
bool naive32_matmul(const WorkloadSpec* workload, const GpuConfig& config) {
    return is_matmul(workload) && workload->schedule.kind == ScheduleKind::linear &&
           config.compilation == KernelCompilation::index32 && !one_warp(config) && !runs_in_lockstep(config, workload);
}

// The measured figures are the thesis sweep on the H200 (tests/data/h200/thesis_matmul.csv,
// thesis_stencil.csv), the H100 runs of tests/data/h100/wide_strips and one_warp_blocks, the
// H200's warm probes (tests/data/h200/warm_l2), its shared-memory sets
// (docs/fidelity-shared-memory.md), and the 32-bit naive order of every set but training's with
// the probes of tests/data/h100/naive32.
constexpr KnownMiss kKnownMisses[] = {
    {one_warp_matmul_blocks, "one-warp matmul blocks, naive, tiles or strips >= 128", "L1 3 to 22 points low",
     "the chip runs an SM's one-warp blocks in waves that end together and refills the SM with a whole wave, "
     "which the model's refill does not; for the 1024^3 matmul at block 32 its L1 hit rate was 3.1 to 22 "
     "points below the chip's in the naive order and in strips of 128 to 2048 columns (the naive order 50.0% "
     "against the H200's 71.9%), and for the 1536^2 matmul in tiles of 32x32 10 to 15 points below an H100's, "
     "while narrower strips, and the 9x9 stencil in every order, were within 3.0 points (docs/fidelity.md, "
     "\"One-warp blocks: the chip's waves\")"},
    {wide_matmul_strips, "matmul strips wider than 128 columns", "L1 4 to 17 points high",
     "on the chip the blocks sharing a strip's columns drift apart, which the model's pace does not follow; "
     "for the 1024^3 matmul in strips of 256 and 512 columns its L1 hit rate was 4 to 17 points above the "
     "chip's at blocks 64 to 1024 (docs/fidelity.md, \"Wide strips: the chip's pace, not the cache\")"},
    {warm_matmul_sharing_blocks, "matmul from a warm L2, naive or strips >= 128", "L1 up to 31 points high",
     "the presets' L1 is the cold launch's, while on the H200 the blocks that share lines part sooner when the "
     "arrays are already in the L2: the 768^2 matmul's naive order and strips of 128 columns hit the L1 up to "
     "31 points less than the model gives (narrower strips and tiles within 2.5) (docs/model-studies.md, "
     "\"Where a launch's first reads come from\")"},
    {small_l1_matmul, "matmul with an L1 below 224 KiB", "L1 up to 43 points low, up to 25 high",
     "the rates were fitted at the 224 KiB L1 of launches without shared memory; below it, on the H200, the "
     "model was within 3 points in 45 of 64 matmul launches at 60 KiB but up to 32 points low where an SM's "
     "blocks share lines of B in the first waves (never more than 1.8 points high there); with 28 KiB, "
     "column:128 was 43 below an H100's at 12 blocks of four warps an SM, column:64 27 below the H200's and "
     "morton 13 to 25 above it at 19 blocks of three warps, and the 32-bit loop's tiles 8 to 14 above at "
     "eight blocks of four (docs/fidelity-shared-memory.md, \"A small L1 over many waves\"; "
     "docs/model-studies.md, \"Lock step where the scheduler keeps pace\")"},
    {lockstep_naive_matmul, "naive matmul in lock step, blocks of two warps or more", "L1 4 to 16 points high",
     "in lock step the model keeps every warp of an SM together over the whole loop, and the naive order's "
     "hits in B rest on all of them; on the chip they part even where the scheduler keeps a lone warp's "
     "pace: the 64-bit loop's L1 hit rate was 15.6 points above the H200's at eight blocks of four warps "
     "an SM, 11.9 to 14.9 above an H100's at 10 and 11 blocks of four and 4 of eight, 4.4 above at 15 "
     "blocks of two; the 32-bit loop's 10.2 above at 12 blocks of two. The unrolled-once loop's was within "
     "1.0 point at 12 blocks of four (docs/model-studies.md, \"Lock step where the scheduler keeps pace\")"},
    {naive32_matmul, "32-bit naive matmul resting on other blocks", "L1 up to 8 points high",
     "where 10 points or more of the model's L1 hit rate come from sectors another block of the SM brought, "
     "the chip's blocks that read the same lines of B part in ways the model's pace does not follow: over 12 "
     "launches of the 32-bit build's naive order measured on the H200 and an H100 the model was 0.4 points "
     "below to 7.5 above the chip, 4 of them more than 6 above and 4 within 3; under 10 points 12 of 13 were "
     "within 3 (docs/fidelity.md, \"The 32-bit naive order, probed\")",
     kTimingDependentPoints},
};

}  // namespace

std::vector<const KnownMiss*> known_misses(const WorkloadSpec* workload, const GpuConfig& config,
                                           std::optional<double> other_block_points) {
    std::vector<const KnownMiss*> found;
    if (config.timeline) return found;  // the chip's own pace
    for (const KnownMiss& miss : kKnownMisses) {
        if (!miss.applies(workload, config)) continue;
        if (miss.min_other_block_points > 0 && other_block_points && *other_block_points < miss.min_other_block_points)
            continue;
        found.push_back(&miss);
    }
    return found;
}

bool known_misses_need_hit_sources(const WorkloadSpec* workload, const GpuConfig& config) {
    if (config.timeline) return false;
    for (const KnownMiss& miss : kKnownMisses)
        if (miss.min_other_block_points > 0 && miss.applies(workload, config)) return true;
    return false;
}

}  // namespace cachesim
