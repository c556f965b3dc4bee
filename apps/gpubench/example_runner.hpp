#pragma once
// gpubench --examples: the example kernels of examples/ (transpose, tiled transpose, 3D stencil,
// tiled GEMM in two block orders, CSR SpMV), each checked against a CPU reference, timed and
// profiled like the built-in kernels, one CSV row per launch that names the trace of the same
// launch (record_kernel_host/_cuda example SPEC) for cachesim compare.
#include "apps/gpubench/options.hpp"

namespace gpubench {

// Runs options.examples; returns the exit code (kExitCheckFailed when an output was wrong).
int run_examples(const Options& options);

// The CSV header of --examples rows: the built-in rows' fixed columns, then example and trace,
// shared_bytes and registers (the compiled kernel's), then the metrics (and with spread_columns their :min and :max).
void write_example_header(std::ostream& out, const std::vector<std::string>& metric_names, bool spread_columns);

}  // namespace gpubench
