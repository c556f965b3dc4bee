#pragma once
// The body shared by the fuzz targets of the line and record readers (din, u64): any input must
// become accesses or an InputError, read from a file (seekable; rewound and read twice, as OPT
// does) and from a pipe (one streaming pass); plain, gzip or zstd (the input's first bytes decide).
#include <cstddef>
#include <cstdint>

#include "tests/fuzz/fuzz_input_file.hpp"
#include "tests/fuzz/fuzz_input_pipe.hpp"
#include "traces/access_source.hpp"
#include "traces/input_error.hpp"

namespace cachesim::fuzz {

inline void read_all(AccessSource& source) {
    AccessBatch batch;
    while (source.next(batch, 64)) {
    }
}

template <class Source>
int fuzz_file_and_pipe(const std::uint8_t* data, std::size_t size) {
    {
        InputFile file(data, size);
        try {
            Source source(file.path());
            read_all(source);
            source.rewind();
            read_all(source);
        } catch (const InputError&) {
        }
    }
    InputPipe pipe(data, size);
    try {
        Source source(pipe.path());
        if (source.rewindable()) __builtin_trap();  // a pipe is never rewindable
        read_all(source);
    } catch (const InputError&) {
    }
    return 0;
}

}  // namespace cachesim::fuzz
