#pragma once
// The hardware description of the GPU execution model: SMs and their residency limits, the
// launch's block size, the per-SM L1 (sized by the shared-memory carve-out), the shared L2 (one or
// two partitions), and the scheduling policies. Plain data; see docs/gpu-model.md.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/enum_choices.hpp"
#include "sim/geometry.hpp"
#include "sim/gpu/carveout_choice.hpp"
#include "sim/gpu/set_index.hpp"

namespace cachesim {

struct WarpTimeline;  // traces/warp_times.hpp

// How the first wave of thread blocks is spread over the SMs.
enum class CtaOrder : std::uint8_t {
    round_robin,  // block b -> SM b mod N, breadth first (what the hardware's CTA scheduler does)
    fill,         // SM 0 is filled to its resident limit, then SM 1, ... (depth first)
    floorplan,    // the chip's measured slot rows (GpuFloorplan) from row 0, the side group with row 0
    floorplan_turns,  // the same rows from row seed mod rows, the side group taking turns of its own
};

// Later waves: in which order SMs that free a block slot in the same round receive the next
// blocks. In lock step many SMs free a slot in the same round; on the chip their finishing order
// is decided by timing the model does not have.
enum class CtaRefill : std::uint8_t {
    shuffled,  // a seeded pseudo-random order per round (no SM is favoured; the default)
    sm_order,  // SM index order, which replays the first wave's placement exactly in every wave
};

// Which blocks take the age group and weight of a loop that reads from DRAM
// (GpuConfig::warp_age_warm_group; dram_blocks.hpp).
enum class WarpAgeDramBlocks : std::uint8_t {
    first_reads,  // blocks most of whose reads are of lines first read by a block still resident
    first_wave,   // the blocks of a cold launch's first wave
};

// What a warp's age rank counts (GpuConfig::warp_age_rank).
enum class WarpAgeRank : std::uint8_t {
    scheduler,  // the live warps of older blocks on the warp's own scheduler
    block,      // those on its SM, per scheduler (rounded down): one rank for all of a block's warps
};

// Whose rate a warp takes (GpuConfig::warp_rate_spread): its own, or its block's.
enum class WarpRateScope : std::uint8_t {
    warp,   // every warp of a block draws its own rate (a block's warps drift apart too)
    block,  // a block's warps share one draw, so they keep in step and only blocks drift apart
    automatic,  // per warp where the L1 is at least the one the rates were fitted at, per block below
};

// Which resident warp of an SM issues the SM's next request.
enum class WarpScheduler : std::uint8_t {
    lrr,  // loose round robin: the next live warp after the last one to issue, in slot order
          // (with warp_rate_spread > 0, a warp it reaches issues only when its credit allows)
    gto,  // greedy then oldest: the same warp until a request misses in L1, then the oldest ready
};

// What the model's time is (docs/gpu-model.md, "Cycle timing").
enum class IssueTiming : std::uint8_t {
    rounds,  // lock step: each SM issues one request a round (warp rates, bursts, start skips)
    cycles,  // warps wait for memory: a burst, then the data's latency; each scheduler of an SM
             // issues at most one request a cycle
};

// How gpubench's kernels were compiled (its --variants): the same accesses, different loops, so a
// different issue burst under --issue-burst auto (tests/data/h200/sass_loads_variants.txt).
enum class KernelCompilation : std::uint8_t {
    index64,  // 64-bit index arithmetic, loops unrolled as nvcc chooses (the training compilation)
    index32,  // 32-bit index arithmetic, loops as index64
    unroll1,  // '#pragma unroll 1' on every loop: one iteration's loads at a time
};

// What limits the kernel's compiled loop (loop_issue_cost.hpp): which of the Hopper presets'
// scheduling rules apply to it.
enum class LoopLimit : std::uint8_t {
    automatic,  // gpubench's loops as measured on the H200 (KernelCompilation); any other: issue
    issue,      // the scheduler's issue port, one instruction a cycle
    pipe,       // a pipe that takes the loop's instructions at part rate (fmaheavy, alu, ...)
};

// Cycle timing: when a warp waits inside an iteration of its loop (load_gates.hpp).
enum class LoadGates : std::uint8_t {
    burst,  // only at the end of the burst, for all of its data
    sass,   // also before a load that follows an add in the compiled loop, for the loads it consumes
};

// What the L2 holds when a launch starts.
enum class L2Start : std::uint8_t {
    cold,  // nothing: gpubench flushes the L2 before every measured launch
    warm,  // what one launch of the same kernel left there (gpubench --warm-l2): the model runs the
           // launch once unmeasured, then measures a second one with empty L1s
};

// Which L2 partition an SM is attached to (two partitions).
enum class PartitionMap : std::uint8_t {
    halves,      // SMs 0 .. N/2-1 to partition 0, the rest to partition 1 (GPCs split in two)
    interleaved, // SM s to partition s mod 2
    floorplan,   // the chip's measured SM -> partition table (GpuFloorplan)
};

// Which SMs' identical L2 requests the coalescer can merge (GpuConfig::l2_coalesce_*).
enum class CoalesceScope : std::uint8_t {
    tpc,         // the two SMs of a TPC (SMs 2k and 2k+1), which the chip starts together (l1probe)
    all,         // any SMs
    neighbours,  // SMs running consecutive blocks (launch index b and b+1), which the chip
                 // dispatches back to back
    pairs,       // SMs running blocks 2i and 2i+1, which the chip dispatches together (to one TPC
                 // in the first wave)
};

// Where a line read from DRAM is placed with two partitions.
enum class PartitionFill : std::uint8_t {
    near,  // in the requesting SM's partition only; a near miss always checks the far partition
    home,  // every line has a home partition (by address hash), where DRAM reads land; an SM of
           // the other partition keeps a copy in its near partition. A near miss checks the far
           // partition only when that is the line's home (a copy elsewhere implies one at home).
};

// Each enum's names and help (sim/enum_choices.hpp); the first name is what is printed.
inline constexpr EnumChoice<CtaOrder> kCtaOrderChoices[] = {
    {CtaOrder::round_robin, "round-robin", "block b to SM b mod N"},
    {CtaOrder::fill, "fill", "SM by SM"},
    {CtaOrder::floorplan, "floorplan", "the preset's measured slot cycle alone, the side group in slot 0"},
    {CtaOrder::floorplan_turns, "floorplan-turns",
     "the preset's measured slot rows with the side group's own turns, as recorded on the h200 and "
     "the h100: their presets' first wave"},
};
inline constexpr EnumAlias<CtaOrder> kCtaOrderAliases[] = {{"rr", CtaOrder::round_robin}};
inline constexpr EnumChoice<SetIndex> kSetIndexChoices[] = {
    {SetIndex::mod, "mod", "line address mod sets"},
    {SetIndex::fold, "fold", "the line address's higher bit fields XOR-folded onto the low ones, mod sets"},
    {SetIndex::hash, "hash", "a multiplicative hash of the line address, mod sets"},
};
inline constexpr EnumChoice<CtaRefill> kCtaRefillChoices[] = {
    {CtaRefill::shuffled, "shuffled", "a seeded random order per round, as timing decides on the chip"},
    {CtaRefill::sm_order, "sm-order", "SM index order: every wave repeats the first wave's placement"},
};
inline constexpr EnumChoice<WarpAgeDramBlocks> kWarpAgeDramBlocksChoices[] = {
    {WarpAgeDramBlocks::first_reads, "first-reads",
     "blocks most of whose reads are of lines first read by a block at most one GPU-full of blocks before"},
    {WarpAgeDramBlocks::first_wave, "first-wave", "the blocks of a cold launch's first wave"},
};
inline constexpr EnumChoice<WarpAgeRank> kWarpAgeRankChoices[] = {
    {WarpAgeRank::scheduler, "scheduler", "the live warps of older blocks on the warp's own scheduler"},
    {WarpAgeRank::block, "block",
     "the live warps of older blocks on the SM per scheduler, rounded down: a block's warps share one rank"},
};
inline constexpr EnumChoice<WarpRateScope> kWarpRateScopeChoices[] = {
    {WarpRateScope::warp, "warp", "each warp draws its own rate"},
    {WarpRateScope::block, "block", "a block's warps share one rate, so only blocks drift apart"},
    {WarpRateScope::automatic, "auto",
     "per warp where the L1 is at least the 224 KiB the presets' rates were fitted at, per block where shared "
     "memory leaves it smaller"},
};
inline constexpr EnumChoice<WarpScheduler> kWarpSchedulerChoices[] = {
    {WarpScheduler::lrr, "lrr", "loose round robin"},
    {WarpScheduler::gto, "gto", "greedy then oldest: the same warp until an L1 miss"},
};
inline constexpr EnumChoice<IssueTiming> kIssueTimingChoices[] = {
    {IssueTiming::rounds, "rounds", "lock step, one request per SM a round, warps at fitted rates"},
    {IssueTiming::cycles, "cycles", "warps issue a burst, then wait for its data (latencies in cycles)"},
};
inline constexpr EnumChoice<KernelCompilation> kKernelCompilationChoices[] = {
    {KernelCompilation::index64, "index64", "64-bit indices, loops unrolled (3x3..9x9 stencils SWxSH loads, other boxes a row's pieces of 4, matmul 32)"},
    {KernelCompilation::index32, "index32", "32-bit indices, loops as index64"},
    {KernelCompilation::unroll1, "unroll1", "loops not unrolled (stencil 1 load, matmul 2)"},
};
inline constexpr EnumChoice<LoopLimit> kLoopLimitChoices[] = {
    {LoopLimit::automatic, "auto", "gpubench's loops as measured on the H200 (--compilation); any other loop: issue"},
    {LoopLimit::issue, "issue", "the warp scheduler's issue port, one instruction a cycle"},
    {LoopLimit::pipe, "pipe", "a pipe that takes the loop's instructions at part rate (fmaheavy, alu, ...)"},
};
inline constexpr EnumChoice<L2Start> kL2StartChoices[] = {
    {L2Start::cold, "cold", "the L2 starts empty (gpubench flushes it before each measured launch)"},
    {L2Start::warm, "warm", "the L2 holds what one launch of the same kernel left (gpubench --warm-l2)"},
};
inline constexpr EnumChoice<LoadGates> kLoadGatesChoices[] = {
    {LoadGates::sass, "sass", "a load waits for the loads the adds before it in the compiled loop consume"},
    {LoadGates::burst, "burst", "a warp waits only at the end of its burst"},
};
inline constexpr EnumAlias<WarpScheduler> kWarpSchedulerAliases[] = {{"round-robin", WarpScheduler::lrr}};
inline constexpr EnumChoice<PartitionMap> kPartitionMapChoices[] = {
    {PartitionMap::halves, "halves", "SMs 0..N/2-1 to the first"},
    {PartitionMap::interleaved, "interleaved", "SM mod 2"},
    {PartitionMap::floorplan, "floorplan", "the preset's measured table: h200"},
};
inline constexpr EnumChoice<PartitionFill> kPartitionFillChoices[] = {
    {PartitionFill::near, "near", "the requesting SM's half; a near miss asks the far half"},
    {PartitionFill::home, "home", "each line's home half by address hash, plus a copy in the near half"},
};
// Listed in this order in messages ("tpc, pairs, neighbours or all").
inline constexpr EnumChoice<CoalesceScope> kCoalesceScopeChoices[] = {
    {CoalesceScope::tpc, "tpc", "the two SMs of a TPC, 2k and 2k+1"},
    {CoalesceScope::pairs, "pairs", "SMs running blocks 2i and 2i+1, dispatched together"},
    {CoalesceScope::neighbours, "neighbours", "blocks b and b+1"},
    {CoalesceScope::all, "all", "any SMs"},
};

std::string_view coalesce_scope_name(CoalesceScope scope);
std::optional<CoalesceScope> parse_coalesce_scope(std::string_view text);
std::string_view cta_order_name(CtaOrder order);
std::optional<CtaOrder> parse_cta_order(std::string_view text);
std::string_view partition_fill_name(PartitionFill fill);
std::optional<PartitionFill> parse_partition_fill(std::string_view text);
std::string_view partition_map_name(PartitionMap map);
std::optional<PartitionMap> parse_partition_map(std::string_view text);
std::string_view cta_refill_name(CtaRefill refill);
std::optional<CtaRefill> parse_cta_refill(std::string_view text);
std::string_view warp_scheduler_name(WarpScheduler scheduler);
std::optional<WarpScheduler> parse_warp_scheduler(std::string_view text);

// What was measured of a chip's layout (tests/data/h200/l2probe_*.csv, placement_matmul.csv,
// issue_cost/knee_ends_*.csv.gz): which L2 partition each SM is attached to, and the order in
// which the CTA scheduler's first wave visits the SMs: a cycle of rows, walked repeatedly and
// skipping SMs already full, and a side group of SMs. CtaOrder::floorplan walks the rows from row
// 0 with the side group after row 0; CtaOrder::floorplan_turns from row (seed mod rows), the side
// group taking turns of its own between rows: before a row, whenever the cycle's entries walked so
// far plus side_lead reach side_every times the side group's turns so far.
struct GpuFloorplan {
    std::vector<std::uint8_t> sm_partition;      // one entry per SM: 0 or 1
    std::vector<std::uint32_t> dispatch_cycle;   // SM ids
    std::vector<std::uint32_t> row_starts;       // where each row of the cycle starts (empty: one row)
    std::vector<std::uint32_t> side_group;       // SM ids not in the cycle (every SM in one of the two)
    std::uint32_t side_every = 1, side_lead = 0;
};

// One request as issued, for tests and inspection (GpuConfig::issue_log).
struct GpuIssue {
    std::uint64_t round = 0;
    std::uint32_t sm = 0;
    std::uint64_t block = 0;
    std::uint32_t warp = 0;     // warp within its block
    std::uint32_t k = 0;        // request index (the lanes' k-th access)
    bool l1_miss = false;       // a load sector missed in L1
};

// When a warp ended (GpuConfig::warp_ends): under cycle timing the cycle its last data arrived, in
// rounds 1 + the round of its last request.
struct GpuWarpEnd {
    std::uint64_t block = 0;
    std::uint32_t warp = 0;  // warp within its block
    std::uint32_t sm = 0;
    std::uint32_t slot = 0;  // warp slot within its SM (the scheduler is slot mod schedulers_per_sm)
    std::uint64_t end = 0;   // cycle or round; 0: the warp issued nothing
};

// Every warp's pace (GpuConfig::warp_progress): when it issued its requests 0, every, 2 every, ...
// (the round, or the cycle under cycle timing), to compare the model's pace with a chip's
// (progressprobe's samples), per warp of the launch (block x warps per block + warp).
struct GpuWarpProgress {
    std::uint32_t every = 128;  // requests between two samples, at least 1 (set by the caller)
    // Filled by the run: who each warp is, and `end` 1 + the time of its last request (0: it issued
    // nothing); the sampled requests' times in order.
    std::vector<GpuWarpEnd> warps;
    std::vector<std::vector<std::uint64_t>> issued;
};

struct GpuConfig {
    std::string name = "custom";  // preset name, for reports
    // Launch and SMs.
    std::uint32_t sms = 132;
    std::uint32_t warp_size = 32;
    std::uint32_t block = 256;  // threads per block
    std::uint32_t max_threads_per_sm = 2048;
    std::uint32_t max_blocks_per_sm = 32;
    std::uint32_t regs_per_sm = 65536;
    std::uint32_t regs_per_thread = 0;  // 0: registers do not limit residency
    std::uint32_t smem_per_block = 0;   // shared memory the kernel allocates per block (bytes)
    std::uint32_t smem_reserved_per_block = 1024;  // set aside by CUDA per block (cc >= 8.0)
    L2Start l2_start = L2Start::cold;
    // L1 / shared memory. With l1_auto, the L1 gets what the unified array leaves after the
    // shared-memory carve-out that carveout_rule takes (carveout_choice.hpp); otherwise l1.size_bytes.
    bool l1_auto = true;
    std::uint64_t unified_l1_bytes = 256 * 1024;
    std::vector<std::uint32_t> carveouts_kib = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};
    CarveoutRule carveout_rule = CarveoutRule::occupancy;
    CacheConfig l1{"L1", 256 * 1024, 128, 32, 0, PolicyKind::lru,
                   WritePolicy::write_through_no_allocate};
    // L2: l2.size_bytes is the total; each of l2_partitions partitions holds an equal share.
    CacheConfig l2{"L2", 60ull << 20, 128, 32, 16, PolicyKind::lru, WritePolicy::write_back_allocate};
    std::uint32_t l2_partitions = 1;
    PartitionMap partition_map = PartitionMap::halves;
    PartitionFill partition_fill = PartitionFill::home;
    SetIndex l2_set_index = SetIndex::hash;  // as GPUs spread addresses over L2 slices
    SetIndex l1_set_index = SetIndex::mod;   // of an L1 with sets (--l1-ways below full)
    std::uint32_t dram_fetch_bytes = 32;  // an L2 miss fetches this aligned granule from DRAM
    // L2 request coalescing (sim/gpu/request_coalescer.hpp): for this many rounds after an L1's
    // request to the L2 that hit (missed) in the near half, identical requests (same line, same
    // sectors) of other SMs in scope join it instead of looking up, up to l2_coalesce_requesters
    // SMs per lookup. 0 and 0: off (docs/fidelity.md, "L2 request coalescing on the H200").
    std::uint32_t l2_coalesce_hit_rounds = 0;
    std::uint32_t l2_coalesce_miss_rounds = 0;
    std::uint32_t l2_coalesce_requesters = 4;
    CoalesceScope l2_coalesce_scope = CoalesceScope::tpc;
    GpuFloorplan floorplan;  // empty unless the preset measured it (CtaOrder/PartitionMap::floorplan)
    CtaOrder cta_order = CtaOrder::round_robin;
    CtaRefill cta_refill = CtaRefill::shuffled;
    WarpScheduler scheduler = WarpScheduler::lrr;
    // Warps progress at their own rates (lrr; gto ignores it): warp w of block b issues at most at
    // rate warp_issue_rate() = min(1, exp(spread * (z - 3))), z a standard normal drawn from (seed,
    // b, w); the round robin passes it over while its credit is below one request. 0: every warp
    // takes its turn (plain loose round robin). docs/gpu-model.md, "Semantics".
    double warp_rate_spread = 0;
    // A warp draws its rate afresh every warp_rate_redraw requests (from (seed, b, w, k / N)), so
    // that warps wander apart as a random walk, by about the square root of the loop's length,
    // instead of in proportion to it. 0: a warp keeps one rate for its life.
    std::uint32_t warp_rate_redraw = 0;
    // Whether the warps of a block draw their rates apart (warp) or share their block's (block:
    // the draw keyed on (seed, b, k / N) alone).
    WarpRateScope warp_rate_scope = WarpRateScope::warp;
    // Requests a warp issues in a row once the round robin picks it (lrr; gto ignores it): its
    // requests go in groups k = 0..B-1, B..2B-1, ... (the last group ends with the store), one
    // group per turn, as a warp issues the loads of one iteration of its compiled loop before it
    // waits for them. kIssueBurstAuto: from the workload (issue_burst_for); 1: one request per turn.
    std::uint32_t issue_burst = 1;
    KernelCompilation compilation = KernelCompilation::index64;  // what issue_burst's auto reads
    // The compiled loop as measured: what limits its issue, and the cycles of its warp scheduler
    // each global load request takes (loop_issue_cost.hpp), which warp_age_weight's,
    // miss_wait_turns's and issue_cycles's autos read. automatic / kLoopIssueCostAuto: the H200's
    // measurements of gpubench's loops (compilation).
    LoopLimit loop_limit = LoopLimit::automatic;
    double loop_issue_cost = 0;  // kLoopIssueCostAuto
    // A block's warps are passed over by the round robin on their first J turns, J drawn per block
    // from (seed, block), uniform in 0..block_start_skip: blocks dispatched together do not run
    // in exact step on different SMs. 0: every block starts at its first turn. kBlockStartSkipAuto:
    // the skip fitted with the rate scope the launch runs (with_rate_form, warp_rate.hpp).
    std::uint32_t block_start_skip = 0;
    // Loops bound by their instructions (lrr with a rate spread): a warp ranked behind the group of
    // its scheduler's oldest (warp slot mod schedulers_per_sm; ranked by the live warps of older
    // blocks; warp_age_group below) runs at this weight times the rate of the rank before it
    // (warp_age_weight.hpp), so blocks progress oldest first. 1: every warp at its drawn rates.
    // kWarpAgeWeightAuto: the measured weight for loops a pipe limits, 1 for the others
    // (loop_issue_cost.hpp).
    double warp_age_weight = 1;
    // How many ranks of a scheduler keep together: warps with fewer than warp_age_group live warps
    // of older blocks on their scheduler run at their drawn rates, each rank beyond at
    // warp_age_weight times the one before it. 1: every older block's warp weighs.
    std::uint32_t warp_age_group = 1;
    // What a rank counts: the live warps of older blocks on the warp's scheduler, or on its SM per
    // scheduler, which gives every warp of a block one rank even where its warps do not spread
    // evenly over the schedulers (3 warps of a block of 96 threads on 4 schedulers).
    WarpAgeRank warp_age_rank = WarpAgeRank::scheduler;
    // With one rank a block and the warm group: a warp of a block that reads from the L2 runs at
    // warp_age_warm_step to the power of the live warps of older blocks its own scheduler holds
    // beyond the block's rank, times its block's pace. 1: a block's warps alike.
    double warp_age_warm_step = 1;
    // The group and weight of blocks whose loop reads its data from the L2 rather than DRAM: with
    // its data in the L2 a lone warp runs faster and a scheduler keeps fewer warps at its pace.
    // Which blocks read from DRAM when the L2 starts cold: warp_age_dram_blocks; every block of a
    // warm start reads from the L2. 0: every block takes warp_age_group and warp_age_weight.
    // warp_age_warm_weight kWarpAgeWeightAuto: the weight measured warm for loops a pipe limits, 1
    // for the others (loop_issue_cost.hpp).
    std::uint32_t warp_age_warm_group = 0;
    double warp_age_warm_weight = 0;  // kWarpAgeWeightAuto
    WarpAgeDramBlocks warp_age_dram_blocks = WarpAgeDramBlocks::first_reads;
    // Loops whose warps wait for memory (rounds under loose round robin): a warp whose request
    // misses in L1 is passed over on its next X turns, X a whole number of turns plus one more
    // with the probability of its fraction (drawn per warp and request, seeded). 0: a miss costs a
    // warp nothing. kMissWaitAuto: from the compiled loop (loop_issue_cost.hpp).
    double miss_wait_turns = 0;
    // Loops whose scheduler is not saturated (rounds under loose round robin with a rate spread):
    // where an SM holds at most lockstep_warps warps a scheduler (its resident limit), the
    // scheduler keeps them all at a lone warp's pace, so none falls behind and the launch runs in
    // lock step, without the rate spread and the block start skip. 0: never.
    // kLockstepWarpsAuto: the count measured for the compiled loop (loop_issue_cost.hpp).
    std::uint32_t lockstep_warps = 0;
    // Cycle timing (timing == cycles; docs/gpu-model.md, "Cycle timing"): instead of rounds, a
    // warp issues its burst (one request a cycle on its scheduler, warp slot mod
    // schedulers_per_sm) and is ready again when the burst's data has returned: lat_l1_hit cycles
    // for an L1 hit (or the sector's arrival, when it is still on its way), lat_l1_miss for an L1
    // miss (SMs run alone, so one latency stands for wherever the L2 serves it). Warp rates and
    // block start skips do not apply; the L2 coalescing windows are the *_cycles ones.
    IssueTiming timing = IssueTiming::rounds;
    std::uint32_t schedulers_per_sm = 4;
    std::uint32_t lat_l1_hit = 32;
    std::uint32_t lat_l1_miss = 291;
    // Cycle timing: the L1 miss of a sector whose DRAM fetch granule no SM asked the L2 for before
    // (l2_presence.hpp) takes this many cycles instead: it comes from DRAM. 0: every L1 miss takes
    // lat_l1_miss.
    std::uint32_t lat_dram = 0;
    // Cycle timing with two L2 partitions filled from their homes (PartitionFill::home): an L1
    // miss of a sector whose line's home is the other partition, and of which the SM's own
    // partition holds no copy from an earlier chunk, takes this many cycles instead of
    // lat_l1_miss: the far half serves it (and the near half keeps a copy). 0: one latency for both.
    std::uint32_t lat_l2_far = 0;
    LoadGates load_gates = LoadGates::sass;
    // Cycle timing: cycles a scheduler is taken by each request it issues, the loop's other
    // instructions included (the busiest of its issue port and pipes, loop_issue_cost.hpp), so a
    // loop heavy in address arithmetic leaves its warps competing for the scheduler rather than
    // waiting for memory. 1: one request a cycle. kIssueCyclesAuto: measured for the compiled loop.
    double issue_cycles = 1;
    double l1_miss_bandwidth = 0;  // L1 miss sectors an SM sends the L2 per cycle; 0: no limit
    std::uint32_t l2_coalesce_hit_cycles = 100;
    std::uint32_t l2_coalesce_miss_cycles = 400;
    std::uint64_t seed = 1;
    // Testing aid: generate every lane's address through Workload::access (slower) instead of the
    // equivalent per-warp fast path.
    bool reference_addresses = false;
    // Testing aid: when set, every issued request is appended (SM by SM within a chunk of rounds;
    // sort by (round, sm) for the lockstep order; with a timeline, in the measured order, "round"
    // counting requests). Unbounded: small launches only.
    std::vector<GpuIssue>* issue_log = nullptr;
    // When set, sized to the launch's warps (block x warps per block + warp) and each warp's entry
    // filled when it ends (GpuWarpEnd), to compare with gpubench --warp-ends. Not with a measured
    // timeline. Not owned.
    std::vector<GpuWarpEnd>* warp_ends = nullptr;
    // When set, filled with every warp's sampled issue times (GpuWarpProgress). Not with a measured
    // timeline. Not owned.
    GpuWarpProgress* warp_progress = nullptr;
    // Set by the run for each pass, not an option: the pass starts with the L2 holding its
    // launch's data (the measured pass of a warm start), so its first wave reads from the L2 too.
    bool pass_l2_warm = false;
    // Set by the run for each pass, not an option: per block of a built-in launch, whether it
    // reads from DRAM (warp_age_dram_blocks first-reads, dram_blocks.hpp); null: by the first wave.
    const std::vector<std::uint8_t>* pass_dram_blocks = nullptr;
    // Count the L1's read hits by the warp that brought the sector (GpuResult::l1_hit_sources,
    // l1_hit_sources.hpp): 16 bytes per L1 sector of every SM, and 10-15% more time.
    bool count_l1_hit_sources = false;
    // Measured timing (gpubench --warp-times): when set, every warp runs on the SM and over the
    // interval the timeline gives, its requests spread evenly over it, and all requests are
    // replayed in time order instead of lockstep rounds (cta_order, cta_refill and scheduler do
    // not apply; the L2 coalescing windows count nanoseconds). Not owned.
    const WarpTimeline* timeline = nullptr;
};

// GpuConfig::issue_burst's "auto": the loads of one iteration of the loop as nvcc -arch=sm_90
// compiles gpubench's kernels (cuobjdump -sass, docs/h200-data.md, "How gpubench's kernels issue their loads").
inline constexpr std::uint32_t kIssueBurstAuto = 0;
inline constexpr std::uint32_t kMaxIssueBurst = 1u << 16;     // validate's bounds
inline constexpr std::uint32_t kMaxBlockStartSkip = 1u << 10;
// block_start_skip: the skip fitted with the rate scope the launch resolves to (warp_rate.hpp).
inline constexpr std::uint32_t kBlockStartSkipAuto = ~0u;
inline constexpr double kWarpAgeWeightAuto = 0;  // GpuConfig::warp_age_weight: from the compiled loop
inline constexpr double kIssueCyclesAuto = 0;  // GpuConfig::issue_cycles: from loop_issue_cost.hpp
inline constexpr double kMissWaitAuto = -1;    // GpuConfig::miss_wait_turns: from loop_issue_cost.hpp
inline constexpr std::uint32_t kLockstepWarpsAuto = ~0u;  // GpuConfig::lockstep_warps: from loop_issue_cost.hpp
inline constexpr std::uint32_t kMaxLockstepWarps = 64;     // validate's bound: warps a scheduler
inline constexpr double kLoopIssueCostAuto = 0;  // GpuConfig::loop_issue_cost: gpubench's loops as measured
inline constexpr double kMaxMissWaitTurns = 64;
inline constexpr double kMaxIssueCycles = 1024;

// What a launch of `config.block` threads gets on one SM.
struct GpuOccupancy {
    std::uint32_t warps_per_block = 0;
    std::uint32_t blocks_per_sm = 0;    // resident-block limit
    std::string limiter;                // "threads", "blocks", "registers" or "shared memory"
    std::uint64_t carveout_bytes = 0;   // shared memory carved out of the unified array
    std::uint64_t l1_bytes = 0;         // L1 data capacity per SM (0: no L1)
};

// Throws SimulationError naming the problem (a block that does not fit an SM, and so on).
GpuOccupancy gpu_occupancy(const GpuConfig& config);
// The L1 as simulated: l1 with the size resolved from the carve-out when l1_auto.
CacheConfig effective_l1(const GpuConfig& config);
// The configuration of one L2 partition (size divided by the partition count).
CacheConfig l2_partition(const GpuConfig& config);
// The same hardware with `sms` SMs. A measured floorplan describes its own chip only: when it
// does not fit the new count it is dropped, and the first wave goes round robin and the L2
// halves split by SM index instead.
GpuConfig with_sms(GpuConfig config, std::uint32_t sms);
// Checks everything the model needs; throws SimulationError.
void validate(const GpuConfig& config);

}  // namespace cachesim
