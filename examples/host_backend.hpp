#pragma once
// record_main's backend on the host (traces/recorder_host.hpp): page-aligned, zeroed host memory.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

#include "traces/recorder_host.hpp"

namespace cachesim::examples {

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
    std::uint64_t record(RecordingWriter& writer, const Body& body) {
        return record_on_host(writer, body);
    }
};

}  // namespace cachesim::examples
