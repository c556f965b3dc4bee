#pragma once
// Records a kernel body (traces/recorder.hpp) on the GPU: the launch's threads in chunks, each
// chunk a counting pass, then (the exact room for every thread's accesses reserved) a recording
// pass, copied back and written by a RecordingWriter. Each launch index of the recording kernels
// runs the body as one thread of the user's launch (its ThreadIndex), so bodies must not depend
// on other threads (no shared memory, __syncthreads or warp intrinsics). Gives the same bytes
// as record_on_host. Only for nvcc-compiled files.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "traces/recorder.hpp"
#include "traces/recorder_writer.hpp"

namespace cachesim {

template <class Body>
__global__ void recorder_kernel(Body body, RecordBuffer buffer, Dim3 grid, Dim3 block, std::uint64_t n) {
    const std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const std::uint64_t g = buffer.first_thread + i;
    Recorder rec(buffer, g);
    body(thread_index(g, grid, block), rec);
}

inline void recorder_check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw std::runtime_error(std::string("CUDA recording: ") + what + ": " + cudaGetErrorString(e));
}

// Device buffers of one chunk, grown as needed.
template <class T>
struct RecorderDeviceBuffer {
    T* p = nullptr;
    std::size_t size = 0;
    ~RecorderDeviceBuffer() { cudaFree(p); }
    T* reserve(std::size_t n) {
        if (n > size) {
            cudaFree(p);
            p = nullptr;
            recorder_check(cudaMalloc(&p, std::max<std::size_t>(n, 1) * sizeof(T)), "cudaMalloc");
            size = n;
        }
        return p;
    }
};

template <class Body>
std::uint64_t record_on_device(RecordingWriter& writer, const Body& body, std::uint64_t threads_per_chunk = 1u << 20) {
    const std::uint64_t threads = writer.threads();
    std::vector<std::uint32_t> counted, recorded;
    std::vector<std::uint64_t> offsets;
    std::vector<RecordedAccess> records;
    RecorderDeviceBuffer<ArrayPlacement> d_arrays;
    RecorderDeviceBuffer<std::uint32_t> d_counted, d_recorded;
    RecorderDeviceBuffer<std::uint64_t> d_offsets;
    RecorderDeviceBuffer<RecordedAccess> d_records;
    const std::vector<ArrayPlacement>& placements = writer.placements();
    d_arrays.reserve(placements.size());
    recorder_check(cudaMemcpy(d_arrays.p, placements.data(), placements.size() * sizeof(ArrayPlacement),
                              cudaMemcpyHostToDevice), "copy the arrays");
    RecordBuffer buffer;
    buffer.arrays = d_arrays.p;
    buffer.array_count = static_cast<std::uint32_t>(placements.size());
    const unsigned block = 256;
    for (std::uint64_t first = 0; first < threads; first += threads_per_chunk) {
        const std::size_t n = static_cast<std::size_t>(std::min(threads_per_chunk, threads - first));
        const unsigned blocks = static_cast<unsigned>((n + block - 1) / block);
        buffer.first_thread = first;
        buffer.records = nullptr;
        buffer.offsets = nullptr;
        buffer.capacity = nullptr;
        buffer.counts = d_counted.reserve(n);
        recorder_kernel<<<blocks, block>>>(body, buffer, writer.grid(), writer.block(), n);
        recorder_check(cudaGetLastError(), "counting pass");
        counted.resize(n);
        recorder_check(cudaMemcpy(counted.data(), d_counted.p, n * sizeof(std::uint32_t), cudaMemcpyDeviceToHost),
                       "counting pass");
        offsets.resize(n);
        const std::uint64_t total = record_offsets(counted.data(), n, offsets.data());
        recorder_check(cudaMemcpy(d_offsets.reserve(n), offsets.data(), n * sizeof(std::uint64_t),
                                  cudaMemcpyHostToDevice), "copy the offsets");
        buffer.records = d_records.reserve(total);
        buffer.offsets = d_offsets.p;
        buffer.capacity = d_counted.p;
        buffer.counts = d_recorded.reserve(n);
        recorder_kernel<<<blocks, block>>>(body, buffer, writer.grid(), writer.block(), n);
        recorder_check(cudaGetLastError(), "recording pass");
        recorded.resize(n);
        records.resize(total);
        recorder_check(cudaMemcpy(recorded.data(), d_recorded.p, n * sizeof(std::uint32_t), cudaMemcpyDeviceToHost),
                       "recording pass");
        recorder_check(cudaMemcpy(records.data(), d_records.p, total * sizeof(RecordedAccess), cudaMemcpyDeviceToHost),
                       "copy the records");
        writer.append(first, n, counted.data(), recorded.data(), offsets.data(), records.data());
    }
    return writer.finish();
}

}  // namespace cachesim
