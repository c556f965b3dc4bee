// libFuzzer target: the cst trace reader must turn any input into accesses or an InputError, and
// a version 2 file read undecoded (next_thread_records, each thread decoded alone) must give
// exactly what the decoding reader gives, or fail with the same message.
#include <cstdlib>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_input_file.hpp"
#include "traces/input_error.hpp"
#include "traces/trace_format_reader.hpp"

namespace {

struct Read {
    std::vector<std::uint64_t> threads;
    std::vector<cachesim::Access> accesses;
    std::string error;
};

bool same(const std::vector<cachesim::Access>& a, const std::vector<cachesim::Access>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].address != b[i].address || a[i].size != b[i].size || a[i].array != b[i].array ||
            a[i].is_write != b[i].is_write)
            return false;
    return true;
}

Read decoded(const std::string& path) {
    Read out;
    try {
        cachesim::cst::TraceFileSource source(path);
        cachesim::cst::ThreadBatch batch;
        while (source.next_threads(batch)) {
            out.threads.insert(out.threads.end(), batch.threads.begin(), batch.threads.end());
            out.accesses.insert(out.accesses.end(), batch.accesses.begin(), batch.accesses.end());
        }
    } catch (const cachesim::InputError& e) {
        out.error = e.what();
    }
    return out;
}

Read undecoded(const std::string& path) {
    Read out;
    try {
        cachesim::cst::TraceFileSource source(path);
        cachesim::cst::ThreadRecords records;
        cachesim::cst::ThreadDecoder decoder;
        while (source.next_thread_records(records))
            for (std::size_t i = 0; i < records.size(); ++i) {
                out.threads.push_back(records.threads[i]);
                const std::size_t at = out.accesses.size();
                out.accesses.resize(at + records.count(i));
                decoder.decode(records, i, out.accesses.data() + at);
            }
    } catch (const cachesim::InputError& e) {
        out.error = e.what();
    }
    return out;
}

}  // namespace

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
        if (!source.header().launch) return 0;
    } catch (const cachesim::InputError&) {
        return 0;
    }
    // Version 2: the threads as the GPU model reads them, both ways.
    const Read a = decoded(file.path()), b = undecoded(file.path());
    if (a.error != b.error) std::abort();
    if (a.error.empty() && (a.threads != b.threads || !same(a.accesses, b.accesses))) std::abort();
    return 0;
}
