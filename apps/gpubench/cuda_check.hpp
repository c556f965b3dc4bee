#pragma once
// Turns CUDA runtime failures into gpubench::CudaError with the call that failed.
#include <cuda_runtime_api.h>

#include <string>

#include "apps/gpubench/exit_codes.hpp"

namespace gpubench {

inline void cuda_check(cudaError_t status, const char* what) {
    if (status != cudaSuccess)
        throw CudaError(std::string(what) + " failed: " + cudaGetErrorName(status) + " (" +
                        cudaGetErrorString(status) + ")");
}

// After a kernel launch: launch-configuration errors now, execution errors at the next sync.
inline void cuda_check_launch(const char* kernel) {
    cuda_check(cudaGetLastError(), kernel);
}

}  // namespace gpubench

#define GPUBENCH_CUDA(call) ::gpubench::cuda_check((call), #call)
