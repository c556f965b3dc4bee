#include "sim/gpu/gpu_parameters.hpp"

#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/gpu_parameter_accessors.hpp"
#include "sim/gpu/loop_issue_cost.hpp"
#include "sim/gpu/warp_rate.hpp"

namespace cachesim {

namespace {

using namespace parameter_accessors;

// ---- Provenance facts that several rows share -----------------------------------------------

constexpr std::string_view kCudaGuide =
    "CUDA C++ Programming Guide, Compute Capabilities table and sections on shared memory configuration of cc 7.x, "
    "8.x, 9.0";
constexpr std::string_view kSectoredLines =
    "128 B L1/L2 lines of four 32 B sectors: Ernst et al., Analytical Performance Estimation during Code "
    "Generation on Modern GPUs (sections 4.3-4.4); Jia et al., Dissecting the NVIDIA Volta GPU Architecture via "
    "Microbenchmarking (2018); thesis 2.1.2";
constexpr std::string_view kNotWithOnePartition = "does not apply: one L2 partition";
constexpr std::string_view kCoalescingOff = "does not apply: L2 request coalescing is off (measured on the H200 only)";
constexpr std::string_view kTuring =
    "NVIDIA Turing GPU Architecture whitepaper (2018): the full TU104 of the RTX 2080 Super; Jia et al., Dissecting "
    "the NVidia Turing T4 GPU via Microbenchmarking (2019), a TU104 too";
constexpr std::string_view kL1ProbeWays =
    "fully associative: lines in address order and at power-of-two strides fill the carve-out's lines as in a fully "
    "associative cache (l1policyprobe on an H200, tests/data/h200/l1policy; docs/h200-data.md \"Which lines the L1 "
    "keeps\"); lines at random addresses and at other strides conflict in the chip's sets (80-95% of 1,024 hit), "
    "which this does not model";
constexpr std::string_view kL1ProbeWaysGh100 =
    "fully associative, as measured on the H200 (the same GH100 chip): l1policyprobe, tests/data/h200/l1policy";
constexpr std::string_view kHopperCarveouts =
    "hopper: the carve-out the H200's driver took in 309 launches of gpubench's matmul and stencil at blocks of 32 "
    "to 1,024 threads with 0 to 49,152 B of shared memory a block (Nsight Compute's launch__shared_mem_config_size, "
    "tests/data/h200/smem/carveout*.csv; read from carveout.csv, checked on carveout_check_*.csv, its edges from "
    "carveout_edges_*.csv: 308 of 309; docs/fidelity-shared-memory.md \"Which carve-out the driver takes\")";
constexpr std::string_view kL1ProbeRecency =
    "LRU: lines read again outlive lines read once (l1policyprobe on an H200: 92% against 61% of 512 each, "
    "tests/data/h200/l1policy; docs/h200-data.md \"Which lines the L1 keeps\")";
constexpr std::string_view kL1ProbeRecencyGh100 =
    "LRU, as measured on the H200 (the same GH100 chip): l1policyprobe, tests/data/h200/l1policy";
constexpr std::string_view kH200Fidelity =
    "gpubench's 81 H200 fidelity configurations (tests/data/h200/fidelity_*.csv; docs/fidelity.md \"Fidelity against the "
    "H200\")";

PresetSource every(Provenance kind, std::string_view detail) { return {"", {kind, detail}}; }
PresetSource only(std::string_view preset, Provenance kind, std::string_view detail) { return {preset, {kind, detail}}; }

// The real-valued parameters that also take "auto".
constexpr RealOrAuto kWarpAgeWeightValues{kWarpAgeWeightAuto, 1e-6, 1, "auto or a number above 0 and at most 1"};
constexpr RealOrAuto kMissWaitValues{kMissWaitAuto, 0, kMaxMissWaitTurns, "auto or a number from 0 to 64"};
constexpr RealOrAuto kIssueCyclesValues{kIssueCyclesAuto, 1, kMaxIssueCycles, "auto or a number from 1 to 1024"};
constexpr RealOrAuto kLoopIssueCostValues{kLoopIssueCostAuto, 1, kMaxIssueCycles, "auto or a number from 1 to 1024"};

constexpr auto M = Provenance::measured;
constexpr auto D = Provenance::documented;
constexpr auto F = Provenance::fitted;
constexpr auto A = Provenance::assumed;

std::vector<GpuParameter> make_table() {
    using P = ParameterType;
    std::vector<GpuParameter> t;
    // ---- Launch and SMs
    t.push_back({.option = "block", .report_key = "block", .field = "block", .group = "Launch and SMs",
                 .type = P::count, .range = "1..1024", .min = 1, .max = 1024, .help = "threads per block",
                 .get = get_number<&GpuConfig::block>, .set = set_count32<&GpuConfig::block>,
                 .sources = {every(A, "the launch, not the hardware: 256 threads unless given (compare takes "
                                      "each measured row's)")}});
    t.push_back({.option = "sms", .report_key = "sms", .field = "sms", .group = "Launch and SMs", .type = P::count,
                 .range = "1..100000", .min = 1, .max = 256, .help = "streaming multiprocessors",
                 .get = get_number<&GpuConfig::sms>,
                 // a measured floorplan holds for its own SM count only (with_sms)
                 .set = [](GpuConfig& c, std::string_view text, std::string_view option) {
                     c = with_sms(std::move(c), number32(whole_number(text, option), text, option));
                 },
                 .sources = {only("v100", D, "NVIDIA Tesla V100 GPU Architecture whitepaper (2017)"),
                             only("t4", D, "NVIDIA Turing GPU Architecture whitepaper (2018); Jia et al., Dissecting "
                                           "the NVidia Turing T4 GPU via Microbenchmarking (2019), thesis table 2.1"),
                             only("a100", D, "NVIDIA A100 Tensor Core GPU Architecture whitepaper (2020)"),
                             only("h100", M, "132: NVIDIA H100 Tensor Core GPU Architecture whitepaper (2022); "
                                             "cudaGetDeviceProperties on an H100 (tests/data/h100/l2probe.txt)"),
                             only("rtx2080s", D, kTuring),
                             only("h200", M, "cudaGetDeviceProperties on an H200; "
                                             "NVIDIA H200 product brief")}});
    t.push_back({.option = "warp-size", .report_key = "warp_size", .field = "warp_size", .group = "Launch and SMs",
                 .type = P::count, .range = "1..64", .min = 1, .max = 64, .help = "threads per warp",
                 .get = get_number<&GpuConfig::warp_size>, .set = set_count32<&GpuConfig::warp_size>,
                 .sources = {every(D, kCudaGuide)}});
    t.push_back({.option = "threads-per-sm", .report_key = "threads_per_sm", .field = "max_threads_per_sm",
                 .group = "Launch and SMs", .type = P::count, .range = "1..1048576", .min = 1, .max = 4096,
                 .help = "resident threads per SM at most", .get = get_number<&GpuConfig::max_threads_per_sm>,
                 .set = set_count32<&GpuConfig::max_threads_per_sm>, .sources = {every(D, kCudaGuide)}});
    t.push_back({.option = "blocks-per-sm", .report_key = "blocks_per_sm", .field = "max_blocks_per_sm",
                 .group = "Launch and SMs", .type = P::count, .range = "1 or more", .min = 1, .max = 64,
                 .help = "resident blocks per SM at most", .get = get_number<&GpuConfig::max_blocks_per_sm>,
                 .set = set_count32<&GpuConfig::max_blocks_per_sm>, .sources = {every(D, kCudaGuide)}});
    t.push_back({.option = "regs-per-thread", .report_key = "regs_per_thread", .field = "regs_per_thread",
                 .group = "Launch and SMs", .type = P::count, .range = "0..255", .min = 0, .max = 255,
                 .help = "registers per thread of the kernel; 0: registers do not limit residency",
                 .get = get_number<&GpuConfig::regs_per_thread>, .set = set_count32<&GpuConfig::regs_per_thread>,
                 .sources = {every(A, "the kernel, not the hardware: registers do not limit residency (0) unless "
                                      "given")}});
    t.push_back({.option = "regs-per-sm", .report_key = "regs_per_sm", .field = "regs_per_sm",
                 .group = "Launch and SMs", .type = P::count, .range = "1 or more", .min = 1, .max = 262144,
                 .help = "registers per SM", .get = get_number<&GpuConfig::regs_per_sm>,
                 .set = set_count32<&GpuConfig::regs_per_sm>,
                 .sources = {every(D, "registers per SM 65,536: " "CUDA C++ Programming Guide, "
                                      "Compute Capabilities table")}});
    t.push_back({.option = "smem-per-block", .report_key = "smem_per_block_bytes", .field = "smem_per_block",
                 .group = "Launch and SMs", .type = P::bytes, .range = "bytes, K suffix", .min = 0, .max = 232448,
                 .help = "shared memory the kernel allocates per block",
                 .get = get_number<&GpuConfig::smem_per_block>, .set = set_bytes32<&GpuConfig::smem_per_block>,
                 .sources = {every(A, "the kernel, not the hardware: gpubench's kernels allocate none (0) unless "
                                      "given")}});
    t.push_back({.option = "smem-reserved", .report_key = "smem_reserved_bytes", .field = "smem_reserved_per_block",
                 .group = "Launch and SMs", .type = P::bytes, .range = "bytes, K suffix", .min = 0, .max = 4096,
                 .help = "shared memory CUDA reserves per block (1K on cc >= 8.0, 0 before)",
                 .get = get_number<&GpuConfig::smem_reserved_per_block>,
                 .set = set_bytes32<&GpuConfig::smem_reserved_per_block>,
                 .sources = {every(D, "1 KiB shared memory reserved per block on cc >= 8.0, none before: "
                                          "CUDA C++ Programming Guide, shared memory sections")}});
    t.push_back({.option = "l2-start", .report_key = "l2_start", .field = "l2_start", .group = "Launch and SMs",
                 .type = P::choice, .choices = texts(kL2StartChoices),
                 .help = "what the L2 holds when the launch starts: nothing, or what one launch of the same kernel "
                         "left (the model runs it once unmeasured first)",
                 .get = get_choice<&GpuConfig::l2_start, kL2StartChoices>,
                 .set = set_choice<&GpuConfig::l2_start, kL2StartChoices>,
                 .sources = {every(A, "the launch, not the hardware: cold, as gpubench measures (it flushes the L2 "
                                      "before every measured launch), unless given; compare takes each measured row's "
                                      "(gpubench --warm-l2 writes l2_start = warm)")}});
    // ---- L1 and shared memory
    t.push_back({.option = "unified-l1", .report_key = "unified_l1_bytes", .field = "unified_l1_bytes",
                 .group = "L1 and shared memory", .type = P::bytes, .range = "bytes, K/M suffixes", .min = 0,
                 .max = 1 << 20, .help = "L1 + shared memory per SM; --l1-size auto gives the L1 what the carve-out leaves",
                 .get = [](const GpuConfig& c) { return std::to_string(c.unified_l1_bytes); },
                 .set = [](GpuConfig& c, std::string_view text, std::string_view option) {
                     c.unified_l1_bytes = byte_size(text, option);
                 },
                 .sources = {every(D, kCudaGuide),
                             only("h200", D, "256 KiB: the same GH100 chip as the H100 (H100 whitepaper)"),
                             only("h100", D, "256 KiB: NVIDIA H100 Tensor Core GPU Architecture whitepaper (2022)"),
                             only("rtx2080s", D, "96 KiB: NVIDIA Turing GPU Architecture whitepaper (2018); CUDA C++ "
                                                 "Programming Guide, cc 7.5")},
                 .sizes_l1 = true});
    t.push_back({.option = "carveouts", .report_key = "carveouts_kib", .field = "carveouts_kib",
                 .group = "L1 and shared memory", .type = P::text, .range = "KiB, comma separated",
                 .help = "shared-memory carve-outs the driver chooses from (which one: --carveout-rule); each at most "
                         "--unified-l1",
                 .get = carveouts_text, .set = set_carveouts,
                 .sources = {every(D, kCudaGuide),
                             only("t4", D, "L1 32 or 64 KiB: NVIDIA Turing GPU Architecture whitepaper (2018); Jia "
                                           "et al. 2019, thesis table 2.1"),
                             only("rtx2080s", D, "32 or 64 KiB of shared memory, the rest L1 (64 KiB for kernels with "
                                                 "at most 32 KiB of shared memory, as typical CUDA code): CUDA C++ "
                                                 "Programming Guide, cc 7.5; Jia et al. 2019")},
                 .sizes_l1 = true});
    t.push_back({.option = "carveout-rule", .report_key = "carveout_rule", .field = "carveout_rule",
                 .group = "L1 and shared memory", .type = P::choice, .choices = texts(kCarveoutRuleChoices),
                 .help = "how the driver chooses among the carve-outs (and so what --l1-size auto leaves the L1)",
                 .get = get_choice<&GpuConfig::carveout_rule, kCarveoutRuleChoices>,
                 .set = set_choice<&GpuConfig::carveout_rule, kCarveoutRuleChoices>,
                 .sources = {only("h200", M, kHopperCarveouts),
                             only("h100", A, "hopper: the H200's driver's choices (the same compute capability, "
                                             "9.0), not measured on the H100"),
                             every(D, "occupancy: the smallest carve-out that holds the resident blocks' shared "
                                      "memory, as the CUDA C++ Programming Guide's shared memory sections and its "
                                      "occupancy calculation reason; not measured on this chip")},
                 .sizes_l1 = true});
    t.push_back({.option = "l1-size", .field = "l1.size_bytes, l1_auto", .group = "L1 and shared memory",
                 .type = P::text, .range = "auto or bytes (K/M/G); 0 disables the L1",
                 .help = "L1 size per SM; auto: the unified L1/shared memory less the carve-out",
                 .get = [](const GpuConfig& c) { return c.l1_auto ? std::string("auto") : std::to_string(c.l1.size_bytes); },
                 .set = [](GpuConfig& c, std::string_view text, std::string_view option) {
                     c.l1_auto = text == "auto";
                     if (!c.l1_auto) c.l1.size_bytes = byte_size(text, option);
                 },
                 .sources = {every(D, "auto, what the carve-out that --carveout-rule takes leaves: CUDA C++ "
                                      "Programming Guide, sections on shared memory configuration")},
                 .cache_option = true,
                 .sizes_l1 = true});
    t.push_back({.option = "l1-line", .field = "l1.line_bytes", .group = "L1 and shared memory", .type = P::count,
                 .range = "a power of two", .min = 32, .max = 256, .help = "L1 line size in bytes",
                 .get = get_level_number<&GpuConfig::l1, &CacheConfig::line_bytes>,
                 .set = set_level_count<&GpuConfig::l1, &CacheConfig::line_bytes>,
                 .sources = {every(D, kSectoredLines)}, .cache_option = true});
    t.push_back({.option = "l1-sector", .field = "l1.sector_bytes", .group = "L1 and shared memory",
                 .type = P::count, .range = "0 (the line) or a power of two dividing it", .min = 0, .max = 256,
                 .help = "L1 sector size in bytes",
                 .get = get_level_number<&GpuConfig::l1, &CacheConfig::sector_bytes>,
                 .set = set_level_count<&GpuConfig::l1, &CacheConfig::sector_bytes>,
                 .sources = {every(D, kSectoredLines)}, .cache_option = true});
    t.push_back({.option = "l1-ways", .field = "l1.ways", .group = "L1 and shared memory", .type = P::text,
                 .range = "full or a number of ways", .help = "L1 associativity",
                 .get = get_ways<&GpuConfig::l1>, .set = set_ways<&GpuConfig::l1>,
                 .sources = {only("h200", M, kL1ProbeWays), only("h100", A, kL1ProbeWaysGh100),
                             every(A, "fully associative: Accel-Sim's microbenchmarks find 4 sets of many ways since "
                                      "Kepler; with hundreds of ways per set the difference is negligible, and a fully "
                                      "associative L1 follows the carve-out without a way count")},
                 .cache_option = true});
    t.push_back({.option = "l1-index", .report_key = "l1_index", .field = "l1_set_index",
                 .group = "L1 and shared memory", .type = P::choice, .choices = texts(kSetIndexChoices),
                 .help = "L1 set index, where --l1-ways gives the L1 sets",
                 .get = get_choice<&GpuConfig::l1_set_index, kSetIndexChoices>,
                 .set = set_choice<&GpuConfig::l1_set_index, kSetIndexChoices>,
                 .sources = {every(A, "line mod sets; it applies only to an L1 with sets, and the presets' L1 is "
                                      "fully associative. The H200's l1policyprobe is replayed best by 4 ways and "
                                      "`fold` (scripts/l1_policy_fit.py: 496 sets x 4 ways, mean error 0.031 of a "
                                      "hit share; docs/h200-data.md \"Which lines the L1 keeps\")")}});
    t.push_back({.option = "l1-policy", .field = "l1.policy", .group = "L1 and shared memory", .type = P::choice,
                 .choices = texts(kPolicyChoices), .help = "L1 replacement (opt: thread model only)",
                 .get = get_policy<&GpuConfig::l1>, .set = set_policy<&GpuConfig::l1>,
                 .sources = {only("v100", D, "random4 (random aligned group of 4 lines evicted): Jia et al. 2018 "
                                             "(Volta), reported in the thesis 2.1.2"),
                             only("t4", D, "random4: Jia et al. 2019 (Turing), thesis 2.1.2"),
                             only("rtx2080s", D, "random4: Jia et al. 2019 (Turing, TU104), thesis 2.1.2"),
                             only("a100", A, "LRU: no microbenchmark has shown non-LRU eviction on Ampere"),
                             only("h200", M, kL1ProbeRecency), only("h100", A, kL1ProbeRecencyGh100),
                             every(A, "LRU, as for the A100")},
                 .cache_option = true});
    // ---- L2
    t.push_back({.option = "l2-size", .field = "l2.size_bytes", .group = "L2", .type = P::bytes,
                 .range = "bytes (K/M/G); 0 disables the L2", .min = 0, .max = double(1ull << 30),
                 .help = "L2 size in total (all partitions)",
                 .get = [](const GpuConfig& c) { return std::to_string(c.l2.size_bytes); },
                 .set = [](GpuConfig& c, std::string_view text, std::string_view option) {
                     c.l2.size_bytes = byte_size(text, option);
                 },
                 .sources = {only("v100", D, "6 MiB (6,291,456 B): NVIDIA Tesla V100 GPU Architecture whitepaper (2017)"),
                             only("t4", D, "4 MiB (4,194,304 B): NVIDIA Turing GPU Architecture whitepaper (2018)"),
                             only("a100", D, "40 MiB (41,943,040 B): NVIDIA A100 Tensor Core GPU Architecture "
                                             "whitepaper (2020)"),
                             only("h100", M, "50 MiB (52,428,800 B): cudaGetDeviceProperties on an H100 "
                                             "(tests/data/h100/l2probe.txt); NVIDIA H100 Tensor Core GPU Architecture "
                                             "whitepaper (2022)"),
                             only("rtx2080s", D, "4 MiB (4,194,304 B): NVIDIA Turing GPU Architecture whitepaper "
                                                 "(2018, TU104); Jia et al. 2019 measure 4 MiB on the T4's TU104"),
                             only("h200", M, "60 MiB (62,914,560 B) as cudaGetDeviceProperties reports on an H200; "
                                             "NVIDIA H200 product brief")},
                 .cache_option = true});
    t.push_back({.option = "l2-line", .field = "l2.line_bytes", .group = "L2", .type = P::count,
                 .range = "a power of two", .min = 32, .max = 256, .help = "L2 line size in bytes",
                 .get = get_level_number<&GpuConfig::l2, &CacheConfig::line_bytes>,
                 .set = set_level_count<&GpuConfig::l2, &CacheConfig::line_bytes>,
                 .sources = {every(D, kSectoredLines)}, .cache_option = true});
    t.push_back({.option = "l2-sector", .field = "l2.sector_bytes", .group = "L2", .type = P::count,
                 .range = "0 (the line) or a power of two dividing it", .min = 0, .max = 256,
                 .help = "L2 sector size in bytes",
                 .get = get_level_number<&GpuConfig::l2, &CacheConfig::sector_bytes>,
                 .set = set_level_count<&GpuConfig::l2, &CacheConfig::sector_bytes>,
                 .sources = {every(D, kSectoredLines)}, .cache_option = true});
    t.push_back({.option = "l2-ways", .field = "l2.ways", .group = "L2", .type = P::text,
                 .range = "full or a number of ways", .help = "L2 associativity",
                 .get = get_ways<&GpuConfig::l2>, .set = set_ways<&GpuConfig::l2>,
                 .sources = {every(A, "16-way: not measurable by microbenchmarks; as in Accel-Sim's tuner")},
                 .cache_option = true});
    t.push_back({.option = "l2-policy", .field = "l2.policy", .group = "L2", .type = P::choice,
                 .choices = texts(kPolicyChoices), .help = "L2 replacement (opt: thread model only)",
                 .get = get_policy<&GpuConfig::l2>, .set = set_policy<&GpuConfig::l2>,
                 .sources = {every(A, "LRU: no source gives the L2's replacement policy")}, .cache_option = true});
    t.push_back({.option = "l2-index", .report_key = "l2_index", .field = "l2_set_index", .group = "L2",
                 .type = P::choice, .choices = texts(kSetIndexChoices), .help = "L2 set index",
                 .get = get_choice<&GpuConfig::l2_set_index, kSetIndexChoices>,
                 .set = set_choice<&GpuConfig::l2_set_index, kSetIndexChoices>,
                 .sources = {every(A, "hashed: GPUs spread addresses over L2 slices by a hash NVIDIA does not "
                                      "document")}});
    t.push_back({.option = "dram-fetch", .report_key = "dram_fetch_bytes", .field = "dram_fetch_bytes", .group = "L2",
                 .type = P::count, .range = "a power of two from the L2 sector to the line", .min = 32, .max = 128,
                 .help = "bytes an L2 miss fetches from DRAM (an aligned granule)",
                 .get = get_number<&GpuConfig::dram_fetch_bytes>, .set = set_count32<&GpuConfig::dram_fetch_bytes>,
                 .sources = {every(A, "one 32 B sector"),
                             only("h200", M, "64 B fill granules, crossing the link as one transfer: l2probe "
                                             "(tests/data/h200/l2probe_granule.csv)"),
                             only("h100", M, "64 B fill granules: l2probe on an H100 finds sectors 1 and 3 arriving "
                                             "with 0 and 2 (tests/data/h100/l2probe_granule.csv, l2probe.txt)")}});
    // ---- L2 partitions
    t.push_back({.option = "l2-partitions", .report_key = "l2_partitions", .field = "l2_partitions",
                 .group = "L2 partitions", .type = P::count, .range = "1 or 2", .min = 1, .max = 2,
                 .help = "1 | 2: two halves, each SM attached to one; a near miss that hits the far half copies what "
                         "it asked for (with home fill, the --dram-fetch granule) over",
                 .get = get_number<&GpuConfig::l2_partitions>, .set = set_count32<&GpuConfig::l2_partitions>,
                 .sources = {every(A, "one L2: the sources describe no partitions"),
                             only("a100", D, "two partitions of 20 MB: NVIDIA A100 whitepaper (2020); Ernst et al. "
                                             "section 3 (each SM attached to one half; far hits copied to the near "
                                             "half)"),
                             only("h100", M, "two partitions of 25 MiB: l2probe's load latencies per SM on an H100 "
                                             "(tests/data/h100/l2probe_sm.csv)"),
                             only("h200", M, "two partitions of 30 MiB: l2probe's load latencies per SM "
                                             "(tests/data/h200/l2probe_sm.csv)")}});
    t.push_back({.option = "l2-partition-map", .report_key = "l2_partition_map", .field = "partition_map",
                 .group = "L2 partitions", .type = P::choice, .choices = texts(kPartitionMapChoices),
                 .help = "SM to partition", .get = get_choice<&GpuConfig::partition_map, kPartitionMapChoices>,
                 .set = set_choice<&GpuConfig::partition_map, kPartitionMapChoices>,
                 .sources = {every(A, kNotWithOnePartition),
                             only("a100", A, "halves: GPCs split in two (no SM -> partition table was measured on "
                                             "the A100)"),
                             only("h200", M, "the measured SM -> partition table, 66 SMs per partition, decided by "
                                             "the TPC's slot in its GPC: l2probe (tests/data/h200/l2probe_sm.csv)"),
                             only("h100", M, "the H200's SM -> partition table: l2probe on an H100 finds the same 66 "
                                             "SM ids in each partition (tests/data/h100/l2probe_sm.csv, l2probe.txt)")}});
    t.push_back({.option = "l2-fill", .report_key = "l2_fill", .field = "partition_fill", .group = "L2 partitions",
                 .type = P::choice, .choices = texts(kPartitionFillChoices),
                 .help = "two partitions, where DRAM reads land",
                 .get = get_choice<&GpuConfig::partition_fill, kPartitionFillChoices>,
                 .set = set_choice<&GpuConfig::partition_fill, kPartitionFillChoices>,
                 .sources = {every(A, kNotWithOnePartition),
                             only("a100", A, "home fill, as measured on the H200 (Ernst et al. section 3 describes "
                                             "far hits copied to the near half)"),
                             only("h200", M, "home fill: gpubench's L2 fabric counters "
                                             "(tests/data/h200/partition_stencil.csv, partition_matmul.csv)"),
                             only("h100", A, "home fill: the H200's, measured there by gpubench's L2 fabric counters "
                                             "(the same GH100 chip; the H100's l2probe fill reads agree: "
                                             "tests/data/h100/l2probe.txt)")}});
    // ---- L2 request coalescing
    constexpr std::string_view kCoalesce = "L2 request coalescing";
    t.push_back({.option = "l2-coalesce-hit", .report_key = "l2_coalesce_hit_rounds",
                 .field = "l2_coalesce_hit_rounds", .group = kCoalesce, .type = P::count, .range = "0..1048576",
                 .min = 0, .max = 400,
                 .help = "rounds after an L1's request to the L2 that hit in the near half during which an identical "
                         "request (same line and sectors) of another SM in scope joins it instead of looking up; 0 "
                         "and --l2-coalesce-miss 0: off",
                 .get = get_number<&GpuConfig::l2_coalesce_hit_rounds>,
                 .set = set_count32<&GpuConfig::l2_coalesce_hit_rounds>,
                 .sources = {every(A, kCoalescingOff),
                             only("h200", M, "50 rounds for about 100 cycles after an L2 hit: l1probe "
                                             "(tests/data/h200/l1probe_warm.csv, l1probe_cases_warm.csv)"),
                             only("h100", A, "50 rounds: the H200's, measured there by l1probe (the same GH100 chip; "
                                             "l1probe was not run on the H100)")}});
    t.push_back({.option = "l2-coalesce-miss", .report_key = "l2_coalesce_miss_rounds",
                 .field = "l2_coalesce_miss_rounds", .group = kCoalesce, .type = P::count, .range = "0..1048576",
                 .min = 0, .max = 800,
                 .help = "the same window after a request that misses in the near L2 half (it waits longer)",
                 .get = get_number<&GpuConfig::l2_coalesce_miss_rounds>,
                 .set = set_count32<&GpuConfig::l2_coalesce_miss_rounds>,
                 .sources = {every(A, kCoalescingOff),
                             only("h200", M, "200 rounds for about 400 cycles of a DRAM read: l1probe "
                                             "(tests/data/h200/l1probe_cold.csv, l1probe_cases_cold.csv)"),
                             only("h100", A, "200 rounds: the H200's, measured there by l1probe (the same GH100 chip; "
                                             "l1probe was not run on the H100)")}});
    t.push_back({.option = "l2-coalesce-max", .report_key = "l2_coalesce_max", .field = "l2_coalesce_requesters",
                 .group = kCoalesce, .type = P::count, .range = "2..255", .min = 2, .max = 255,
                 .help = "SMs one coalesced L2 lookup serves at most",
                 .get = get_number<&GpuConfig::l2_coalesce_requesters>,
                 .set = set_count32<&GpuConfig::l2_coalesce_requesters>,
                 .sources = {every(A, kCoalescingOff),
                             only("h200", M, "132 SMs reading one line at once make 34-35 lookups, about four SMs "
                                             "per lookup: l1probe (tests/data/h200/l1probe_cold.csv)"),
                             only("h100", A, "the H200's, measured there by l1probe (the same GH100 chip)")}});
    t.push_back({.option = "l2-coalesce-among", .report_key = "l2_coalesce_among", .field = "l2_coalesce_scope",
                 .group = kCoalesce, .type = P::choice, .choices = texts(kCoalesceScopeChoices),
                 .help = "which SMs' requests can be coalesced",
                 .get = get_choice<&GpuConfig::l2_coalesce_scope, kCoalesceScopeChoices>,
                 .set = set_choice<&GpuConfig::l2_coalesce_scope, kCoalesceScopeChoices>,
                 .sources = {every(A, kCoalescingOff),
                             only("h200", F, "pairs: the scope that brings the most stencil L2 rates within 5 points "
                                             "(78 of 81) and ranks the schedules as well as no coalescing wherever the "
                                             "H200 ranks them repeatably; fitted on "
                                                 "gpubench's 81 H200 fidelity configurations "
                                             "(tests/data/h200/fidelity_matmul_spread21.csv)"),
                             only("h100", F, "pairs: fitted on H200 measurements (the training set; see the h200 "
                                             "preset), not re-fitted on the H100")}});
    // ---- Scheduling
    t.push_back({.option = "cta-order", .report_key = "cta_order", .field = "cta_order", .group = "Scheduling",
                 .type = P::choice, .choices = texts(kCtaOrderChoices), .help = "first wave of blocks",
                 .get = get_choice<&GpuConfig::cta_order, kCtaOrderChoices>,
                 .set = [](GpuConfig& c, std::string_view text, std::string_view option) {
                     c.cta_order = choice_value<CtaOrder>(kCtaOrderChoices, text, option, kCtaOrderAliases);
                 },
                 .sources = {every(A, "round robin, breadth first, as the hardware's CTA scheduler does (no "
                                      "dispatch order was measured on this chip)"),
                             only("h200", M, "the measured dispatch cycle (each GPC a wheel of eight TPC slots, "
                                             "visited slot by slot) with the TPCs at SMs 124-131 taking turns of "
                                             "their own: from the row the chip started at it reproduces all 24 "
                                             "recorded first waves block for block: gpubench's block placement "
                                             "(tests/data/h200/placement_matmul.csv, "
                                             "issue_cost/knee_ends_index32.csv.gz); the slot cycle alone (floorplan) "
                                             "75-100% of them. Held to the first-wave placement probes predicted "
                                             "before they were measured (tests/data/h100/placement/): nearer the chip "
                                             "than the slot cycle at all ten launches where the two differ by 3 "
                                             "points or more"),
                             only("h100", M, "the H200's measured dispatch: from the row the chip started at it "
                                             "reproduces all eight first waves recorded on an H100 block for block "
                                             "(tests/data/h100/naive32/naive32_ends_*.csv.gz); the H100's l2probe "
                                             "finds the same SM -> partition split")},
                 .scheduler_only = true});
    t.push_back({.option = "cta-refill", .report_key = "cta_refill", .field = "cta_refill", .group = "Scheduling",
                 .type = P::choice, .choices = texts(kCtaRefillChoices),
                 .help = "later waves, SMs freeing a block slot in the same round get the next blocks in",
                 .get = get_choice<&GpuConfig::cta_refill, kCtaRefillChoices>,
                 .set = set_choice<&GpuConfig::cta_refill, kCtaRefillChoices>,
                 .sources = {every(A, "shuffled: on the chip the finishing order is decided by timing the model "
                                      "does not have, so no SM is favoured")},
                 .scheduler_only = true});
    t.push_back({.option = "warp-scheduler", .report_key = "warp_scheduler", .field = "scheduler",
                 .group = "Scheduling", .type = P::choice, .choices = texts(kWarpSchedulerChoices),
                 .help = "which resident warp of an SM issues its next request",
                 .get = get_choice<&GpuConfig::scheduler, kWarpSchedulerChoices>,
                 .set = [](GpuConfig& c, std::string_view text, std::string_view option) {
                     c.scheduler = choice_value<WarpScheduler>(kWarpSchedulerChoices, text, option, kWarpSchedulerAliases);
                 },
                 .sources = {every(A, "loose round robin: NVIDIA does not document the warp scheduler")},
                 .scheduler_only = true});
    t.push_back({.option = "warp-rate-spread", .report_key = "warp_rate_spread", .field = "warp_rate_spread",
                 .group = "Scheduling", .type = P::real, .range = "0..1", .min = 0, .max = 0.5,
                 .help = "lrr: warps progress at their own rates, min(1, exp(S(z-3))) requests per turn with z a "
                         "standard normal per warp (seeded); 0: every warp takes every turn (gto ignores it; "
                         "0 too where --lockstep-warps puts the launch in lock step)",
                 .get = [](const GpuConfig& c) { return short_real(c.warp_rate_spread); },
                 .set = set_warp_rate_spread,
                 .applied = [](const GpuConfig& c, const WorkloadSpec* w) {
                     return lrr_rounds(c) ? short_real(with_rate_form(c, w).warp_rate_spread) : std::string("0");
                 },
                 .sources = {every(A, "0: warps progress in step (no measurement on this chip to fit a spread to)"),
                             only("h200", F, "0.15 with rates drawn afresh every 32 requests and a block start skip of 8, "
                                             "fitted together on the 27 training matmul launches and the 10 index64 "
                                             "768^3 compilation probes (the lowest mean L1 error over the 37 rows, "
                                             "0.75 points; docs/model-studies.md, \"The block start skip and the rate "
                                             "spread\"), with the slot cycle's first wave; with the measured turns "
                                             "the training targets hold as they were, so it was not fitted again"),
                             only("h100", F, "0.15: fitted on H200 measurements (the training matmul and the index64 "
                                             "compilation probes; see the h200 preset), not re-fitted on the H100")},
                 .scheduler_only = true});
    t.push_back({.option = "warp-rate-redraw", .report_key = "warp_rate_redraw", .field = "warp_rate_redraw",
                 .group = "Scheduling", .type = P::count, .range = "0..65536", .min = 0, .max = 256,
                 .help = "lrr with a rate spread: a warp draws its rate afresh every N requests, so warps wander "
                         "apart as a random walk; 0: a warp keeps one rate",
                 .get = get_number<&GpuConfig::warp_rate_redraw>, .set = set_count32<&GpuConfig::warp_rate_redraw>,
                 .applied = [](const GpuConfig& c, const WorkloadSpec* w) {
                     return std::to_string(rates_drawn(with_rate_form(c, w)) ? c.warp_rate_redraw : 0);
                 },
                 .sources = {every(A, "0: a warp keeps the rate it drew"),
                             only("h200", A, "32, for every workload: the loads of one iteration of gpubench's "
                                             "compiled matmul loop (its issue burst, from the SASS), so that the "
                                             "matmul's warps change rate once an iteration; not fitted"),
                             only("h100", A, "32: as the h200 preset")},
                 .scheduler_only = true});
    t.push_back({.option = "warp-rate-scope", .report_key = "warp_rate_scope", .field = "warp_rate_scope",
                 .group = "Scheduling", .type = P::choice, .choices = texts(kWarpRateScopeChoices),
                 .help = "lrr with a rate spread: each warp draws its own rate (warp), or a block's warps share "
                         "one (block), so that they keep in step and only blocks drift apart",
                 .get = get_choice<&GpuConfig::warp_rate_scope, kWarpRateScopeChoices>,
                 .set = set_choice<&GpuConfig::warp_rate_scope, kWarpRateScopeChoices>,
                 // the launch's scope for "auto"; only drawn rates have a scope
                 .applied = [](const GpuConfig& c, const WorkloadSpec* w) {
                     return std::string(choice_name<WarpRateScope>(kWarpRateScopeChoices, with_rate_form(c, w).warp_rate_scope));
                 },
                 .sources = {every(A, "warp: each warp draws its own rate"),
                             only("h200", F, "auto: per warp where the L1 is at least the 224 KiB the rate spread and "
                                             "block start skip were fitted at (the training launches'), per block "
                                             "where shared memory leaves it smaller, chosen on the first "
                                             "shared-memory probes (a block's warps end together on the chip, "
                                             "gpubench --warp-ends); on a second shared-memory set measured after "
                                             "the choice one rate per block has 25 of 48 matmul launches within 3 "
                                             "points, a rate per warp 22 (tests/data/h200/smem/compare, smem2; "
                                             "docs/fidelity-shared-memory.md, \"A second shared-memory set\"); on a "
                                             "third, "
                                             "measured after the presets took the form, 45 of 64 (a rate per warp "
                                             "17), up to 32 points low where the chip keeps an SM's blocks in step "
                                             "in the first waves, and at eight blocks an SM up to 54 (smem_waves, "
                                             "eight_blocks; docs/fidelity-shared-memory.md, \"A small L1 over many "
                                             "waves\")"),
                             only("h100", F, "auto: fitted on H200 measurements (see the h200 preset), not re-fitted "
                                             "on the H100")},
                 .scheduler_only = true});
    t.push_back({.option = "issue-burst", .report_key = "issue_burst", .field = "issue_burst", .group = "Scheduling",
                 .type = P::text, .range = "auto or 1..65536",
                 .help = "lrr: requests a warp issues in a row at its turn, N or auto (the loads of one iteration of "
                         "the compiled loop: gpubench's stencil SWxSH, matmul 32; a traceg's from its instructions); "
                         "1: one request per turn",
                 .get = get_count_or_auto<&GpuConfig::issue_burst, kIssueBurstAuto>,
                 .set = set_issue_burst,
                 // the workload's value for "auto"; gto and a measured timeline use neither
                 .applied = [](const GpuConfig& c, const WorkloadSpec* w) {
                     if (c.timeline) return std::string("1");
                     return std::to_string(c.timing == IssueTiming::cycles ? cycle_issue_burst(c, w)
                                                                           : issue_burst_for(c, w));
                 },
                 .sources = {every(A, "1: one request per turn"),
                             only("h200", M, "auto: a warp issues the loads of one iteration of its compiled loop in "
                                             "a row, as nvcc -arch=sm_90 compiles gpubench's kernels (cuobjdump -sass: "
                                             "tests/data/h200/sass_loads.txt; docs/h200-data.md; the generic stencil "
                                             "kernel's row pieces from Nsight Compute's per-PC counts, "
                                             "tests/data/h200/issue_cost/opcode_mix.csv); a recorded kernel's from its "
                                             "traceg's instructions (the loads between jumps back)"),
                             only("h100", M, "auto: the same compiled loops (cuobjdump -sass of the binary profiled "
                                             "on the H100: tests/data/h100/sass_loads_variants.txt)")},
                 .scheduler_only = true});
    t.push_back({.option = "block-start-skip", .report_key = "block_start_skip", .field = "block_start_skip",
                 .group = "Scheduling", .type = P::text, .range = "auto or 0..1024",
                 .help = "lrr: a block's warps are passed over on their first 0..N turns (drawn per block, seeded), "
                         "so that blocks started together do not run in exact step; auto: the skip fitted with "
                         "the rate scope the launch runs (8 per warp, 4 per block)",
                 .get = get_count_or_auto<&GpuConfig::block_start_skip, kBlockStartSkipAuto>,
                 .set = set_block_start_skip,
                 .applied = [](const GpuConfig& c, const WorkloadSpec* w) {
                     return std::to_string(c.timeline || c.scheduler != WarpScheduler::lrr ||
                                                   c.timing == IssueTiming::cycles
                                               ? 0 : with_rate_form(c, w).block_start_skip);
                 },
                 .sources = {every(A, "0: blocks start at their first turn"),
                             only("h200", F, "auto: with a rate per warp 8 with a rate spread of 0.15, fitted together "
                                             "on the 27 training matmul launches and the 10 index64 768^3 compilation "
                                             "probes (skips 4 / 8 / 16 at their best spreads: mean L1 error 1.00 / "
                                             "0.75 / 1.17 points over the 37 rows; the training stencils' L2 then 53 "
                                             "of 54 within 5 points); with a rate per block 4, the only pair with "
                                             "spread 0.15 of six run on the training set that met the presets' rule "
                                             "(tests/data/block_rates/grid); docs/fidelity.md); fitted with the slot "
                                             "cycle's first wave, not again with the measured turns, with which the "
                                             "training targets hold"),
                             only("h100", F, "auto: fitted on H200 measurements (see the h200 preset), not re-fitted "
                                             "on the H100")},
                 .scheduler_only = true});
    t.push_back({.option = "warp-age-weight", .report_key = "warp_age_weight", .field = "warp_age_weight",
                 .group = "Scheduling", .type = P::text, .range = "auto or above 0 to 1",
                 .help = "lrr with a rate spread: each live warp of an older block on the same scheduler (warp slot "
                         "mod 4), past --warp-age-group, multiplies a warp's rate by W, so blocks progress oldest "
                         "first; W, or auto (the measured weight for loops a pipe limits, 1 for the others: "
                         "--loop-limit); 1: none",
                 .get = get_real_or_auto<&GpuConfig::warp_age_weight, kWarpAgeWeightValues>,
                 .set = set_real_or_auto<&GpuConfig::warp_age_weight, kWarpAgeWeightValues>,
                 // the loop's weight for "auto"; only the rounds' loose round robin with rates weighs ages
                 .applied = [](const GpuConfig& c, const WorkloadSpec* w) {
                     return rates_drawn(c) ? short_real(warp_age_weight_for(c, w)) : std::string("1");
                 },
                 .sources = {every(A, "1: warps at their drawn rates, whatever their age"),
                             only("h200", M, "auto: 1 for loops the issue port limits, and for the loops a pipe limits "
                                             "(fmaheavy or alu, tests/data/h200/issue_cost/issue_cost.csv) 0.863, "
                                             "the pace of each warp the chip leaves behind its group over the one "
                                             "before it, from the knee probe's warp ends (scripts/"
                                             "warp_age_measure.py, tests/data/h200/issue_cost/warp_age_measure.csv; "
                                             "docs/model-studies.md, \"Loops bound by their instructions\")"),
                             only("h100", M, "auto: measured on the H200 (see the h200 preset), not on the H100")},
                 .scheduler_only = true});
    t.push_back({.option = "warp-age-group", .report_key = "warp_age_group", .field = "warp_age_group",
                 .group = "Scheduling", .type = P::count, .range = "1..64", .min = 1, .max = 64,
                 .help = "with --warp-age-weight below 1: warps with fewer than N live warps of older blocks on "
                         "their scheduler keep their drawn rates, each rank beyond runs at W times the one before "
                         "(a block's warps share a rank); 1: every older block's warp weighs",
                 .get = get_number<&GpuConfig::warp_age_group>, .set = set_count32<&GpuConfig::warp_age_group>,
                 .sources = {every(A, "1: each older block's warp on the scheduler weighs"),
                             only("h200", M, "12: the blocks of 128 threads that end together on each SM of the "
                                             "knee probe's one-wave launches at 14-16 warps a scheduler (gpubench "
                                             "--warp-ends; scripts/warp_age_measure.py, "
                                             "tests/data/h200/issue_cost/warp_age_measure.csv)"),
                             only("h100", M, "12: measured on the H200 (see the h200 preset), not on the H100")},
                 .scheduler_only = true});
    t.push_back({.option = "warp-age-rank", .report_key = "warp_age_rank", .field = "warp_age_rank",
                 .group = "Scheduling", .type = P::choice, .choices = texts(kWarpAgeRankChoices),
                 .help = "with the age weight: what a warp's rank counts, the live warps of older blocks on its "
                         "scheduler, or on its SM per scheduler (rounded down), one rank for all of a block's warps",
                 .get = get_choice<&GpuConfig::warp_age_rank, kWarpAgeRankChoices>,
                 .set = set_choice<&GpuConfig::warp_age_rank, kWarpAgeRankChoices>,
                 .sources = {every(A, "scheduler: the warp's own scheduler. The two agree for blocks whose warps "
                                      "spread evenly over the schedulers (128, 256, 384 threads); elsewhere a "
                                      "block's warps take different ranks, where the chip ends them together. "
                                      "block with the warm group puts the held-out block-96 orders right but "
                                      "tiled:32x32, 9.8 points high on both chips (docs/model-studies.md)")},
                 .scheduler_only = true});
    t.push_back({.option = "warp-age-warm-step", .report_key = "warp_age_warm_step", .field = "warp_age_warm_step",
                 .group = "Scheduling", .type = P::real, .range = "above 0 to 1", .min = 0.5, .max = 1,
                 .help = "with --warp-age-rank block and --warp-age-warm-group: a warp of a block that reads from "
                         "the L2 runs at S to the power of the live warps of older blocks its own scheduler holds "
                         "beyond its block's rank, times its block's pace; 1: a block's warps alike",
                 .get = [](const GpuConfig& c) { return short_real(c.warp_age_warm_step); },
                 .set = [](GpuConfig& c, std::string_view text, std::string_view option) {
                     c.warp_age_warm_step = real_in(text, option, 0, 1, "a number above 0 and at most 1");
                 },
                 .applied = [](const GpuConfig& c, const WorkloadSpec* w) {
                     const bool stepped = rates_drawn(c) && c.warp_age_rank == WarpAgeRank::block &&
                                          c.warp_age_warm_group > 0 && warp_age_warm_weight_for(c, w) < 1;
                     return short_real(stepped ? c.warp_age_warm_step : 1);
                 },
                 .sources = {every(A, "1: a block's warps keep one pace wherever its data comes from. 0.94, "
                                      "measured on the tile progress probe (a block's warps' widest gap where its "
                                      "blocks read from the L2: scripts/warm_step_measure.py, "
                                      "tests/data/h200/tile_progress/warm_step.csv), with the warm group and one rank "
                                      "a block moves the held-out tiled:32x32 at block 96 from 9.8 to 6.6 points high "
                                      "on both chips, still beyond 6 (docs/model-studies.md)")},
                 .scheduler_only = true});
    t.push_back({.option = "warp-age-warm-group", .report_key = "warp_age_warm_group", .field = "warp_age_warm_group",
                 .group = "Scheduling", .type = P::count, .range = "0..64", .min = 0, .max = 64,
                 .help = "with the age weight: the group of blocks whose loop reads from the L2 (those "
                         "--warp-age-dram-blocks does not name, every block of a warm start), the ranks beyond it weighted "
                         "by --warp-age-warm-weight (the H200's 32-bit loop started warm: 6); 0: every block takes "
                         "--warp-age-group and --warp-age-weight",
                 .get = get_number<&GpuConfig::warp_age_warm_group>, .set = set_count32<&GpuConfig::warp_age_warm_group>,
                 .sources = {every(A, "0: one group and weight, wherever a block's data comes from (6, measured "
                                      "on the H200's knee probe started warm, puts the 32-bit naive order right "
                                      "but the held-out 1536^3 launch at block 96 5-18 points low: "
                                      "docs/model-studies.md)")},
                 .scheduler_only = true});
    t.push_back({.option = "warp-age-warm-weight", .report_key = "warp_age_warm_weight", .field = "warp_age_warm_weight",
                 .group = "Scheduling", .type = P::text, .range = "auto or above 0 to 1",
                 .help = "with --warp-age-warm-group: the age weight of blocks whose loop reads from the L2; W, or "
                         "auto (the weight measured warm for loops a pipe limits, 1 for the others)",
                 .get = get_real_or_auto<&GpuConfig::warp_age_warm_weight, kWarpAgeWeightValues>,
                 .set = set_real_or_auto<&GpuConfig::warp_age_warm_weight, kWarpAgeWeightValues>,
                 .applied = [](const GpuConfig& c, const WorkloadSpec* w) {
                     return rates_drawn(c) && c.warp_age_warm_group > 0 ? short_real(warp_age_warm_weight_for(c, w))
                                                                        : std::string("1");
                 },
                 .sources = {every(M, "auto: 1 for loops the issue port limits, and for the loops a pipe limits "
                                      "0.591, the pace of each warp the chip leaves behind its group over the one "
                                      "before it, from the knee probe's warp ends started with its arrays in the L2 "
                                      "(scripts/warp_age_measure.py, "
                                      "tests/data/h200/issue_cost/warp_age_measure_warm_index32.csv)")},
                 .scheduler_only = true});
    t.push_back({.option = "warp-age-dram-blocks", .report_key = "warp_age_dram_blocks",
                 .field = "warp_age_dram_blocks", .group = "Scheduling", .type = P::choice,
                 .choices = texts(kWarpAgeDramBlocksChoices),
                 .help = "with --warp-age-warm-group, when the L2 starts cold: which blocks read from DRAM and take "
                         "--warp-age-group and --warp-age-weight (the others take the warm group and weight)",
                 .get = get_choice<&GpuConfig::warp_age_dram_blocks, kWarpAgeDramBlocksChoices>,
                 .set = set_choice<&GpuConfig::warp_age_dram_blocks, kWarpAgeDramBlocksChoices>,
                 .sources = {every(A, "first-reads: a block most of whose sampled reads are of lines first read "
                                      "(in launch order) by a block at most one GPU-full of blocks before it "
                                      "(SMs x blocks per SM: still resident); half assumed. Chosen over "
                                      "first-wave on the 20 32-bit width probes, in no set (docs/model-studies.md)")},
                 .scheduler_only = true});
    t.push_back({.option = "miss-wait-turns", .report_key = "miss_wait_turns", .field = "miss_wait_turns",
                 .group = "Scheduling", .type = P::text, .range = "auto or 0..64",
                 .help = "lrr: a warp whose request misses in L1 is passed over on its next X turns (a fraction: "
                         "one turn with that probability), X or auto (from the compiled loop: a loop whose "
                         "scheduler comes back to a warp before its miss's data does; --loop-issue-cost, "
                         "--compilation); 0: none",
                 .get = get_real_or_auto<&GpuConfig::miss_wait_turns, kMissWaitValues>,
                 .set = set_real_or_auto<&GpuConfig::miss_wait_turns, kMissWaitValues>,
                 // the loop's turns for "auto"; only the rounds' loose round robin passes warps over
                 .applied = [](const GpuConfig& c, const WorkloadSpec* w) {
                     if (!lrr_rounds(c)) return std::string("0");
                     if (c.miss_wait_turns != kMissWaitAuto) return short_real(c.miss_wait_turns);
                     if (!w) return std::string("0");  // a recorded kernel: its loop unmeasured
                     const GpuOccupancy o = gpu_occupancy(c);
                     return short_real(miss_wait_turns_for(c, w, o.warps_per_block * o.blocks_per_sm));
                 },
                 .sources = {every(A, "0: a miss costs a warp no turn"),
                             only("h200", M, "auto: derived, nothing fitted: (L1 miss latency - pass) / pass where "
                                             "a scheduler's pass over its warps, (warps a scheduler) x burst x the "
                                             "loop's measured issue cost, is shorter than the miss latency (291 "
                                             "cycles, l2probe's near L2 hit): 0.20 turns for the unrolled-once "
                                             "matmul (16 x 2 x 7.59 cycles), 0 for the unrolled loops "
                                             "(tests/data/h200/issue_cost/issue_cost.csv; docs/model-studies.md, "
                                             "\"Warps that wait for their misses\")"),
                             only("h100", M, "auto: the H200's issue costs with the H100's own miss latency, not "
                                             "fitted on the H100")},
                 .scheduler_only = true});
    t.push_back({.option = "lockstep-warps", .report_key = "lockstep_warps", .field = "lockstep_warps",
                 .group = "Scheduling", .type = P::text, .range = "auto or 0..64",
                 .help = "lrr with a rate spread: a launch whose SM holds at most N warps a scheduler runs in lock "
                         "step, without the rate spread and the block start skip (the scheduler keeps that many "
                         "warps at a lone warp's pace, so none falls behind); auto: the count measured for the "
                         "compiled loop (gpubench's matmul: index64 8, index32 6; other loops 0); 0: never",
                 .get = get_count_or_auto<&GpuConfig::lockstep_warps, kLockstepWarpsAuto>,
                 .set = set_lockstep_warps,
                 // the loop's count for "auto"; only drawn rates give way to lock step
                 .applied = [](const GpuConfig& c, const WorkloadSpec* w) {
                     return std::to_string(rates_drawn(c) ? lockstep_warps_for(c, w) : 0);
                 },
                 .sources = {every(A, "0: never (the warps draw no rates that lock step would replace)"),
                             only("h200", M, "auto: measured, nothing fitted on hit rates: the most warps a scheduler "
                                             "for which the knee probe started with its arrays in the L2 took at "
                                             "most 1.1 times a lone warp's time, at that count and every smaller "
                                             "one: the 64-bit matmul 11 (1.09; 12: 1.42), the 32-bit 6 (1.08; 7: "
                                             "1.49), the unrolled-once 12 (1.10; 16: 1.13); 0 for the stencils, not "
                                             "measured so. Timed on an H100 at every count to 12 "
                                             "(tests/data/h100/issue_cost/knee_timed_fine_warm.csv), on the same "
                                             "side of 1.1 as the H200's coarser run at every count both have "
                                             "(tests/data/h200/issue_cost/knee_timed_warm.csv; docs/model-studies.md, "
                                             "\"Lock step where the scheduler keeps pace\")"),
                             only("h100", M, "auto: the h200 preset's counts, timed on an H100 "
                                             "(tests/data/h100/issue_cost/knee_timed_fine_warm.csv)")},
                 .scheduler_only = true});
    t.push_back({.option = "compilation", .report_key = "compilation", .field = "compilation", .group = "Scheduling",
                 .type = P::choice, .choices = texts(kKernelCompilationChoices),
                 .help = "how gpubench's kernel was compiled (its --variants), which --issue-burst auto reads",
                 .get = get_choice<&GpuConfig::compilation, kKernelCompilationChoices>,
                 .set = set_choice<&GpuConfig::compilation, kKernelCompilationChoices>,
                 .sources = {every(M, "index64 unless given: the training compilation; the bursts of all three "
                                      "from cuobjdump -sass of gpubench's kernels "
                                      "(tests/data/h200/sass_loads_variants.txt)")},
                 .scheduler_only = true});
    t.push_back({.option = "loop-limit", .report_key = "loop_limit", .field = "loop_limit", .group = "Scheduling",
                 .type = P::choice, .choices = texts(kLoopLimitChoices),
                 .help = "what limits the kernel's compiled loop, which --warp-age-weight auto reads (a loop a pipe "
                         "limits weighs its warps by age)",
                 .get = get_choice<&GpuConfig::loop_limit, kLoopLimitChoices>,
                 .set = set_choice<&GpuConfig::loop_limit, kLoopLimitChoices>,
                 .applied = [](const GpuConfig& c, const WorkloadSpec* w) {
                     return std::string(choice_name<LoopLimit>(kLoopLimitChoices, loop_limit_for(c, w)));
                 },
                 .sources = {every(M, "auto: gpubench's compiled loops as measured on the H200, the busiest of the "
                                      "issue port and the pipes per load request (probe launches in no validation "
                                      "set: scripts/device_issue_cost.sh, tests/data/h200/issue_cost/issue_cost.csv); "
                                      "a recorded kernel whose trace holds its instructions (an Accel-Sim traceg): "
                                      "from them, the pipes by the opcode table checked on the H200 "
                                      "(traces/instruction_pipes.hpp); any other loop issue unless given (a loop of "
                                      "your own: from its Nsight Compute counters, docs/cli.md \"The loop's own "
                                      "counters\")")},
                 .scheduler_only = true});
    t.push_back({.option = "loop-issue-cost", .report_key = "loop_issue_cost", .field = "loop_issue_cost",
                 .group = "Scheduling", .type = P::text, .range = "auto or 1..1024",
                 .help = "cycles of a warp scheduler each global load request of the kernel's loop takes, its other "
                         "instructions included (the busiest of the issue port and the pipes), which "
                         "--miss-wait-turns auto and --issue-cycles auto read; auto: gpubench's loops as measured",
                 .get = get_real_or_auto<&GpuConfig::loop_issue_cost, kLoopIssueCostValues>,
                 .set = set_real_or_auto<&GpuConfig::loop_issue_cost, kLoopIssueCostValues>,
                 // 0: not measured (a loop of no table, a recorded kernel)
                 .applied = [](const GpuConfig& c, const WorkloadSpec* w) { return short_real(loop_issue_cost_for(c, w)); },
                 .sources = {every(M, "auto: gpubench's compiled loops as measured on the H200 "
                                      "(tests/data/h200/issue_cost/issue_cost.csv: matmul 3.62 / 5.22 / 7.59 cycles "
                                      "for index64 / index32 / unroll1, stencils 6.7-27); a recorded kernel's from "
                                      "its traceg's instructions (traces/instruction_pipes.hpp); 0 (unknown) for "
                                      "any other loop unless given (a loop of your own: from its Nsight Compute "
                                      "counters, docs/cli.md \"The loop's own counters\")")},
                 .scheduler_only = true});
    // ---- Cycle timing
    constexpr std::string_view kCycles = "Cycle timing";
    t.push_back({.option = "timing", .report_key = "timing", .field = "timing", .group = kCycles, .type = P::choice,
                 .choices = texts(kIssueTimingChoices),
                 .help = "what the model's time is; cycles replaces the warp rate spread and block start skip",
                 .get = get_choice<&GpuConfig::timing, kIssueTimingChoices>,
                 .set = set_choice<&GpuConfig::timing, kIssueTimingChoices>,
                 .sources = {every(A, "rounds: warps take their turns at their drawn rates (in lock step with no "
                                      "rate spread); cycles, warps that wait for memory, misses the fidelity targets "
                                      "on the H200's training set that the rounds meet (docs/model-studies.md, \"Cycle "
                                      "timing\")")},
                 .scheduler_only = true});
    t.push_back({.option = "schedulers-per-sm", .report_key = "schedulers_per_sm", .field = "schedulers_per_sm",
                 .group = kCycles, .type = P::count, .range = "1..16", .min = 1, .max = 16,
                 .help = "warp schedulers per SM, a warp slot's being the slot mod N: with cycles each issues at "
                         "most one request a cycle; --warp-age-weight ranks warps by age within each",
                 .get = get_number<&GpuConfig::schedulers_per_sm>, .set = set_count32<&GpuConfig::schedulers_per_sm>,
                 .sources = {every(D, "four warp schedulers (SM sub-partitions) per SM since Volta: NVIDIA V100, "
                                      "Turing, A100 and H100 whitepapers")},
                 .scheduler_only = true});
    t.push_back({.option = "lat-l1-hit", .report_key = "lat_l1_hit", .field = "lat_l1_hit", .group = kCycles,
                 .type = P::count, .range = "1..1048576", .min = 1, .max = 200,
                 .help = "cycles: cycles from a load's issue to its data when every sector hits in L1",
                 .get = get_number<&GpuConfig::lat_l1_hit>, .set = set_count32<&GpuConfig::lat_l1_hit>,
                 .sources = {every(A, "32 cycles: the L1 hit latency Jia et al. measured on Turing (Dissecting the "
                                      "NVidia Turing T4 GPU via Microbenchmarking, 2019; Volta: 28, Jia et al. "
                                      "2018); not measured on this chip"),
                             only("t4", D, "32 cycles: Jia et al., Dissecting the NVidia Turing T4 GPU via "
                                           "Microbenchmarking (2019)"),
                             only("rtx2080s", D, "32 cycles: Jia et al., Dissecting the NVidia Turing T4 GPU via "
                                                 "Microbenchmarking (2019), the same TU104 chip"),
                             only("v100", D, "28 cycles: Jia et al., Dissecting the NVIDIA Volta GPU Architecture via "
                                             "Microbenchmarking (2018)"),
                             only("h200", M, "42 cycles, the median L1 hit of one thread chasing 64 lines it has just "
                                             "read (p10 and p90 42): latencyprobe (tests/data/h200/latencyprobe.txt; "
                                             "the same method as l2probe, whose L2 hits it measures at 277)"),
                             only("h100", A, "42 cycles, the H200's L1 hit (latencyprobe); not measured on the "
                                             "H100")},
                 .scheduler_only = true});
    t.push_back({.option = "lat-l1-miss", .report_key = "lat_l1_miss", .field = "lat_l1_miss", .group = kCycles,
                 .type = P::count, .range = "1..1048576", .min = 1, .max = 2000,
                 .help = "cycles: cycles from a load's issue to its data when a sector misses in L1 (SMs run alone, "
                         "so one latency stands for the near L2 half, the far half and DRAM)",
                 .get = get_number<&GpuConfig::lat_l1_miss>, .set = set_count32<&GpuConfig::lat_l1_miss>,
                 .sources = {every(A, "291 cycles, the H200's near L2 hit; not measured on this chip"),
                             only("h100", M, "289 cycles, the median near L2 hit: l2probe on an H100 "
                                             "(tests/data/h100/l2probe.txt; far hits and DRAM, 716, are not told apart "
                                             "in an SM running alone)"),
                             only("h200", M, "291 cycles, the median near L2 hit (p10 273, p90 311): l2probe "
                                             "(tests/data/h200/l2probe.txt, l2probe_sm.csv; far hits take 420-500 and "
                                             "DRAM reads 520-850, median 691, which an SM running alone cannot tell "
                                             "apart)")},
                 .scheduler_only = true});
    t.push_back({.option = "lat-dram", .report_key = "lat_dram", .field = "lat_dram", .group = kCycles,
                 .type = P::count, .range = "0..1048576", .min = 0, .max = 2000,
                 .help = "cycles: cycles from a load's issue to its data when a sector misses in L1 and no SM asked "
                         "the L2 for its DRAM fetch granule in an earlier chunk of cycles (it comes from DRAM); 0: "
                         "every L1 miss takes --lat-l1-miss",
                 .get = get_number<&GpuConfig::lat_dram>, .set = set_count32<&GpuConfig::lat_dram>,
                 .sources = {every(A, "0: off, every L1 miss takes --lat-l1-miss (not measured on this chip)"),
                             only("h200", A, "0: off; 691 cycles, the median DRAM read l2probe measures "
                                             "(tests/data/h200/l2probe.txt), is an option: with it the model's later "
                                             "waves stay together, the chip's part (docs/model-studies.md, \"How an SM's "
                                             "blocks end together, wave after wave\")"),
                             only("h100", A, "0: off; 716 cycles, the median DRAM read l2probe measures on an H100 "
                                             "(tests/data/h100/l2probe.txt), is an option")},
                 .scheduler_only = true});
    t.push_back({.option = "lat-l2-far", .report_key = "lat_l2_far", .field = "lat_l2_far", .group = kCycles,
                 .type = P::count, .range = "0..1048576", .min = 0, .max = 2000,
                 .help = "cycles: cycles from a load's issue to its data when a sector misses in L1, its line's home "
                         "is the other L2 partition and the SM's own partition holds no copy from an earlier chunk "
                         "(two partitions filled from their homes); 0: --lat-l1-miss for both halves",
                 .get = get_number<&GpuConfig::lat_l2_far>, .set = set_count32<&GpuConfig::lat_l2_far>,
                 .sources = {every(A, "0: off, one latency for both halves (not measured on this chip)"),
                             only("h200", A, "0: off; about 460 cycles, the far hits l2probe measures from an SM of the "
                                             "other partition (above the mix's median 418, up to its p90 488: "
                                             "tests/data/h200/l2probe_sm.csv), is an option: with it and --lat-dram 691 "
                                             "the fresh matmul sets part too far (docs/model-studies.md, \"Alternatives "
                                             "tried and not kept\")")},
                 .scheduler_only = true});
    t.push_back({.option = "load-gates", .report_key = "load_gates", .field = "load_gates", .group = kCycles,
                 .type = P::choice, .choices = texts(kLoadGatesChoices),
                 .help = "cycles: where a warp waits inside an iteration of its loop",
                 .get = get_choice<&GpuConfig::load_gates, kLoadGatesChoices>,
                 .set = set_choice<&GpuConfig::load_gates, kLoadGatesChoices>,
                 .sources = {every(M, "sass: cuobjdump -sass of gpubench's kernels (tests/data/h200/sass_loads.txt, "
                                      "sass_loads_variants.txt); warps issue in order, so a load after an add waits "
                                      "for the loads the add consumes")},
                 .scheduler_only = true});
    t.push_back({.option = "issue-cycles", .report_key = "issue_cycles", .field = "issue_cycles", .group = kCycles,
                 .type = P::text, .range = "auto or 1..1024",
                 .help = "cycles: cycles of its scheduler each request takes, the loop's other instructions "
                         "included, N or auto (the loop's: --loop-issue-cost); 1: one request a cycle",
                 .get = get_real_or_auto<&GpuConfig::issue_cycles, kIssueCyclesValues>,
                 .set = set_real_or_auto<&GpuConfig::issue_cycles, kIssueCyclesValues>,
                 // the loop's measured value for "auto"; the rounds issue one request a round
                 .applied = [](const GpuConfig& c, const WorkloadSpec* w) {
                     return c.timing == IssueTiming::cycles && !c.timeline ? short_real(cycle_issue_cost(c, w))
                                                                           : std::string("1");
                 },
                 .sources = {every(A, "1: one request a cycle; auto, the cost of gpubench's compiled loops measured "
                                      "on the H200 (ncu issue and pipe counters of probe launches in no validation "
                                      "set: scripts/device_issue_cost.sh, tests/data/h200/issue_cost/issue_cost.csv), "
                                      "is an option")},
                 .scheduler_only = true});
    t.push_back({.option = "l1-miss-bandwidth", .report_key = "l1_miss_bandwidth", .field = "l1_miss_bandwidth",
                 .group = kCycles, .type = P::real, .range = "0 or more", .min = 0, .max = 8,
                 .help = "cycles: L1 miss sectors an SM sends the L2 per cycle, queued in order (its share of the "
                         "L2's bandwidth); 0: no limit",
                 .get = [](const GpuConfig& c) { return short_real(c.l1_miss_bandwidth); },
                 .set = [](GpuConfig& c, std::string_view text, std::string_view option) {
                     c.l1_miss_bandwidth = real_in(text, option, 0, 1024, "a number from 0 to 1024");
                 },
                 .sources = {every(A, "0: no limit (not measured)")},
                 .scheduler_only = true});
    t.push_back({.option = "lrc-hit-cycles", .report_key = "l2_coalesce_hit_cycles",
                 .field = "l2_coalesce_hit_cycles", .group = kCycles, .type = P::count, .range = "0..1048576",
                 .min = 0, .max = 800,
                 .help = "cycles: --l2-coalesce-hit's window in cycles (it replaces the rounds)",
                 .get = get_number<&GpuConfig::l2_coalesce_hit_cycles>,
                 .set = set_count32<&GpuConfig::l2_coalesce_hit_cycles>,
                 .applied = [](const GpuConfig& c, const WorkloadSpec*) {
                     return std::to_string(c.timing == IssueTiming::cycles ? c.l2_coalesce_hit_cycles : 0);
                 },
                 .sources = {every(A, kCoalescingOff),
                             only("h200", M, "100 cycles after an L2 hit: l1probe (tests/data/h200/l1probe_warm.csv, "
                                             "l1probe_cases_warm.csv)"),
                             only("h100", A, "100 cycles: the H200's, measured there by l1probe (the same GH100 chip)")},
                 .scheduler_only = true});
    t.push_back({.option = "lrc-miss-cycles", .report_key = "l2_coalesce_miss_cycles",
                 .field = "l2_coalesce_miss_cycles", .group = kCycles, .type = P::count, .range = "0..1048576",
                 .min = 0, .max = 1600,
                 .help = "cycles: --l2-coalesce-miss's window in cycles (it replaces the rounds)",
                 .get = get_number<&GpuConfig::l2_coalesce_miss_cycles>,
                 .set = set_count32<&GpuConfig::l2_coalesce_miss_cycles>,
                 .applied = [](const GpuConfig& c, const WorkloadSpec*) {
                     return std::to_string(c.timing == IssueTiming::cycles ? c.l2_coalesce_miss_cycles : 0);
                 },
                 .sources = {every(A, kCoalescingOff),
                             only("h200", M, "400 cycles of a DRAM read: l1probe (tests/data/h200/l1probe_cold.csv, "
                                             "l1probe_cases_cold.csv)"),
                             only("h100", A, "400 cycles: the H200's, measured there by l1probe (the same GH100 chip)")},
                 .scheduler_only = true});
    return t;
}

}  // namespace

std::string_view provenance_name(Provenance provenance) { return choice_name<Provenance>(kProvenanceChoices, provenance); }

std::string GpuParameter::help_text() const {
    std::string text(help);
    if (type == ParameterType::choice) text += ": " + choice_help(choices);
    else if (!range.empty()) text += " (" + std::string(range) + ")";
    return text;
}

const std::vector<GpuParameter>& gpu_parameters() {
    static const std::vector<GpuParameter> table = make_table();
    return table;
}

const GpuParameter* find_gpu_parameter(std::string_view option) {
    for (const GpuParameter& p : gpu_parameters())
        if (p.option == option) return &p;
    return nullptr;
}

ParameterSource parameter_source(const GpuParameter& parameter, std::string_view preset) {
    const PresetSource* fallback = nullptr;
    for (const PresetSource& s : parameter.sources) {
        if (s.preset == preset) return s.source;
        if (s.preset.empty() && !fallback) fallback = &s;
    }
    return fallback ? fallback->source : ParameterSource{};
}

std::string applied_value(const GpuParameter& parameter, const GpuConfig& config, const WorkloadSpec* workload) {
    return parameter.applied ? parameter.applied(config, workload) : parameter.get(config);
}

}  // namespace cachesim
