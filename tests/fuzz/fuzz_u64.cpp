// libFuzzer target: the raw 64-bit address reader must turn any input into accesses or an
// InputError, read from a file (seekable; rewound and read twice, as OPT does) and from a pipe
// (one streaming pass); plain, gzip or zstd (the input's first bytes decide).
#include "tests/fuzz/fuzz_input_file.hpp"
#include "tests/fuzz/fuzz_input_pipe.hpp"
#include "traces/input_error.hpp"
#include "traces/trace_readers.hpp"

namespace {

void read_all(cachesim::AccessSource& source) {
    cachesim::AccessBatch batch;
    while (source.next(batch, 64)) {
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    {
        cachesim::fuzz::InputFile file(data, size);
        try {
            cachesim::U64TraceSource source(file.path());
            read_all(source);
            source.rewind();
            read_all(source);
        } catch (const cachesim::InputError&) {
        }
    }
    cachesim::fuzz::InputPipe pipe(data, size);
    try {
        cachesim::U64TraceSource source(pipe.path());
        if (source.rewindable()) __builtin_trap();  // a pipe is never rewindable
        read_all(source);
    } catch (const cachesim::InputError&) {
    }
    return 0;
}
