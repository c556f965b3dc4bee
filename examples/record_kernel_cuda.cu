// Records the example kernels on the GPU (traces/recorder_cuda.cuh): the same bodies and the same
// trace bytes as record_kernel_host, at the GPU's speed.
#include <new>

#include "examples/record_main.hpp"
#include "traces/recorder_cuda.cuh"

namespace {

struct CudaBackend {
    const char* name() const { return "cuda"; }
    void* alloc(std::size_t bytes) {
        void* p = nullptr;
        cachesim::recorder_check(cudaMalloc(&p, bytes), "cudaMalloc");
        cachesim::recorder_check(cudaMemset(p, 0, bytes), "cudaMemset");
        return p;
    }
    void upload(void* p, const void* data, std::size_t bytes) {
        cachesim::recorder_check(cudaMemcpy(p, data, bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
    }
    void release(void* p) { cudaFree(p); }
    template <class Body>
    std::uint64_t record(cachesim::RecordingWriter& writer, const Body& body) {
        return cachesim::record_on_device(writer, body);
    }
};

}  // namespace

int main(int argc, char** argv) {
    CudaBackend backend;
    return cachesim::examples::record_main(argc, argv, backend);
}
