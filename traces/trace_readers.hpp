#pragma once
// Ordinary CPU traces: Dinero IV's "din" text format and raw little-endian 64-bit addresses.
#include <cstdint>
#include <fstream>
#include <string>

#include "traces/access_source.hpp"

namespace cachesim {

enum class TraceFormat { din, u64 };
TraceFormat parse_trace_format(const std::string& text);

// din: one record per line, "<label> <hex address> [<hex size>]"; label 0 = read, 1 = write,
// 2 = instruction fetch (a read), 3 = escape (ignored), 4 = cache flush (ignored). Blank lines and
// lines starting with '#' are skipped. A malformed line is an InputError naming its number.
class DinTraceSource final : public AccessSource {
public:
    explicit DinTraceSource(std::string path, std::uint32_t default_size = 4);
    std::vector<ArrayInfo> arrays() const override;
    bool next(AccessBatch& batch, std::size_t max_accesses) override;
    void rewind() override;

private:
    std::string path_;
    std::ifstream in_;
    std::uint64_t line_number_ = 0;
    std::uint64_t records_ = 0;
    std::uint32_t default_size_;
};

// u64: a stream of little-endian 64-bit byte addresses, each an 8-byte load.
class U64TraceSource final : public AccessSource {
public:
    explicit U64TraceSource(std::string path);
    std::vector<ArrayInfo> arrays() const override;
    bool next(AccessBatch& batch, std::size_t max_accesses) override;
    void rewind() override;
    std::uint64_t size_hint() const override { return count_; }

private:
    std::string path_;
    std::ifstream in_;
    std::uint64_t count_ = 0;
    std::uint64_t position_ = 0;
    std::vector<unsigned char> buffer_;
};

}  // namespace cachesim
