#pragma once
// Warps at their own rates (GpuConfig::warp_rate_spread): each warp of a block draws a rate, and a
// loose round robin gives a warp a turn's worth of credit at each pass; it issues when the credit
// makes a whole request. Credits are integers (fixed point), so long runs drift by no rounding.
#include <algorithm>
#include <cstdint>

#include "sim/gpu/gpu_config.hpp"
#include "sim/gpu/warp_slot.hpp"
#include "traces/workload_spec.hpp"

namespace cachesim {

// The most requests per turn of the round robin that warp `warp` of launch block `block` issues
// (GpuConfig::warp_rate_spread): min(1, exp(spread * (z - 3))), z a standard normal drawn from the
// seed, the block and the warp. 1 when the spread is 0.
// epoch: the how-many-th draw (GpuConfig::warp_rate_redraw; 0, the first, is the warp's rate when
// it is never redrawn). The configuration is a run's, its automatic scope resolved (with_rate_form).
double warp_issue_rate(const GpuConfig& config, std::uint64_t block, std::uint32_t warp, std::uint64_t epoch = 0);
// The same rate as the scheduler uses it: fixed point, kWarpCreditOne = one request (>= 1).
std::uint64_t warp_issue_credit(const GpuConfig& config, std::uint64_t block, std::uint32_t warp,
                                std::uint64_t epoch = 0);

// The rounds' loose round robin (not cycle timing, not a measured timeline).
bool lrr_rounds(const GpuConfig& config);
// Whether warps draw rates (the rounds' loose round robin with a spread): what the rate redraw, the
// rate scope and the warp age weight act on.
bool rates_drawn(const GpuConfig& config);

// The L1 the h200 and h100 presets' rate spread and block start skip were fitted at: the training
// launches', which use no shared memory (224 KiB at blocks of 128 and 256 threads). Below it, where
// a kernel's shared memory takes the rest, per-warp rates part a block's warps further than the
// H200 does (docs/fidelity-shared-memory.md, "A second shared-memory set").
inline constexpr std::uint64_t kRatesFittedL1Bytes = 224 * 1024;
// Whether `config` draws rates in the rounds (loose round robin, a spread) for a launch whose L1
// holds `l1_bytes`, below the L1 those rates were fitted at.
bool rates_drawn_below_fitted_l1(const GpuConfig& config, std::uint64_t l1_bytes);
// The same for the launch of `spec` (null: a recorded kernel) as it runs (with_rate_form: drawn
// rates, not lock step), with the L1 its occupancy leaves.
bool runs_rates_below_fitted_l1(const GpuConfig& config, const WorkloadSpec* spec);

// The block start skips fitted with each rate scope and the spread 0.15 on the H200's training set
// (docs/model-studies.md, "The block start skip and the rate spread" and "One rate per block").
inline constexpr std::uint32_t kPerWarpStartSkip = 8;
inline constexpr std::uint32_t kPerBlockStartSkip = 4;
// Whether `config`'s drawn rates give way to lock step for the launch of `spec` (null: a recorded
// kernel): its SM holds no more warps a scheduler than the scheduler keeps at a lone warp's pace
// (lockstep_warps_for), so no warp falls behind and neither the rate spread nor the block start
// skip, fitted where schedulers are full, applies.
bool runs_in_lockstep(const GpuConfig& config, const WorkloadSpec* spec);
// `config` as the launch of `spec` runs it: in lock step where runs_in_lockstep (no rate spread, no
// start skip); else with an automatic rate scope and block start skip resolved for its launch (its
// block and shared memory decide the L1): one rate per block where the L1 is below
// kRatesFittedL1Bytes, per warp otherwise, each with its skip. Anything given explicitly is kept.
GpuConfig with_rate_form(GpuConfig config, const WorkloadSpec* spec);

// Loose round robin with rates: the slot among warps[0, count) that issues next; `last` is the
// slot that issued last and becomes the one returned. Each live warp the turn reaches gains its
// rate in credit and issues once the credit makes a request; a warp with skipped turns left (block
// start skip) is passed over and gains nothing. A whole pass without a request jumps, in integers,
// over the passes in which no warp could issue, exactly as if they had been walked.
inline std::uint32_t pick_by_credit(WarpSlot* warps, std::uint32_t count, std::uint32_t& last) {
    for (;;) {
        std::uint32_t c = last;
        for (std::uint32_t i = 0; i < count; ++i) {
            if (++c == count) c = 0;
            WarpSlot& w = warps[c];
            if (!w.live()) continue;
            if (w.skip) {
                --w.skip;
                continue;
            }
            w.credit += w.rate;
            if (w.credit >= kWarpCreditOne) {
                w.credit -= kWarpCreditOne;
                last = c;
                return c;
            }
        }
        std::uint64_t passes = ~0ull;  // until the first warp can issue (>= 1)
        for (std::uint32_t x = 0; x < count; ++x)
            if (warps[x].live())
                passes = std::min(passes, warps[x].skip + (kWarpCreditOne - warps[x].credit + warps[x].rate - 1) /
                                                              warps[x].rate);
        if (passes > 1)
            for (std::uint32_t x = 0; x < count; ++x)
                if (warps[x].live()) {  // skipped turns first, then credit
                    WarpSlot& w = warps[x];
                    const std::uint64_t skipped = std::min<std::uint64_t>(w.skip, passes - 1);
                    w.skip -= static_cast<std::uint32_t>(skipped);
                    w.credit += (passes - 1 - skipped) * w.rate;
                }
    }
}

}  // namespace cachesim
