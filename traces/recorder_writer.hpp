#pragma once
// Writes what traces/recorder.hpp records as a cst version 2 trace: the launch geometry, the
// registered arrays (placed from 0 at 4 KiB multiples) and every thread's accesses in order.
// Plain C++ with no CUDA in its interface, so .cu files include it under C++17.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "traces/recorder.hpp"

namespace cachesim {

// An array the kernel reads or writes: where it lives in the recording process and its shape.
struct RecordingArray {
    std::string name;
    const void* data = nullptr;  // host or device pointer, as the body sees it
    std::uint32_t elem_bytes = 4;
    std::uint32_t width = 0, height = 1;  // elements
};

class RecordingWriter {
public:
    // Throws InputError (a zero or too large launch, an empty array, the file not writable).
    RecordingWriter(const std::string& path, Dim3 grid, Dim3 block, const std::vector<RecordingArray>& arrays,
                    int zstd_level = 3);
    ~RecordingWriter();  // without finish(): no file is left behind
    RecordingWriter(const RecordingWriter&) = delete;
    RecordingWriter& operator=(const RecordingWriter&) = delete;

    Dim3 grid() const { return grid_; }
    Dim3 block() const { return block_; }
    std::uint64_t threads() const;
    // The arrays as the recorder looks them up (ArrayPlacement per RecordingArray, in order).
    const std::vector<ArrayPlacement>& placements() const { return placements_; }

    // Threads first .. first + n - 1 of a chunk: counted[i] accesses in the counting pass,
    // recorded[i] in the recording pass, thread i's records from records + offsets[i]. Throws
    // InputError when the passes disagree (a recorder overflow: the body is not deterministic) or
    // an access lies outside every registered array.
    void append(std::uint64_t first, std::size_t n, const std::uint32_t* counted, const std::uint32_t* recorded,
                const std::uint64_t* offsets, const RecordedAccess* records);
    // Completes the file (renamed into place); returns the accesses written.
    std::uint64_t finish();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
    Dim3 grid_, block_;
    std::vector<ArrayPlacement> placements_;
};

// Exclusive prefix sums of counts[0..n) into offsets; returns the total.
std::uint64_t record_offsets(const std::uint32_t* counts, std::size_t n, std::uint64_t* offsets);

}  // namespace cachesim
