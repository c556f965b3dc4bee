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

class TraceFileSource final : public AccessSource {
public:
    explicit TraceFileSource(std::string path);
    ~TraceFileSource() override;
    TraceFileSource(const TraceFileSource&) = delete;
    TraceFileSource& operator=(const TraceFileSource&) = delete;

    std::vector<ArrayInfo> arrays() const override { return header_.arrays; }
    bool next(AccessBatch& batch, std::size_t max_accesses) override;
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
};

}  // namespace cachesim::cst
