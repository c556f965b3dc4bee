#pragma once
// gpubench's exit codes and the error types that map to them (see docs/gpubench.md).
#include <stdexcept>

namespace gpubench {

enum ExitCode : int {
    kExitOk = 0,
    kExitCheckFailed = 1,   // a kernel's output disagreed with the CPU reference
    kExitBadInput = 2,      // bad command line or input file
    kExitNoGpu = 3,         // no CUDA device or no driver
    kExitCuptiFailed = 4,   // the CUPTI range profiler could not collect the counters
    kExitCudaError = 5,     // any other CUDA runtime failure
};

struct NoGpuError : std::runtime_error {
    using std::runtime_error::runtime_error;
};
struct CudaError : std::runtime_error {
    using std::runtime_error::runtime_error;
};
struct CuptiError : std::runtime_error {
    using std::runtime_error::runtime_error;
};
struct CheckFailed : std::runtime_error {
    using std::runtime_error::runtime_error;
};

}  // namespace gpubench
