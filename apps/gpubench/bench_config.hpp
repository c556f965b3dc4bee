#pragma once
// One measured launch: a workload (kernel, sizes, schedule) and a block size.
#include <cstdint>
#include <string>

#include "traces/workload_spec.hpp"

namespace gpubench {

struct BenchConfig {
    cachesim::WorkloadSpec spec;  // elem_bytes is always 4 (float)
    std::uint32_t block = 256;

    std::string label() const {  // e.g. "stencil 4096x4096, 9x9 box, column:32, block 256"
        return spec.describe() + ", block " + std::to_string(block);
    }
};

}  // namespace gpubench
