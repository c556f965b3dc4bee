#pragma once
// When every warp of one measured launch ran, as `gpubench --warp-times` records it: per warp its
// SM and the %globaltimer of its lane 0 at the start and at the end. The GPU model can replay the
// launch in that order instead of its lockstep rounds (GpuConfig::timeline).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "traces/workload_spec.hpp"

namespace cachesim {

// Warps of `warp_size` threads that have a thread in range when blocks of `block` threads cover
// `items` launch indices (a block's warps past the end run nothing).
std::uint64_t warps_in_range(std::uint64_t items, std::uint32_t block, std::uint32_t warp_size);

struct WarpInterval {
    std::uint32_t sm = 0;
    std::uint64_t start_ns = 0, end_ns = 0;
};

struct WarpTimeline {
    std::string source;               // the file, for reports
    std::uint32_t launch = 0;         // the recorded launch it holds
    std::uint32_t block = 0;          // threads per block
    std::uint32_t warps_per_block = 0;
    // Index block * warps_per_block + warp within its block: every warp with a thread in range.
    std::vector<WarpInterval> warps;
    // Progress samples (progressprobe's files; empty for start and end only): the loop steps at
    // which each warp's time was taken, ascending from 0 to the loop's last, and per warp one time
    // per step (warp * sample_steps.size() + sample), the first its start and the last its end.
    std::vector<std::uint32_t> sample_steps;
    std::vector<std::uint64_t> samples;

    // When the warp's request k of `per_warp` issues: spread evenly over its interval, or over the
    // progress samples between which its loop step falls.
    double request_time(std::uint64_t warp, std::uint32_t k, std::uint32_t per_warp) const;
};

// The warps of `workload` run with `block` threads per block, launch `launch` (the file's first
// launch of that configuration when not given). Columns: kernel, width, height, stencil_w,
// stencil_h, depth, schedule, block_size, launch, block, warp, sm, start_ns, end_ns (others, such
// as slot, are ignored). Throws InputError naming the file and line of anything malformed, a warp
// given twice or missing, an end before its start, or, when no row matches, the configurations
// the file does hold.
WarpTimeline parse_warp_times(std::string_view text, const std::string& source, const WorkloadSpec& workload,
                              std::uint32_t block, std::optional<std::uint32_t> launch = std::nullopt);
// progressprobe's per-warp samples of the matmul (columns launch, block, warp, sm, then t0, tK,
// t2K, ... up to the loop's depth: ns since the launch's first sample); the configuration is the
// caller's, the file having none. Throws InputError for a workload other than the matmul, samples
// that do not end at its depth, times that go back, or warps missing, doubled or out of range.
WarpTimeline parse_warp_progress(std::string_view text, const std::string& source, const WorkloadSpec& workload,
                                 std::uint32_t block, std::optional<std::uint32_t> launch = std::nullopt);
// Either format, told apart by the header (a progress file has t0 and no start_ns); gzip files
// are inflated.
WarpTimeline read_warp_times(const std::string& path, const WorkloadSpec& workload, std::uint32_t block,
                             std::optional<std::uint32_t> launch = std::nullopt);

}  // namespace cachesim
