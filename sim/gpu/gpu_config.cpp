#include "sim/gpu/gpu_config.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <sstream>

#include "sim/gpu/carveout_choice.hpp"
#include "sim/thread_model.hpp"

namespace cachesim {

std::string_view coalesce_scope_name(CoalesceScope scope) { return choice_name<CoalesceScope>(kCoalesceScopeChoices, scope); }
std::optional<CoalesceScope> parse_coalesce_scope(std::string_view text) {
    return parse_choice<CoalesceScope>(kCoalesceScopeChoices, text);
}
std::string_view cta_order_name(CtaOrder order) { return choice_name<CtaOrder>(kCtaOrderChoices, order); }
std::optional<CtaOrder> parse_cta_order(std::string_view text) {
    return parse_choice<CtaOrder>(kCtaOrderChoices, text, kCtaOrderAliases);
}
std::string_view cta_refill_name(CtaRefill refill) { return choice_name<CtaRefill>(kCtaRefillChoices, refill); }
std::optional<CtaRefill> parse_cta_refill(std::string_view text) { return parse_choice<CtaRefill>(kCtaRefillChoices, text); }
std::string_view partition_map_name(PartitionMap map) { return choice_name<PartitionMap>(kPartitionMapChoices, map); }
std::optional<PartitionMap> parse_partition_map(std::string_view text) {
    return parse_choice<PartitionMap>(kPartitionMapChoices, text);
}
std::string_view partition_fill_name(PartitionFill fill) { return choice_name<PartitionFill>(kPartitionFillChoices, fill); }
std::optional<PartitionFill> parse_partition_fill(std::string_view text) {
    return parse_choice<PartitionFill>(kPartitionFillChoices, text);
}
std::string_view warp_scheduler_name(WarpScheduler scheduler) {
    return choice_name<WarpScheduler>(kWarpSchedulerChoices, scheduler);
}
std::optional<WarpScheduler> parse_warp_scheduler(std::string_view text) {
    return parse_choice<WarpScheduler>(kWarpSchedulerChoices, text, kWarpSchedulerAliases);
}

namespace {

[[noreturn]] void fail(const std::string& message) { throw SimulationError(message); }

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

}  // namespace

GpuOccupancy gpu_occupancy(const GpuConfig& c) {
    if (c.warp_size == 0 || c.warp_size > 64) fail("warp size must be between 1 and 64, not " + std::to_string(c.warp_size));
    if (c.sms == 0) fail("--sms must be positive");
    if (c.sms > 100000) fail("--sms " + std::to_string(c.sms) + " is too large");
    if (c.block == 0) fail("--block must be positive");
    if (c.block > 1024) fail("--block " + std::to_string(c.block) + ": CUDA allows at most 1024 threads per block");
    if (c.max_blocks_per_sm == 0) fail("--blocks-per-sm must be positive");
    if (c.max_threads_per_sm == 0) fail("--threads-per-sm must be positive");
    if (c.max_threads_per_sm > (1u << 20)) fail("--threads-per-sm is too large");
    GpuOccupancy o;
    o.warps_per_block = static_cast<std::uint32_t>(ceil_div(c.block, c.warp_size));
    const std::uint64_t block_threads = static_cast<std::uint64_t>(o.warps_per_block) * c.warp_size;
    if (block_threads > c.max_threads_per_sm)
        fail("a block of " + std::to_string(c.block) + " threads does not fit in an SM of " +
             std::to_string(c.max_threads_per_sm) + " threads (--block, --threads-per-sm)");
    std::uint64_t limit = c.max_threads_per_sm / block_threads;
    o.limiter = "threads";
    auto limit_by = [&](std::uint64_t blocks, const char* why) {
        if (blocks < limit) {
            limit = blocks;
            o.limiter = why;
        }
    };
    limit_by(c.max_blocks_per_sm, "blocks");
    if (c.regs_per_thread != 0) {
        if (c.regs_per_thread > 255) fail("--regs-per-thread must be at most 255");
        // Registers are allocated per warp in units of 256 (CUDA occupancy calculator).
        const std::uint64_t per_warp = ceil_div(static_cast<std::uint64_t>(c.regs_per_thread) * c.warp_size, 256) * 256;
        limit_by(c.regs_per_sm / per_warp / o.warps_per_block, "registers");
    }
    const std::uint64_t smem_block = static_cast<std::uint64_t>(c.smem_per_block) + c.smem_reserved_per_block;
    std::uint64_t max_carveout = c.unified_l1_bytes;
    if (!c.carveouts_kib.empty())
        max_carveout = std::min<std::uint64_t>(max_carveout, static_cast<std::uint64_t>(
                           *std::max_element(c.carveouts_kib.begin(), c.carveouts_kib.end())) * 1024);
    if (smem_block != 0) limit_by(max_carveout / smem_block, "shared memory");
    if (limit == 0 && o.limiter == "shared memory")
        fail("a block's shared memory (" + std::to_string(smem_block) + " B with the reserved part) exceeds "
             "the largest carve-out (" + std::to_string(max_carveout) + " B): --smem-per-block, --carveouts");
    if (limit == 0 && o.limiter == "registers")
        fail("a block of " + std::to_string(c.block) + " threads needs more registers than an SM has "
             "(--regs-per-thread " + std::to_string(c.regs_per_thread) + ", --regs-per-sm " +
             std::to_string(c.regs_per_sm) + ")");
    if (limit == 0)
        fail("no block of " + std::to_string(c.block) + " threads can be resident on an SM (limited by " +
             o.limiter + ")");
    o.blocks_per_sm = static_cast<std::uint32_t>(limit);
    o.carveout_bytes = choose_carveout_bytes(c.carveout_rule,
                                             {.warps_per_block = o.warps_per_block,
                                              .resident_blocks = o.blocks_per_sm,
                                              .max_blocks_per_sm = c.max_blocks_per_sm,
                                              .smem_per_block = c.smem_per_block,
                                              .smem_block_total = smem_block},
                                             c.carveouts_kib, c.unified_l1_bytes);
    if (c.l1_auto) {
        if (c.unified_l1_bytes < o.carveout_bytes) fail("the shared-memory carve-out exceeds the unified L1");
        const std::uint64_t line = c.l1.line_bytes ? c.l1.line_bytes : 1;
        o.l1_bytes = (c.unified_l1_bytes - o.carveout_bytes) / line * line;
    } else {
        o.l1_bytes = c.l1.size_bytes;
    }
    return o;
}

CacheConfig effective_l1(const GpuConfig& c) {
    CacheConfig l1 = c.l1;
    l1.name = "L1";
    l1.size_bytes = gpu_occupancy(c).l1_bytes;
    l1.write_policy = WritePolicy::write_through_no_allocate;
    return l1;
}

CacheConfig l2_partition(const GpuConfig& c) {
    CacheConfig part = c.l2;
    part.name = "L2";
    if (c.l2_partitions > 1) part.size_bytes = c.l2.size_bytes / c.l2_partitions;
    part.write_policy = WritePolicy::write_back_allocate;
    return part;
}

GpuConfig with_sms(GpuConfig c, std::uint32_t sms) {
    c.sms = sms;
    const GpuFloorplan& plan = c.floorplan;
    const auto below = [&](const std::vector<std::uint32_t>& ids) {
        return std::all_of(ids.begin(), ids.end(), [&](std::uint32_t sm) { return sm < sms; });
    };
    const bool fits = plan.sm_partition.size() == sms && below(plan.dispatch_cycle) && below(plan.side_group);
    if (!fits) {
        c.floorplan = {};
        if (c.cta_order == CtaOrder::floorplan || c.cta_order == CtaOrder::floorplan_turns)
            c.cta_order = CtaOrder::round_robin;
        if (c.partition_map == PartitionMap::floorplan) c.partition_map = PartitionMap::halves;
    }
    return c;
}

void validate(const GpuConfig& c) {
    // A carve-out larger than the array it is carved from is a typing mistake, not a choice the driver has.
    for (std::uint32_t kib : c.carveouts_kib)
        if (c.unified_l1_bytes != 0 && std::uint64_t{kib} * 1024 > c.unified_l1_bytes)
            fail("--carveouts: " + std::to_string(kib) + " KiB is more than the unified L1/shared-memory array (" +
                 std::to_string(c.unified_l1_bytes / 1024) + " KiB, --unified-l1)");
    const GpuOccupancy o = gpu_occupancy(c);
    const std::uint32_t coalesce_line = c.l1.line_bytes;
    if (coalesce_line == 0 || !std::has_single_bit(coalesce_line))
        fail("L1: line size " + std::to_string(coalesce_line) + " B must be a power of two");
    const CacheConfig l1 = effective_l1(c);
    if (l1.enabled()) {
        const GeometryResult g = make_geometry(l1);
        if (!g.geometry) fail(g.error + (c.l1_auto ? " (L1 size from the unified L1 minus the carve-out: " +
                                                         std::to_string(o.l1_bytes) + " B)" : ""));
    } else {
        // The coalescer still needs a valid line/sector split.
        CacheConfig probe = c.l1;
        probe.size_bytes = probe.line_bytes;
        probe.ways = 1;
        probe.policy = PolicyKind::lru;
        const GeometryResult g = make_geometry(probe);
        if (!g.geometry) fail(g.error);
    }
    if (c.l2_partitions == 0) fail("--l2-partitions must be at least 1");
    if (c.l2_partitions > 2) fail("--l2-partitions must be 1 or 2");
    if (c.l2.enabled()) {
        if (c.l2.size_bytes % c.l2_partitions != 0)
            fail("L2: size " + std::to_string(c.l2.size_bytes) + " B does not split into " +
                 std::to_string(c.l2_partitions) + " equal partitions");
        const GeometryResult g = make_geometry(l2_partition(c));
        if (!g.geometry)
            fail(g.error + (c.l2_partitions > 1 ? " (per partition of " + std::to_string(c.l2.size_bytes / c.l2_partitions) + " B)" : ""));
        const std::uint32_t sector = g.geometry->sector_bytes;
        if (c.dram_fetch_bytes < sector || c.dram_fetch_bytes > c.l2.line_bytes ||
            !std::has_single_bit(c.dram_fetch_bytes))
            fail("--dram-fetch " + std::to_string(c.dram_fetch_bytes) +
                 " must be a power of two between the L2 sector (" + std::to_string(sector) +
                 " B) and line (" + std::to_string(c.l2.line_bytes) + " B)");
    }
    if (!(c.warp_rate_spread >= 0 && c.warp_rate_spread <= 1))  // also refuses NaN
        fail("--warp-rate-spread " + (std::ostringstream() << c.warp_rate_spread).str() + " must be between 0 and 1");
    if (c.warp_rate_redraw > kMaxIssueBurst)
        fail("--warp-rate-redraw " + std::to_string(c.warp_rate_redraw) + " must be between 0 and " +
             std::to_string(kMaxIssueBurst));
    if (c.issue_burst > kMaxIssueBurst)
        fail("--issue-burst " + std::to_string(c.issue_burst) + " must be 'auto' or between 1 and " +
             std::to_string(kMaxIssueBurst));
    if (c.block_start_skip != kBlockStartSkipAuto && c.block_start_skip > kMaxBlockStartSkip)
        fail("--block-start-skip " + std::to_string(c.block_start_skip) + " must be between 0 and " +
             std::to_string(kMaxBlockStartSkip));
    if (c.lockstep_warps != kLockstepWarpsAuto && c.lockstep_warps > kMaxLockstepWarps)
        fail("--lockstep-warps " + std::to_string(c.lockstep_warps) + " must be 'auto' or between 0 and " +
             std::to_string(kMaxLockstepWarps));
    if (c.warp_age_weight != kWarpAgeWeightAuto && !(c.warp_age_weight > 0 && c.warp_age_weight <= 1))
        fail("--warp-age-weight " + (std::ostringstream() << c.warp_age_weight).str() +
             " must be 'auto' or above 0 and at most 1");
    if (c.miss_wait_turns != kMissWaitAuto && !(c.miss_wait_turns >= 0 && c.miss_wait_turns <= kMaxMissWaitTurns))
        fail("--miss-wait-turns " + (std::ostringstream() << c.miss_wait_turns).str() +
             " must be 'auto' or from 0 to 64");
    if (c.loop_issue_cost != kLoopIssueCostAuto && !(c.loop_issue_cost >= 1 && c.loop_issue_cost <= kMaxIssueCycles))
        fail("--loop-issue-cost " + (std::ostringstream() << c.loop_issue_cost).str() +
             " must be 'auto' or between 1 and " + std::to_string(static_cast<int>(kMaxIssueCycles)));
    if (c.warp_age_group < 1 || c.warp_age_group > 64)
        fail("--warp-age-group " + std::to_string(c.warp_age_group) + " must be between 1 and 64");
    if (!(c.warp_age_warm_step > 0 && c.warp_age_warm_step <= 1))
        fail("--warp-age-warm-step " + (std::ostringstream() << c.warp_age_warm_step).str() +
             " must be above 0 and at most 1");
    if (c.warp_age_warm_step < 1 && (c.warp_age_rank != WarpAgeRank::block || c.warp_age_warm_group == 0))
        fail("--warp-age-warm-step below 1 needs --warp-age-rank block and a --warp-age-warm-group above 0");
    if (c.warp_age_warm_group > 64)
        fail("--warp-age-warm-group " + std::to_string(c.warp_age_warm_group) + " must be between 0 and 64");
    if (c.warp_age_warm_weight != kWarpAgeWeightAuto && !(c.warp_age_warm_weight > 0 && c.warp_age_warm_weight <= 1))
        fail("--warp-age-warm-weight " + (std::ostringstream() << c.warp_age_warm_weight).str() +
             " must be 'auto' or above 0 and at most 1");
    if (c.l2_coalesce_requesters < 2 || c.l2_coalesce_requesters > 255)
        fail("--l2-coalesce-max " + std::to_string(c.l2_coalesce_requesters) + " must be between 2 and 255");
    constexpr std::uint32_t kMaxWindow = 1u << 20;  // the coalescer's table grows with the window
    if (c.l2_coalesce_hit_rounds > kMaxWindow || c.l2_coalesce_miss_rounds > kMaxWindow)
        fail("--l2-coalesce-hit/--l2-coalesce-miss: at most " + std::to_string(kMaxWindow) + " rounds");
    if (c.l2_coalesce_hit_cycles > kMaxWindow || c.l2_coalesce_miss_cycles > kMaxWindow)
        fail("--lrc-hit-cycles/--lrc-miss-cycles: at most " + std::to_string(kMaxWindow) + " cycles");
    if (c.schedulers_per_sm < 1 || c.schedulers_per_sm > 16)  // cycle timing and --warp-age-weight
        fail("--schedulers-per-sm " + std::to_string(c.schedulers_per_sm) + " must be between 1 and 16");
    if (c.timing == IssueTiming::cycles) {
        if (c.issue_cycles != kIssueCyclesAuto && !(c.issue_cycles >= 1 && c.issue_cycles <= kMaxIssueCycles))
            fail("--issue-cycles " + (std::ostringstream() << c.issue_cycles).str() + " must be 'auto' or between 1 and " +
                 std::to_string(static_cast<int>(kMaxIssueCycles)));
        if (c.lat_l1_hit < 1 || c.lat_l1_miss < 1 || c.lat_l1_hit > (1u << 20) || c.lat_l1_miss > (1u << 20))
            fail("--lat-l1-hit/--lat-l1-miss: latencies must be between 1 and " + std::to_string(1u << 20) + " cycles");
        if (c.lat_l2_far > (1u << 20))
            fail("--lat-l2-far " + std::to_string(c.lat_l2_far) + " must be between 0 (off) and " +
                 std::to_string(1u << 20) + " cycles");
        if (c.lat_dram > (1u << 20))
            fail("--lat-dram " + std::to_string(c.lat_dram) + " must be between 0 (off) and " +
                 std::to_string(1u << 20) + " cycles");
    }
    const GpuFloorplan& plan = c.floorplan;
    if (c.cta_order == CtaOrder::floorplan || c.cta_order == CtaOrder::floorplan_turns) {
        const std::string option = "--cta-order " + std::string(cta_order_name(c.cta_order));
        if (plan.dispatch_cycle.empty())
            fail(option + ": this configuration has no measured dispatch order (the h200 "
                 "preset has one, for its 132 SMs)");
        std::vector<bool> seen(c.sms, false);
        for (const std::vector<std::uint32_t>* ids : {&plan.dispatch_cycle, &plan.side_group})
            for (std::uint32_t sm : *ids) {
                if (sm >= c.sms)
                    fail(option + ": the measured dispatch order names SM " + std::to_string(sm) +
                         " but there are " + std::to_string(c.sms) + " SMs (--sms)");
                seen[sm] = true;
            }
        if (plan.side_every == 0) fail(option + ": the side group's turns need a period of at least 1");
        for (std::size_t r = 0; r < plan.row_starts.size(); ++r)
            if (plan.row_starts[r] >= plan.dispatch_cycle.size() || (r == 0 ? plan.row_starts[r] != 0
                                                                          : plan.row_starts[r] <= plan.row_starts[r - 1]))
                fail(option + ": the dispatch rows must start at 0 and rise within the cycle");
        if (std::find(seen.begin(), seen.end(), false) != seen.end())
            fail(option + ": the measured dispatch order leaves out some of the " + std::to_string(c.sms) +
                 " SMs (--sms)");
    }
    if (c.l2_partitions > 1 && c.partition_map == PartitionMap::floorplan) {
        if (plan.sm_partition.size() != c.sms)
            fail("--l2-partition-map floorplan: " +
                 (plan.sm_partition.empty() ? std::string("this configuration has no measured SM -> partition table (the h200 preset has one, "
                                                          "for its 132 SMs)")
                                            : "the measured table has " + std::to_string(plan.sm_partition.size()) +
                                                  " SMs, not " + std::to_string(c.sms) + " (--sms)"));
        for (std::uint8_t p : plan.sm_partition)
            if (p >= c.l2_partitions) fail("--l2-partition-map floorplan: a partition number is out of range");
    }
    for (const CacheConfig* level : {&c.l1, &c.l2})
        if (level->policy == PolicyKind::opt)
            fail(level->name + ": opt is not supported by the GPU model (its pre-pass needs one "
                                "lookup stream per cache; use the thread model)");
}

}  // namespace cachesim
