#pragma once
// Streaming writer of cst trace files: whole steps in, compressed checksummed blocks out, in
// bounded memory. Written through AtomicOutput (traces/atomic_output.hpp): a temporary file beside
// the target renamed into place by finish(); an interrupted or failed run never leaves a file that
// looks complete.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "traces/trace_format.hpp"

namespace cachesim {
class AtomicOutput;
}

namespace cachesim::cst {

class TraceWriter {
public:
    // `header` supplies the arrays, element size, workload and launch; counts are filled in as
    // steps arrive. With a launch the file is version 2 (threads with their identity), 3 with a
    // recorded loop as well, without one version 1. Throws InputError when the temporary file cannot be created.
    TraceWriter(std::string path, TraceHeader header, int zstd_level = 3);
    ~TraceWriter();  // without finish(): the temporary file is removed
    TraceWriter(const TraceWriter&) = delete;
    TraceWriter& operator=(const TraceWriter&) = delete;

    // Appends whole steps (batch.accesses_per_step accesses each, 0 meaning 1), which must
    // continue where the previous batch ended. With a launch, step i of the batch is thread
    // batch.first_step + i (a launch whose threads all make the same accesses, in order).
    void append(const AccessBatch& batch);
    // Version 2: the accesses of one thread (its global linear index: block * threads per block +
    // thread in block), in program order. Threads must come in increasing order; a thread with
    // no accesses is left out of the file.
    void append_thread(std::uint64_t thread, const Access* accesses, std::uint32_t count);
    // Writes the last block, the end record and the final header, then renames into place.
    const TraceHeader& finish();

    const TraceHeader& header() const { return header_; }

private:
    void append_step(const Access* step, std::uint32_t count);
    bool launch() const { return header_.version >= kVersionLaunch; }
    void flush_block();
    void write_bytes(const void* data, std::size_t bytes);
    void write_header(bool rewrite);
    [[noreturn]] void fail(const std::string& why);

    std::string path_;
    TraceHeader header_;
    int level_;
    std::unique_ptr<AtomicOutput> output_;
    void* cctx_ = nullptr;  // ZSTD_CCtx
    bool per_step_known_ = false;
    // The block being built: address deltas and metas, whole steps only.
    std::vector<std::uint64_t> deltas_;
    std::vector<std::uint32_t> metas_;
    std::vector<std::uint64_t> previous_address_;  // per array: deltas are taken within an array
    std::uint64_t block_first_step_ = 0;
    std::uint32_t block_steps_ = 0;
    // Version 2: the block's step table (thread deltas, access counts) and the last thread written.
    std::vector<std::uint64_t> thread_deltas_;
    std::vector<std::uint32_t> step_counts_;
    std::uint64_t block_last_thread_ = 0, next_thread_ = 0;
    std::vector<char> raw_, compressed_;
};

// Writes every access of `source` (from the start) to `path`; `header` supplies arrays, element
// size and workload as for TraceWriter. Returns the header as written.
TraceHeader write_trace(AccessSource& source, const std::string& path, TraceHeader header,
                        int zstd_level = 3);

}  // namespace cachesim::cst
