#pragma once
// Lets the same functions compile for CUDA device code and plain C++.
#if defined(__CUDACC__)
#define CACHESIM_HD __host__ __device__ __forceinline__
#else
#define CACHESIM_HD inline
#endif
