#pragma once
// How much memory a run will need, worked out before it starts, so that a configuration or input
// that would need more than --max-memory is refused up front (exit 2) rather than thrashing or
// being killed. The estimate is an upper bound of the process's resident memory within a factor
// of 2: caches and OPT tables are sized by the configuration; the thread model's analysis follows
// the distinct lines, which a workload knows up front and a trace does not, so a trace's analysis
// gets what the limit leaves and the run stops (exit 2) if it outgrows that share. The GPU model's
// parts come from its own accounting (sim/gpu/gpu_footprint.hpp); its buffered L2 traffic, which
// follows the L1's misses, is counted at its bound, or held to the share left where that is less.
#include <cstdint>
#include <string>

#include "apps/common/options.hpp"

namespace cachesim::cli {

struct MemoryEstimate {
    std::uint64_t fixed = 0;     // the program, its input block and batches
    std::uint64_t caches = 0;    // tags and replacement state of every simulated cache
    std::uint64_t gpu_run = 0;   // GPU model: warps, the lock step's buffers, the dispatch plan
    std::uint64_t work_item = 0; // a work item's accesses, held whole where they exceed a batch
    std::uint64_t gpu_traffic = 0;  // GPU model: the buffered L2 traffic, its bound or the share left
    bool gpu_traffic_is_share = false;  // the bound exceeds what the limit leaves: `gpu_traffic` is that share
    std::uint64_t opt = 0;       // OPT's recorded lookups and next-use table
    bool opt_is_share = false;   // a trace: its lookups unknown; `opt` is the share the limit leaves
    std::uint64_t analysis = 0;  // reuse tracking: the bound, or the share the limit leaves
    bool analysis_is_share = false;  // a trace: distinct lines unknown; `analysis` is the share
    std::uint64_t diagram = 0;   // diagram rows and cells
    std::uint64_t max_memory = 0;
    // HierarchyConfig::opt_max_lookups for the run: what the OPT share allows when the trace's
    // length is not known up front.
    std::uint64_t opt_lookup_limit = 0;
    std::uint64_t total() const { return fixed + caches + gpu_run + work_item + gpu_traffic + opt + analysis + diagram; }
    // "about 1.5 GiB (caches 1 GiB, analysis up to 500 MiB, ...)".
    std::string describe() const;
    // RunControl::analysis_memory_limit for the run (0: no analysis).
    std::uint64_t analysis_limit() const;
    // RunControl::gpu_traffic_memory_limit for the run (0: its bound fits, no limit needed).
    std::uint64_t gpu_traffic_limit() const { return gpu_traffic_is_share ? gpu_traffic : 0; }
};

// --max-memory SIZE (default: half the machine's physical memory).
po::options_description memory_options();
std::uint64_t max_memory_option(const po::variables_map& vm);

// The estimate of a simulate/diagram run; `diagram_cells` > 0 adds a diagram's rows and cells,
// and a byte per cell for each of its `diagram_tag_grids` (the SMs, the hit sources: tag_grid.hpp).
// Throws InputError naming the estimate, its largest part and the options that set it when it
// exceeds max_memory.
MemoryEstimate estimate_memory(const SimulationOptions& sim, std::uint64_t max_memory,
                               std::uint64_t diagram_cells = 0, std::uint64_t diagram_tag_grids = 0);

// "512 KiB", "1.5 GiB".
std::string human_bytes(std::uint64_t bytes);

}  // namespace cachesim::cli
