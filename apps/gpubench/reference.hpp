#pragma once
// CPU references for the kernels, computed (in double) from the simulator's own address
// functions (traces/workload.hpp), so a pass also confirms that kernel and simulator agree on
// which elements each work item reads and writes.
#include <cstdint>
#include <vector>

#include "traces/workload_spec.hpp"

namespace gpubench {

// Inputs in [0, 1) from a fixed-seed generator: never zeros, which would hide unwritten outputs.
std::vector<float> random_floats(std::size_t count, std::uint64_t seed);

// Output element j of work item j. `inputs` are the workload's arrays in declaration order
// (stencil: in; matmul: A, B).
std::vector<double> reference_output(const cachesim::WorkloadSpec& spec,
                                     const std::vector<const std::vector<float>*>& inputs);

struct CheckResult {
    double relative_error = 0;  // ||out - ref|| / ||ref||
    double worst_element_error = 0;
    std::uint64_t unwritten = 0;  // elements still holding the poison (or any NaN)
    std::uint64_t worst_index = 0;
};

CheckResult compare(const std::vector<float>& out, const std::vector<double>& ref);

}  // namespace gpubench
