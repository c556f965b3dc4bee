#pragma once
// Which blocks of a launch read their data from DRAM (GpuConfig::warp_age_dram_blocks): a block
// whose reads are mostly of lines first read moments before, by itself or by a block still
// resident beside it, waits for DRAM with the blocks that share those lines; a block whose lines
// were read long before finds them in the L2. The chip's warp ends show the difference: where
// every strip of a column order reads B columns no block read before, its blocks end in GPU-wide
// ties wave after wave; the naive order's blocks tie in its first wave only
// (docs/model-studies.md, "Blocks that read what others have just read").
#include <cstdint>
#include <vector>

#include "traces/workload_spec.hpp"

namespace cachesim {

// Per block of `blocks` (in launch order, `block_threads` threads each, warps of `warp_size`
// lanes): 1 when more than half of its sampled load sectors lie in lines (`line_bytes`) whose
// first reader, in launch order, is at most `recent` blocks before it (itself included). The
// samples are every lane's address at 8 pairs of consecutive loads spread over a work item's
// loads (a matmul's A and B reads of one k; never the item's closing write), the sectors
// (`sector_bytes`, 0: whole lines) of each warp's request counted once. The launch's own order
// decides, not its timing.
std::vector<std::uint8_t> blocks_reading_dram(const WorkloadSpec& spec, std::uint32_t block_threads,
                                              std::uint32_t warp_size, std::uint64_t blocks, std::uint64_t recent,
                                              std::uint32_t line_bytes, std::uint32_t sector_bytes);

}  // namespace cachesim
