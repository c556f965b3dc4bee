// libFuzzer target: the cst trace reader must turn any input into accesses or an InputError.
#include "tests/fuzz/fuzz_input_file.hpp"
#include "traces/input_error.hpp"
#include "traces/trace_format_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    cachesim::fuzz::InputFile file(data, size);
    try {
        cachesim::cst::TraceFileSource source(file.path());
        cachesim::AccessBatch batch;
        for (int pass = 0; pass < 2; ++pass) {  // rewind and read again, as OPT does
            source.rewind();
            while (source.next(batch, 1000)) {
            }
        }
        if (source.header().launch) {  // version 2: the threads as the GPU model reads them
            source.rewind();
            cachesim::cst::ThreadBatch threads;
            while (source.next_threads(threads)) {
            }
        }
    } catch (const cachesim::InputError&) {
    }
    return 0;
}
