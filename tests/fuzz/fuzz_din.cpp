// libFuzzer target: the Dinero IV din reader must turn any input into accesses or an InputError.
#include "tests/fuzz/fuzz_input_file.hpp"
#include "traces/input_error.hpp"
#include "traces/trace_readers.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    cachesim::fuzz::InputFile file(data, size);
    try {
        cachesim::DinTraceSource source(file.path());
        cachesim::AccessBatch batch;
        while (source.next(batch, 64)) {
        }
    } catch (const cachesim::InputError&) {
    }
    return 0;
}
