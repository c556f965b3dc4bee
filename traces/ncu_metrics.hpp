#pragma once
// The Nsight Compute metric names the project measures (gpubench), reads (cachesim compare) and
// simulates (the GPU model's "ncu" counters): one spelling for all of them.
#include <string_view>

namespace cachesim::ncu {

inline constexpr std::string_view kL1Requests = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
inline constexpr std::string_view kL1Sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
inline constexpr std::string_view kL1SectorHits = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum";
inline constexpr std::string_view kL1HitRate = "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct";
inline constexpr std::string_view kL2Sectors = "lts__t_sectors_srcunit_tex_op_read.sum";
inline constexpr std::string_view kL2SectorHits = "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum";
// Not the lookups that missed: the sectors those misses brought into the partition (whole 64 B
// fill granules on the H200), so hits + misses exceed the lookups by the unrequested sectors.
inline constexpr std::string_view kL2SectorMisses = "lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum";
// Reads that reach the line's other L2 partition over the link between the halves.
inline constexpr std::string_view kL2FabricSectors = "lts__t_sectors_srcunit_ltcfabric_op_read.sum";
inline constexpr std::string_view kL2FabricSectorHits = "lts__t_sectors_srcunit_ltcfabric_op_read_lookup_hit.sum";
// L1 misses answered by another SM's identical request (the L2 request coalescer): no L2 lookup.
inline constexpr std::string_view kL2CoalescedSectors = "lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum";
// All L2 read lookups (from the L1s and over the link); measured in one pass (the two counters above cannot be collected together on Hopper).
inline constexpr std::string_view kL2ReadHitRate = "lts__t_sector_op_read_hit_rate.pct";
inline constexpr std::string_view kDramBytesRead = "dram__bytes_read.sum";
// What limits the compiled loop (loop_counters.hpp): warp instructions issued, and each pipe's
// active cycles, sm__pipe_<name>_cycles_active.sum.
inline constexpr std::string_view kInstExecuted = "smsp__inst_executed.sum";
inline constexpr std::string_view kPipeCyclesPrefix = "sm__pipe_";
inline constexpr std::string_view kPipeCyclesSuffix = "_cycles_active.sum";
// The pipes gpubench records with --metrics loop: those Nsight Compute reported for the H200's
// issue-cost probes (tests/data/h200/issue_cost/ncu_*.csv).
inline constexpr std::string_view kLoopPipes[] = {"alu", "fma", "fmaheavy", "fmalite", "fp64", "tensor"};
// gpubench's run-to-run columns: `<metric>:min` and `<metric>:max` over the profiled launches.
inline constexpr std::string_view kMinSuffix = ":min";
inline constexpr std::string_view kMaxSuffix = ":max";

}  // namespace cachesim::ncu
