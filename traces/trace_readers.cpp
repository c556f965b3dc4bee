#include "traces/trace_readers.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <cstring>

#include "traces/choice_hint.hpp"
#include "traces/input_error.hpp"
#include "traces/text_bom.hpp"

namespace cachesim {

TraceFormat parse_trace_format(const std::string& text) {
    if (text == "din") return TraceFormat::din;
    if (text == "u64") return TraceFormat::u64;
    throw InputError("unknown trace format '" + text + "' (expected din or u64)" + case_hint(text, {"din", "u64"}));
}

namespace {

std::string_view next_field(std::string_view& rest) {
    std::size_t i = 0;
    while (i < rest.size() && (rest[i] == ' ' || rest[i] == '\t' || rest[i] == '\r')) ++i;
    std::size_t j = i;
    while (j < rest.size() && rest[j] != ' ' && rest[j] != '\t' && rest[j] != '\r') ++j;
    std::string_view field = rest.substr(i, j - i);
    rest.remove_prefix(j);
    return field;
}

bool parse_hex(std::string_view text, std::uint64_t& value) {
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) text.remove_prefix(2);
    if (text.empty()) return false;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value, 16);
    return ec == std::errc() && ptr == text.data() + text.size();
}

// A byte no text trace holds (a tab and the CR of a CRLF line end are text).
bool is_binary_byte(char c) {
    const auto b = static_cast<unsigned char>(c);
    return (b < 0x20 && c != '\t' && c != '\r') || b >= 0x7f;
}

// A line as an error message quotes it: at most 80 characters, without a CRLF line's CR, bytes
// that are not printable ASCII as '?' (a terminal would garble them).
std::string quoted(std::string_view line) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::string q(line.substr(0, 80));
    for (char& c : q)
        if (is_binary_byte(c) || c == '\r') c = '?';
    if (line.size() > 80) q += "...";
    return "'" + q + "'";
}

// A '-KEY = VALUE' line is how an Accel-Sim kernel trace begins; one named other than *.traceg
// (or compressed without that name) reaches the din reader by auto.
bool looks_like_accelsim_header(std::string_view line) {
    return line.starts_with('-') && line.size() > 1 && std::isalpha(static_cast<unsigned char>(line[1])) &&
           line.find('=') != std::string_view::npos;
}

}  // namespace

DinTraceSource::DinTraceSource(std::string path, std::uint32_t default_size)
    : DinTraceSource(std::make_unique<InputStream>(std::move(path)), default_size) {}

DinTraceSource::DinTraceSource(std::unique_ptr<InputStream> in, std::uint32_t default_size)
    : in_(std::move(in)), default_size_(default_size) {
    buffer_.resize(InputStream::kBlockBytes);
}

std::vector<ArrayInfo> DinTraceSource::arrays() const { return {{"trace", 0, 1, 0, 1}}; }

void DinTraceSource::rewind() {
    in_->rewind();
    begin_ = end_ = 0;
    eof_ = false;
    line_number_ = 0;
    records_ = 0;
}

bool DinTraceSource::refill() {
    if (eof_) return false;
    if (begin_ > 0) {
        std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
        end_ -= begin_;
        begin_ = 0;
    }
    const std::size_t room = buffer_.size() - end_;
    const std::size_t got = in_->read(buffer_.data() + end_, room);
    if (got < room) eof_ = true;  // InputStream::read is short only at the end
    end_ += got;
    return got > 0;
}

void DinTraceSource::fail(std::string_view line, const std::string& why) const {
    const bool binary = std::any_of(line.begin(), line.end(), is_binary_byte);
    const char* hint = binary ? " (binary data, not din text: a u64 trace needs --trace-format u64)"
                       : looks_like_accelsim_header(line)
                           ? " (an Accel-Sim kernel trace's header line: name the format with --trace-format traceg)"
                           : "";
    throw InputError(in_->name() + ":" + std::to_string(line_number_) + ": " + why + ": " + quoted(line) + hint);
}

// Legal text, but also what a file cut short looks like, and then its last address is wrong.
// Reached only at the end of the input, so the read loop pays nothing for it.
void DinTraceSource::note_last_line_without_newline(std::uint64_t line_number) {
    if (warned_cut_line_) return;
    warned_cut_line_ = true;
    warnings_.push_back(in_->name() + ": the last line has no newline: the file may be cut short (line " +
                        std::to_string(line_number) + ")");
}

bool DinTraceSource::next(AccessBatch& batch, std::size_t max_accesses) {
    batch.accesses.clear();
    batch.first_step = records_;
    batch.accesses_per_step = 1;
    while (batch.accesses.size() < max_accesses) {
        const char* start = buffer_.data() + begin_;
        const void* newline = std::memchr(start, '\n', end_ - begin_);
        std::string_view line;
        if (newline) {
            line = std::string_view(start, static_cast<const char*>(newline) - start);
            begin_ += line.size() + 1;
        } else {
            if (end_ - begin_ > kMaxLineBytes)
                throw InputError(in_->name() + ":" + std::to_string(line_number_ + 1) + ": line is longer than " +
                                 std::to_string(kMaxLineBytes) + " bytes (is this a din text trace?)");
            if (refill()) continue;
            if (begin_ == end_) break;  // the end
            line = std::string_view(start, end_ - begin_);  // a last line with no newline
            begin_ = end_;
            note_last_line_without_newline(line_number_ + 1);
        }
        if (line_number_++ == 0) line = without_byte_order_mark(line);
        if (line.size() > kMaxLineBytes)
            throw InputError(in_->name() + ":" + std::to_string(line_number_) + ": line is longer than " +
                             std::to_string(kMaxLineBytes) + " bytes (is this a din text trace?)");
        std::string_view rest = line;
        const std::string_view label = next_field(rest);
        if (label.empty() || label[0] == '#') continue;
        if (label.size() != 1 || label[0] < '0' || label[0] > '4') fail(line, "label must be 0-4");
        const std::string_view address_text = next_field(rest);
        std::uint64_t address = 0;
        if (!parse_hex(address_text, address)) fail(line, "address is not a hexadecimal number");
        const std::string_view size_text = next_field(rest);
        std::uint64_t size = default_size_;
        if (!size_text.empty() && (!parse_hex(size_text, size) || size == 0 || size > 4096))
            fail(line, "size is not a hexadecimal number between 1 and 0x1000");
        if (!next_field(rest).empty()) fail(line, "unexpected extra field");
        // The last byte, address + size - 1, must be at most 2^64 - 1.
        if (size - 1 > ~0ull - address) fail(line, "address + size overflows the 64-bit address space (the last byte is past 2^64 - 1)");
        if (label[0] == '3' || label[0] == '4') continue;
        Access a;
        a.address = address;
        a.size = static_cast<std::uint32_t>(size);
        a.is_write = label[0] == '1';
        batch.accesses.push_back(a);
    }
    records_ += batch.accesses.size();
    return !batch.accesses.empty();
}

U64TraceSource::U64TraceSource(std::string path) : U64TraceSource(std::make_unique<InputStream>(std::move(path))) {}

U64TraceSource::U64TraceSource(std::unique_ptr<InputStream> in) : in_(std::move(in)) {
    if (const auto bytes = in_->plain_size()) {
        if (*bytes % 8 != 0)
            throw InputError(in_->name() + ": length " + std::to_string(*bytes) +
                             " bytes is not a multiple of 8 (u64 traces hold 8-byte addresses)");
        count_ = *bytes / 8;
    }
}

std::vector<ArrayInfo> U64TraceSource::arrays() const { return {{"trace", 0, 1, 0, 1}}; }

void U64TraceSource::rewind() {
    in_->rewind();
    position_ = 0;
}

// Eight bytes of text (tabs, line ends, printable ASCII) as an address are at least 0x0909...09,
// above 2^59 and no process's address: the file is text, most likely a din trace forced as u64.
void U64TraceSource::refuse_text(const unsigned char* first) const {
    const bool text = std::all_of(first, first + 8, [](unsigned char b) {
        return (b >= 0x09 && b <= 0x0d) || (b >= 0x20 && b < 0x7f);
    });
    if (text)
        throw InputError(in_->name() + ": text, not 8-byte addresses (the first 8 bytes are characters); a din "
                                       "trace is read with --trace-format din or auto");
}

bool U64TraceSource::next(AccessBatch& batch, std::size_t max_accesses) {
    std::uint64_t count = max_accesses;
    if (count_) count = std::min<std::uint64_t>(count, count_ - position_);
    batch.first_step = position_;
    batch.accesses_per_step = 1;
    if (count == 0) {
        batch.accesses.clear();
        return false;
    }
    buffer_.resize(count * 8);
    const std::size_t got = in_->read(buffer_.data(), count * 8);
    const std::uint64_t at = position_ * 8 + got;
    if (count_ && got != count * 8)
        throw InputError(in_->name() + ": file ended early at byte " + std::to_string(at));
    if (got % 8 != 0)
        throw InputError(in_->name() + ": ends with a partial address at byte " + std::to_string(at - got % 8) +
                         " (" + std::to_string(at) + " bytes is not a multiple of 8; u64 traces hold 8-byte addresses)");
    count = got / 8;
    if (position_ == 0 && count > 0) refuse_text(buffer_.data());
    batch.accesses.resize(count);
    Access* out = batch.accesses.data();
    const unsigned char* in = buffer_.data();
    for (std::uint64_t i = 0; i < count; ++i, in += 8) {
        std::uint64_t v;
        if constexpr (std::endian::native == std::endian::little) {
            std::memcpy(&v, in, 8);
        } else {
            v = 0;
            for (int b = 7; b >= 0; --b) v = (v << 8) | in[b];
        }
        if (v > ~0ull - 7) [[unlikely]]
            throw InputError(in_->name() + ": address at byte " + std::to_string((position_ + i) * 8) +
                             " leaves no room for an 8-byte load below 2^64");
        out[i].address = v;
        out[i].size = 8;
        out[i].array = 0;
        out[i].is_write = false;
    }
    position_ += count;
    return count > 0;
}

}  // namespace cachesim
