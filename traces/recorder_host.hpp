#pragma once
// Records a kernel body (traces/recorder.hpp) on the host, no GPU needed: every thread of the
// launch in order, a counting pass then a recording pass per chunk of threads, into a
// RecordingWriter. Gives the same bytes as the GPU recording (traces/recorder_cuda.cuh).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "traces/recorder.hpp"
#include "traces/recorder_writer.hpp"

namespace cachesim {

template <class Body>
std::uint64_t record_on_host(RecordingWriter& writer, const Body& body, std::uint64_t threads_per_chunk = 1u << 16) {
    const std::uint64_t threads = writer.threads();
    std::vector<std::uint32_t> counted, recorded;
    std::vector<std::uint64_t> offsets;
    std::vector<RecordedAccess> records;
    RecordBuffer buffer;
    buffer.arrays = writer.placements().data();
    buffer.array_count = static_cast<std::uint32_t>(writer.placements().size());
    for (std::uint64_t first = 0; first < threads; first += threads_per_chunk) {
        const std::size_t n = static_cast<std::size_t>(std::min(threads_per_chunk, threads - first));
        counted.assign(n, 0);
        recorded.assign(n, 0);
        offsets.assign(n, 0);
        buffer.first_thread = first;
        buffer.records = nullptr;
        buffer.capacity = nullptr;
        buffer.counts = counted.data();
        for (std::uint64_t g = first; g < first + n; ++g) {
            Recorder rec(buffer, g);
            body(thread_index(g, writer.grid(), writer.block()), rec);
        }
        records.resize(record_offsets(counted.data(), n, offsets.data()));
        buffer.records = records.data();
        buffer.offsets = offsets.data();
        buffer.capacity = counted.data();
        buffer.counts = recorded.data();
        for (std::uint64_t g = first; g < first + n; ++g) {
            Recorder rec(buffer, g);
            body(thread_index(g, writer.grid(), writer.block()), rec);
        }
        writer.append(first, n, counted.data(), recorded.data(), offsets.data(), records.data());
    }
    return writer.finish();
}

}  // namespace cachesim
