// Records the example kernels on the host (no GPU): the bodies of examples/kernels.hpp run for
// every thread of the launch (traces/recorder_host.hpp).
#include <cstdlib>
#include <cstring>

#include "examples/record_main.hpp"
#include "traces/recorder_host.hpp"

namespace {

struct HostBackend {
    const char* name() const { return "host"; }
    void* alloc(std::size_t bytes) {
        void* p = std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
        if (!p) throw std::bad_alloc();
        std::memset(p, 0, bytes);
        return p;
    }
    void upload(void* p, const void* data, std::size_t bytes) { std::memcpy(p, data, bytes); }
    void release(void* p) { std::free(p); }
    template <class Body>
    std::uint64_t record(cachesim::RecordingWriter& writer, const Body& body) {
        return cachesim::record_on_host(writer, body);
    }
};

}  // namespace

int main(int argc, char** argv) {
    HostBackend backend;
    return cachesim::examples::record_main(argc, argv, backend);
}
