#pragma once
// record_main's backend on the host (traces/recorder_host.hpp): page-aligned, zeroed host memory.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include "traces/recorder_host.hpp"

namespace cachesim::examples {

struct HostBackend {
    const char* name() const { return "host"; }
    void* alloc(std::size_t bytes) {
        void* p = std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
        if (!p)
            throw std::runtime_error("cannot allocate " + std::to_string(bytes) +
                                     " bytes of host memory for an array of the kernel (a smaller size fits)");
        std::memset(p, 0, bytes);
        return p;
    }
    void upload(void* p, const void* data, std::size_t bytes) { std::memcpy(p, data, bytes); }
    void release(void* p) { std::free(p); }
    template <class Body>
    std::uint64_t record(RecordingWriter& writer, const Body& body) {
        return record_on_host(writer, body);
    }
};

}  // namespace cachesim::examples
