// libFuzzer target: the raw 64-bit address reader must turn any input into accesses or an
// InputError, from a file and from a pipe (tests/fuzz/fuzz_file_and_pipe.hpp).
#include "tests/fuzz/fuzz_file_and_pipe.hpp"
#include "traces/trace_readers.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return cachesim::fuzz::fuzz_file_and_pipe<cachesim::U64TraceSource>(data, size);
}
