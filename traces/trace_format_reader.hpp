#pragma once
// Streaming reader of cst trace files: one block (at most ~800 KB decoded) in memory at a time.
// Opening checks the preamble, header and end record; each block's checksum and fields are
// checked as it is read. Anything wrong is an InputError naming the byte offset.
#include <cstdint>
#include <string>
#include <vector>

#include "traces/access_source.hpp"
#include "traces/thread_records.hpp"
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
    // "-" is standard input, a regular file read from where its position stands.
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
    // Version 2: the next block's threads undecoded (thread_records.hpp), every record checked;
    // false at the end. Not to be mixed with next() or next_threads() between rewinds.
    bool next_thread_records(ThreadRecords& records);
    // Version 2, next_thread_records only: of the blocks b with b % count == index, decode only
    // those; the others are skipped once their header is checked (so that `count` readers can
    // decode one file side by side). The first thread of each block then is not compared with the
    // thread before it (its `repeats` is false) nor checked to come after it: the caller that puts
    // the blocks back in order does that (RecordedWarps).
    void share_blocks(std::uint32_t index, std::uint32_t count) {
        share_index_ = index;
        share_count_ = count;
    }
    void rewind() override;
    std::uint64_t size_hint() const override { return header_.accesses; }

    const TraceHeader& header() const { return header_; }
    // The trace's bytes (standard input's: from its position to the end of the file).
    std::uint64_t file_bytes() const { return file_bytes_; }
    std::uint64_t compressed_payload_bytes() const { return payload_bytes_seen_; }

private:
    void read_exact(std::uint64_t offset, void* out, std::size_t bytes, const char* what) const;
    [[noreturn]] void fail(std::uint64_t offset, const std::string& why) const;
    void open_path();
    void open_standard_input();
    void open_and_check();
    bool load_block();  // false after the last block
    void decode_step_table(std::uint64_t at, std::uint32_t steps, std::uint32_t accesses);
    void decode(Access* out, std::size_t first, std::size_t count);
    [[noreturn]] void report_bad_record(std::size_t first, std::size_t count);
    // The current block's threads from block_step_ on, and their first accesses counted from it.
    void copy_thread_table(std::vector<std::uint64_t>& threads, std::vector<std::uint32_t>& first) const;
    void scan_threads(ThreadRecords& out);
    void walk_thread(std::size_t first, std::size_t count, ThreadRecords& out);

    std::string path_;
    std::string name_;  // what messages call the input: its path, or "standard input"
    int fd_ = -1;
    std::uint64_t start_ = 0;  // the trace's first byte in the file; offsets below count from it
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
    // next_thread_records: the thread read last, which the next one is compared with. Per array it
    // uses (in the order of first use): the record of that first use, the array, its first and
    // last address and the lowest and highest byte it touched (exact: every record was checked).
    struct PreviousThread {
        bool valid = false;
        std::uint32_t count = 0;
        const char* metas = nullptr;  // its records: in raw_, or in the copies below after its block
        const char* deltas = nullptr;
        std::vector<char> meta_copy, delta_copy;
        std::vector<std::uint32_t> first_use, array;
        std::vector<std::uint64_t> start, end, low, high;
    };
    PreviousThread previous_thread_;
    std::vector<std::uint32_t> use_of_array_;  // walk_thread: per array, its index in previous_thread_
    std::vector<std::uint32_t> use_stamp_;     // walk_thread: per array, the walk that last used it
    std::uint32_t walk_ = 0;
    std::vector<std::uint64_t> shifted_starts_;
    std::uint32_t share_index_ = 0, share_count_ = 1;  // share_blocks
};

}  // namespace cachesim::cst
