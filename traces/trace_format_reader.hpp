#pragma once
// Streaming reader of cst trace files: one block (at most ~800 KB decoded) in memory at a time.
// Opening checks the preamble, header and end record; each block's checksum and fields are
// checked as it is read. Anything wrong is an InputError naming the byte offset.
#include <cstdint>
#include <string>
#include <vector>

#include "traces/access_source.hpp"
#include "traces/trace_format.hpp"

namespace cachesim::cst {

// Version 2: a block's threads with their identity and accesses (ThreadBatch::first[i] ..
// first[i + 1] are thread threads[i]'s accesses, in program order).
struct ThreadBatch {
    std::vector<std::uint64_t> threads;  // global linear thread indices, increasing
    std::vector<std::uint32_t> first;    // threads.size() + 1 offsets into accesses
    std::vector<Access> accesses;
};

class TraceFileSource final : public AccessSource {
public:
    explicit TraceFileSource(std::string path);
    ~TraceFileSource() override;
    TraceFileSource(const TraceFileSource&) = delete;
    TraceFileSource& operator=(const TraceFileSource&) = delete;

    std::vector<ArrayInfo> arrays() const override { return header_.arrays; }
    // Whole steps; in version 2 a batch holds consecutive threads with the same access count.
    bool next(AccessBatch& batch, std::size_t max_accesses) override;
    // Version 2: the threads left in the current block, or the next block's; false at the end.
    // Not to be mixed with next() between rewinds.
    bool next_threads(ThreadBatch& batch);
    void rewind() override;
    std::uint64_t size_hint() const override { return header_.accesses; }

    const TraceHeader& header() const { return header_; }
    std::uint64_t file_bytes() const { return file_bytes_; }
    std::uint64_t compressed_payload_bytes() const { return payload_bytes_seen_; }

private:
    void read_exact(std::uint64_t offset, void* out, std::size_t bytes, const char* what) const;
    [[noreturn]] void fail(std::uint64_t offset, const std::string& why) const;
    void open_and_check();
    bool load_block();  // false after the last block
    void decode_step_table(std::uint64_t at, std::uint32_t steps, std::uint32_t accesses);
    void decode(Access* out, std::size_t first, std::size_t count);
    [[noreturn]] void report_bad_record(std::size_t first, std::size_t count);

    std::string path_;
    int fd_ = -1;
    void* dctx_ = nullptr;  // ZSTD_DCtx
    TraceHeader header_;
    std::uint64_t file_bytes_ = 0;
    std::uint64_t first_block_offset_ = 0;
    std::uint64_t end_record_offset_ = 0;
    // Reading position.
    std::uint64_t next_block_offset_ = 0;
    std::uint64_t next_step_ = 0;
    std::uint64_t blocks_read_ = 0;
    std::uint64_t payload_bytes_seen_ = 0;
    // The current block, decompressed: deltas then metas.
    std::uint64_t block_offset_ = 0;
    std::vector<char> compressed_, raw_;
    std::size_t block_accesses_ = 0, block_position_ = 0;
    std::uint64_t block_first_step_ = 0;
    std::vector<std::uint64_t> previous_;  // per array: the last address decoded in the block
    // Version 2: the block's step table decoded (thread, first access), where the accesses start
    // in the raw block, and the next thread the file may name.
    bool launch_ = false;
    std::vector<std::uint64_t> step_threads_;
    std::vector<std::uint32_t> step_first_;
    std::size_t block_step_ = 0, table_bytes_ = 0;
    std::uint64_t next_thread_ = 0;
};

}  // namespace cachesim::cst
