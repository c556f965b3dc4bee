#pragma once
// Ordinary CPU traces: Dinero IV's "din" text format and raw little-endian 64-bit addresses.
// Both are read in one streaming pass (traces/input_stream.hpp): from a file, a pipe or standard
// input ("-"), plain or gzip/zstd-compressed.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "traces/access_source.hpp"
#include "traces/input_stream.hpp"

namespace cachesim {

enum class TraceFormat { din, u64 };
TraceFormat parse_trace_format(const std::string& text);

// din: one record per line, "<label> <hex address> [<hex size>]"; label 0 = read, 1 = write,
// 2 = instruction fetch (a read), 3 = escape (ignored), 4 = cache flush (ignored). Blank lines and
// lines starting with '#' are skipped. A malformed line, or one longer than kMaxLineBytes, is an
// InputError naming its number.
class DinTraceSource final : public AccessSource {
public:
    static constexpr std::size_t kMaxLineBytes = std::size_t{64} << 10;

    explicit DinTraceSource(std::string path, std::uint32_t default_size = 4);
    explicit DinTraceSource(std::unique_ptr<InputStream> in, std::uint32_t default_size = 4);
    std::vector<ArrayInfo> arrays() const override;
    bool next(AccessBatch& batch, std::size_t max_accesses) override;
    void rewind() override;
    bool rewindable() const override { return in_->rewindable(); }
    std::vector<std::string> warnings() const override { return warnings_; }

private:
    bool refill();  // more bytes after the unparsed ones; false at the end of the input
    [[noreturn]] void fail(std::string_view line, const std::string& why) const;
    void note_last_line_without_newline(std::uint64_t line_number);

    std::unique_ptr<InputStream> in_;
    std::vector<char> buffer_;
    std::size_t begin_ = 0, end_ = 0;  // unparsed bytes
    bool eof_ = false;
    std::uint64_t line_number_ = 0;
    bool warned_cut_line_ = false;  // warn once, not again on each rewind
    std::vector<std::string> warnings_;
    std::uint64_t records_ = 0;
    std::uint32_t default_size_;
};

// u64: a stream of little-endian 64-bit byte addresses, each an 8-byte load.
class U64TraceSource final : public AccessSource {
public:
    explicit U64TraceSource(std::string path);
    explicit U64TraceSource(std::unique_ptr<InputStream> in);
    std::vector<ArrayInfo> arrays() const override;
    bool next(AccessBatch& batch, std::size_t max_accesses) override;
    void rewind() override;
    bool rewindable() const override { return in_->rewindable(); }
    std::uint64_t size_hint() const override { return count_; }

private:
    std::unique_ptr<InputStream> in_;
    std::uint64_t count_ = 0;  // known up front for a plain regular file, else 0
    std::uint64_t position_ = 0;
    std::vector<unsigned char> buffer_;

    void refuse_text(const unsigned char* first) const;  // InputError where the first address is text
};

}  // namespace cachesim
