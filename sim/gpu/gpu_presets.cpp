#include "sim/gpu/gpu_presets.hpp"

#include <algorithm>
#include <cctype>

#include "sim/gpu/compute_capabilities.hpp"
#include "sim/gpu/loop_issue_cost.hpp"
#include "sim/text.hpp"

namespace cachesim {

namespace {

// Shared by every preset: the L1 and L2 geometry of NVIDIA GPUs since Volta, and the unified
// L1/shared array, carve-outs, reserved shared memory and L2 partitions documented for the chip's
// compute capability (compute_capabilities.hpp).
GpuConfig base(std::string name, const ComputeCapability& cc, std::uint32_t sms, std::uint32_t threads,
               std::uint32_t blocks, PolicyKind l1_policy, std::uint64_t l2_bytes) {
    GpuConfig c;
    c.name = std::move(name);
    c.sms = sms;
    c.warp_size = 32;
    c.max_threads_per_sm = threads;
    c.max_blocks_per_sm = blocks;
    c.regs_per_sm = 65536;
    c.smem_reserved_per_block = cc.smem_reserved_per_block;
    c.l1_auto = true;
    c.unified_l1_bytes = std::uint64_t{cc.unified_l1_kib} * 1024;
    c.carveouts_kib = carveouts_of(cc);
    c.carveout_rule = cc.carveout_rule;
    c.l1 = CacheConfig{"L1", c.unified_l1_bytes, 128, 32, 0, l1_policy, WritePolicy::write_through_no_allocate};
    c.l2 = CacheConfig{"L2", l2_bytes, 128, 32, 16, PolicyKind::lru, WritePolicy::write_back_allocate};
    c.l2_partitions = cc.l2_partitions;
    c.dram_fetch_bytes = 32;
    c.schedulers_per_sm = 4;
    c.lat_l1_hit = 32;
    c.lat_l1_miss = 291;
    c.l2_coalesce_hit_cycles = 0;  // coalescing is off but on the H200
    c.l2_coalesce_miss_cycles = 0;
    return c;
}

// Cycle timing's L1 hit where a chip's differs from base()'s: Volta's (Jia et al. 2018).
GpuConfig with_l1_hit(GpuConfig c, std::uint32_t cycles) {
    c.lat_l1_hit = cycles;
    return c;
}

const std::vector<GpuPresetSource> kCommonSources = {
    {"128 B L1/L2 lines of four 32 B sectors; L1 write-through, L2 write-back",
     "Ernst et al., Analytical Performance Estimation during Code Generation on Modern GPUs (sections 4.3-4.4); "
     "Jia et al., Dissecting the NVIDIA Volta GPU Architecture via Microbenchmarking (2018); thesis 2.1.2"},
    {"registers per SM 65,536; threads/blocks per SM; unified L1/shared size and carve-outs; 1 KiB "
     "shared memory reserved per block on cc >= 8.0",
     "CUDA C++ Programming Guide, Compute Capabilities table and sections on shared memory "
     "configuration of cc 7.x, 8.x, 9.0"},
    {"L2 16-way", "assumption (not measurable by microbenchmarks); as in Accel-Sim's tuner"},
    {"L1 fully associative", "Accel-Sim's microbenchmarks find 4 sets of many ways since Kepler; with "
                             "hundreds of ways per set the difference is negligible, and a fully "
                             "associative L1 follows the carve-out without a way count"},
};

// The H200's layout as measured (docs/h200-data.md, "L2 partitions"; the H100's l2probe finds the
// same partition for every SM id). Each GPC is a wheel of eight TPC slots (two SMs each); the
// CTA scheduler's first wave visits slot 0 of every GPC, then slot 1 of every GPC, and so on (a
// row per slot), and a TPC's L2 partition is decided by its slot:
// slots 0 and 4-6 on partition 0, slots 1-3 and 7 on partition 1. GPCs 0-3 hold SMs 0-63 in
// slots 0-7, GPCs 4-7 hold SMs 64-119 in slots 1-7, and SMs 120-131 form a ninth group (TPCs
// at 124-131 in slot 0, 120 in slot 6, 122 in slot 7). l2probe found exactly this split (66 SMs
// per partition). The four TPCs at 124-131 form the side group: the slot cycle alone
// (CtaOrder::floorplan) visits them with slot 0, which reproduces 75-100% of the recorded
// first-wave placements. On the chip they take turns of their own, four for every three of the
// rows' cycle: before a row, once the rows have dispatched 93 k - 22 SM entries since the wave
// began (k: their turns so far, the first before the first row). CtaOrder::floorplan_turns does
// that, and from the row each launch began at (which varies from launch to launch) it reproduces
// every recorded first wave exactly: the 12 of issue_cost/knee_ends_index32.csv.gz and the 12 of
// placement_matmul.csv (a third of those with 128-131 before 124-127).
GpuFloorplan h200_floorplan() {
    constexpr std::uint8_t kSlotPartition[8] = {0, 1, 1, 1, 0, 0, 0, 1};
    std::vector<std::vector<std::uint32_t>> slots(8);  // per slot: first SMs of its TPCs, GPC order
    for (std::uint32_t gpc = 0; gpc < 4; ++gpc)
        for (std::uint32_t t = 0; t < 8; ++t) slots[t].push_back(16 * gpc + 2 * t);
    for (std::uint32_t gpc = 4; gpc < 8; ++gpc)
        for (std::uint32_t t = 0; t < 7; ++t) slots[t + 1].push_back(64 + 14 * (gpc - 4) + 2 * t);
    slots[6].push_back(120);
    slots[7].push_back(122);
    GpuFloorplan plan;
    plan.sm_partition.assign(132, 0);
    for (std::uint32_t slot = 0; slot < 8; ++slot) {
        plan.row_starts.push_back(static_cast<std::uint32_t>(plan.dispatch_cycle.size()));
        for (std::uint32_t sm : slots[slot]) {
            plan.dispatch_cycle.insert(plan.dispatch_cycle.end(), {sm, sm + 1});
            plan.sm_partition[sm] = plan.sm_partition[sm + 1] = kSlotPartition[slot];
        }
    }
    for (std::uint32_t sm = 124; sm < 132; ++sm) {
        plan.side_group.push_back(sm);
        plan.sm_partition[sm] = kSlotPartition[0];
    }
    plan.side_every = 93;
    plan.side_lead = 22;
    return plan;
}

// A Hopper (GH100) chip: the mechanisms measured and fitted on the H200 (docs/fidelity.md), which
// the H100 and the H200 share. They differ only in what is measured or documented per chip: the
// L2's size and the near L2 hit latency. l2probe finds the same two partitions, the same SM ->
// partition split and the same 64 B fill granule on both (tests/data/h{100,200}/l2probe*).
GpuConfig hopper_config(std::string name, std::uint64_t l2_bytes, std::uint32_t near_l2_hit_cycles) {
    GpuConfig c = base(std::move(name), compute_capability(9, 0), 132, 2048, 32, PolicyKind::lru, l2_bytes);
    c.floorplan = h200_floorplan();
    // The side group's own turns, not the slot cycle alone: in grids 11 or 12 blocks wide the slot
    // cycle gives every first-wave block of an SM the same lines of B, where both chips mix them
    // (docs/fidelity.md, "Where the first wave goes").
    c.cta_order = CtaOrder::floorplan_turns;
    c.partition_map = PartitionMap::floorplan;
    c.partition_fill = PartitionFill::home;
    c.dram_fetch_bytes = 64;
    // L2 request coalescing (l1probe): identical requests of SMs started together share one
    // lookup within about 100 cycles of an L2 hit and 400 of a DRAM read (50 / 200 rounds here).
    // Which SMs: those running a dispatch pair of blocks (2i, 2i+1), the scope that brings the
    // most stencil L2 rates within 5 points (78 of 81) and ranks the schedules as well as no
    // coalescing wherever the H200 ranks them repeatably (docs/fidelity.md, "L2 request coalescing on the
    // H200"; tests/data/h200/fidelity_matmul_spread21.csv).
    c.l2_coalesce_hit_rounds = 50;
    c.l2_coalesce_miss_rounds = 200;
    c.l2_coalesce_scope = CoalesceScope::pairs;
    // Warps do not progress in step on the chip: each issues at its own rate, log-normally spread,
    // drawn afresh every 32 requests (the matmul's loop iteration), so that sharers part as a
    // random walk, by about the square root of the loop's length (docs/gpu-model.md); and blocks
    // do not start together: each block's warps wait 0..8 turns of the round robin before their
    // first (a parting that does not grow with the loop). A warp issues the loads of one iteration
    // of its compiled loop in a row (gpubench's SASS: docs/h200-data.md, "How gpubench's kernels
    // issue their loads"). The spread and the skip were fitted together on the 27 training matmul
    // launches and the 10 index64 768^3 compilation probes, nothing held out (docs/model-studies.md,
    // "The block start skip and the rate spread"): skip 8 with spread 0.15 gave the lowest mean L1
    // error over those 37 rows (0.75 points, against 0.94 for skip 1 with spread 0.3),
    // 26 of 27 training matmul rows within 3 points, and the training stencils' L2 53 of 54
    // within 5, as with skip 1. That fit was made at the training launches' L1 (224 KiB); where a
    // kernel's shared memory leaves the L1 smaller, a block's warps share one rate (they end
    // together on the chip) with the skip fitted for that form on the training set, 4: on a
    // shared-memory set measured after the choice it is the nearer form (docs/fidelity-shared-memory.md, "A
    // second shared-memory set").
    c.warp_rate_spread = 0.15;
    c.warp_rate_redraw = 32;
    c.issue_burst = kIssueBurstAuto;
    c.warp_rate_scope = WarpRateScope::automatic;
    c.block_start_skip = kBlockStartSkipAuto;
    // Where a pipe, not the issue port, limits the compiled loop (the 32-bit matmul), the warps
    // wait on their instructions rather than on memory and each scheduler serves its oldest ready
    // warp: on the H200 a group of a scheduler's 12 oldest warps keeps together and each younger
    // one falls behind at 0.863 times the pace of the one before it (both measured from the knee
    // probe's warp ends, nothing fitted on hit rates: docs/model-studies.md, "Loops bound by their
    // instructions"). The group matters only where the weight does (auto: loops a pipe limits).
    c.warp_age_weight = kWarpAgeWeightAuto;
    c.warp_age_group = kPipeBoundWarpAgeGroup;
    // Where a scheduler's pass over its warps is shorter than an L1 miss (the unrolled-once
    // matmul: 16 warps x 2 loads x 7.59 cycles = 243 against 291), a warp that missed is not ready
    // at its next turn: it waits (291 - 243) / 243 = 0.2 turns more than one that hit, so warps
    // reading the same lines keep in step and those ahead wait for those behind (derived from the
    // measured issue cost and latency, nothing fitted: docs/model-studies.md, "Warps that wait for
    // their misses").
    c.miss_wait_turns = kMissWaitAuto;
    // Where an SM holds no more warps a scheduler than the scheduler keeps at a lone warp's pace
    // with the loop's data in the L2 (the knee probe started warm: the 64-bit matmul 8, the 32-bit
    // 6), no warp falls behind another: the launch runs in lock step, and the drift fitted at full
    // residency does not apply (measured, nothing fitted on hit rates: docs/model-studies.md,
    // "Lock step where the scheduler keeps pace").
    c.lockstep_warps = kLockstepWarpsAuto;
    // Cycle timing (--timing cycles): an L1 miss waits the measured near L2 hit (l2probe), a hit
    // the measured L1 hit (latencyprobe), and the coalescing windows are the measured 100 / 400
    // cycles (l1probe).
    c.lat_l1_miss = near_l2_hit_cycles;
    c.lat_l1_hit = 42;  // the H200's, by the same method (latencyprobe)
    c.l2_coalesce_hit_cycles = 100;
    c.l2_coalesce_miss_cycles = 400;
    return c;
}

std::vector<GpuPresetSource> with_common(std::vector<GpuPresetSource> own) {
    own.insert(own.end(), kCommonSources.begin(), kCommonSources.end());
    return own;
}

}  // namespace

const std::vector<GpuPreset>& gpu_presets() {
    static const std::vector<GpuPreset> table = {
        {"v100", "NVIDIA V100 (SXM2, GV100, cc 7.0): 80 SMs, 128 KiB L1/shared, 6 MiB L2",
         {"Tesla V100-SXM2-16GB", "Tesla V100-SXM2-32GB"},
         with_l1_hit(base("v100", compute_capability(7, 0), 80, 2048, 32, PolicyKind::random4, 6ull << 20), 28),
         with_common({{"80 SMs, 6 MiB L2 (6,291,456 B)", "NVIDIA Tesla V100 GPU Architecture whitepaper (2017)"},
                      {"L1 random4 (random aligned group of 4 lines evicted)",
                       "Jia et al. 2018 (Volta), reported in the thesis 2.1.2"}})},
        {"t4", "NVIDIA T4 (TU104, cc 7.5): 40 SMs, 96 KiB L1/shared, 4 MiB L2",
         {"Tesla T4"},
         base("t4", compute_capability(7, 5), 40, 1024, 16, PolicyKind::random4, 4ull << 20),
         with_common({{"40 SMs, 4 MiB L2 (4,194,304 B), L1 32 or 64 KiB",
                       "NVIDIA Turing GPU Architecture whitepaper (2018); Jia et al., Dissecting the "
                       "NVidia Turing T4 GPU via Microbenchmarking (2019), thesis table 2.1"},
                      {"L1 random4", "Jia et al. 2019 (Turing), thesis 2.1.2"}})},
        {"rtx2080s", "NVIDIA GeForce RTX 2080 Super (TU104, cc 7.5): 48 SMs, 96 KiB L1/shared, 4 MiB L2",
         {"NVIDIA GeForce RTX 2080 SUPER", "GeForce RTX 2080 SUPER"},
         base("rtx2080s", compute_capability(7, 5), 48, 1024, 16, PolicyKind::random4, 4ull << 20),
         with_common({{"48 SMs (the full TU104), 4 MiB L2 (4,194,304 B); 96 KiB L1/shared per SM, 32 or 64 KiB "
                       "of it L1 (64 KiB when a kernel uses at most 32 KiB of shared memory)",
                       "NVIDIA Turing GPU Architecture whitepaper (2018, TU104); CUDA C++ Programming Guide "
                       "(cc 7.5); Jia et al., Dissecting the NVidia Turing T4 GPU via Microbenchmarking (2019), "
                       "the same TU104 chip"},
                      {"L1 random4; L1 hit 32 cycles",
                       "Jia et al. 2019 (Turing), thesis 2.1.2"}})},
        {"a100", "NVIDIA A100 (SXM4 40 GB, GA100, cc 8.0): 108 SMs, 192 KiB L1/shared, 40 MiB L2 in two partitions",
         {"NVIDIA A100-SXM4-40GB", "NVIDIA A100-SXM4-80GB", "NVIDIA A100-PCIE-40GB", "NVIDIA A100 80GB PCIe"},
         base("a100", compute_capability(8, 0), 108, 2048, 32, PolicyKind::lru, 40ull << 20),
         with_common({{"108 SMs, 40 MiB L2 (41,943,040 B) split into two partitions",
                       "NVIDIA A100 Tensor Core GPU Architecture whitepaper (2020); Ernst et al. section 3 "
                       "(each SM attached to one 20 MB half; far hits copied to the near half)"},
                      {"L1 LRU", "assumption: no microbenchmark has shown non-LRU eviction on Ampere"}})},
        {"h100", "NVIDIA H100 (SXM5, GH100, cc 9.0): 132 SMs, 256 KiB L1/shared, 50 MiB L2 in two partitions",
         {"NVIDIA H100 80GB HBM3"},
         hopper_config("h100", 50ull << 20, 289),
         with_common({{"132 SMs, 50 MiB L2 (52,428,800 B), 256 KiB L1/shared per SM",
                       "NVIDIA H100 Tensor Core GPU Architecture whitepaper (2022); cudaGetDeviceProperties "
                       "on an H100 (tests/data/h100/l2probe.txt)"},
                      {"L2 in two partitions, the H200's SM -> partition split, 64 B fill granules; near L2 hit "
                       "289 cycles",
                       "measured on an H100: l2probe (tests/data/h100/l2probe.txt, l2probe_sm.csv, "
                       "l2probe_granule.csv)"},
                      {"first-wave block order, L2 request coalescing, issue bursts, warp rate spread, block "
                       "start skip",
                       "the H200's (same GH100 chip): measured or fitted on the H200's training set only, "
                       "never on H100 hit rates (docs/fidelity.md)"},
                      {"L1 LRU, fully associative", "as measured on the H200 (same GH100 chip): l1policyprobe"}})},
        {"h200", "NVIDIA H200 (GH100, cc 9.0): 132 SMs, 256 KiB L1/shared, 60 MiB L2 in two partitions",
         {"NVIDIA H200"},
         hopper_config("h200", 60ull << 20, 291),
         with_common({{"132 SMs, 60 MiB L2 (62,914,560 B as cudaGetDeviceProperties reports)",
                       "cudaGetDeviceProperties on an H200; NVIDIA H200 product brief"},
                      {"256 KiB L1/shared per SM", "same GH100 chip as the H100 (H100 whitepaper)"},
                      {"L2 in two partitions of 30 MiB, home fill; SM -> partition table and first-wave "
                       "block order (floorplan); 64 B fill granules, crossing the link as one transfer",
                       "measured on an H200: l2probe (load latencies per SM, fill granule), gpubench's "
                       "block placement and L2 fabric counters (tests/data/h200: l2probe_sm.csv, "
                       "l2probe_granule.csv, placement_matmul.csv, partition_stencil.csv)"},
                      {"L1 LRU, fully associative",
                       "measured on an H200: l1policyprobe (tests/data/h200/l1policy): lines read again outlive "
                       "lines read once; lines in address order and at power-of-two strides fill the carve-out's "
                       "lines, while random lines and other strides conflict in the chip's sets, which the preset "
                       "does not model"}})},
    };
    return table;
}

const GpuPreset* find_gpu_preset(std::string_view name) {
    for (const GpuPreset& p : gpu_presets())
        if (p.name == name) return &p;
    return nullptr;
}

const GpuPreset* find_gpu_preset_for_device(std::string_view device) {
    const auto same = [](std::string_view a, std::string_view b) {
        return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
                   return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
               });
    };
    device = trim_blanks(device);
    if (device.empty()) return nullptr;
    for (const GpuPreset& p : gpu_presets())
        for (const std::string& d : p.devices)
            if (same(d, device)) return &p;
    return nullptr;
}

}  // namespace cachesim
