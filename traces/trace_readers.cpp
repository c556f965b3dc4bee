#include "traces/trace_readers.hpp"

#include <bit>
#include <charconv>
#include <cstring>
#include <filesystem>

#include "traces/input_error.hpp"

namespace cachesim {

TraceFormat parse_trace_format(const std::string& text) {
    if (text == "din") return TraceFormat::din;
    if (text == "u64") return TraceFormat::u64;
    throw InputError("unknown trace format '" + text + "' (expected din or u64)");
}

namespace {

std::ifstream open_or_throw(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) throw InputError(path + ": no such file");
    if (std::filesystem::is_directory(path, ec)) throw InputError(path + ": is a directory, not a trace file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path + ": cannot open for reading");
    return in;
}

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

}  // namespace

DinTraceSource::DinTraceSource(std::string path, std::uint32_t default_size)
    : path_(std::move(path)), in_(open_or_throw(path_)), default_size_(default_size) {}

std::vector<ArrayInfo> DinTraceSource::arrays() const { return {{"trace", 0, 1, 0, 1}}; }

void DinTraceSource::rewind() {
    in_.clear();
    in_.seekg(0);
    line_number_ = 0;
    records_ = 0;
}

bool DinTraceSource::next(AccessBatch& batch, std::size_t max_accesses) {
    batch.accesses.clear();
    batch.first_step = records_;
    batch.accesses_per_step = 1;
    std::string line;
    while (batch.accesses.size() < max_accesses && std::getline(in_, line)) {
        ++line_number_;
        std::string_view rest(line);
        const std::string_view label = next_field(rest);
        if (label.empty() || label[0] == '#') continue;
        auto fail = [&](const std::string& why) {
            throw InputError(path_ + ":" + std::to_string(line_number_) + ": " + why + ": '" + line + "'");
        };
        if (label.size() != 1 || label[0] < '0' || label[0] > '4') fail("label must be 0-4");
        const std::string_view address_text = next_field(rest);
        std::uint64_t address = 0;
        if (!parse_hex(address_text, address)) fail("address is not a hexadecimal number");
        const std::string_view size_text = next_field(rest);
        std::uint64_t size = default_size_;
        if (!size_text.empty() && (!parse_hex(size_text, size) || size == 0 || size > 4096))
            fail("size is not a hexadecimal number between 1 and 0x1000");
        if (!next_field(rest).empty()) fail("unexpected extra field");
        if (address > ~0ull - size) fail("address + size overflows 64 bits");
        if (label[0] == '3' || label[0] == '4') continue;
        Access a;
        a.address = address;
        a.size = static_cast<std::uint32_t>(size);
        a.is_write = label[0] == '1';
        batch.accesses.push_back(a);
    }
    if (in_.bad()) throw InputError(path_ + ": read error after line " + std::to_string(line_number_));
    records_ += batch.accesses.size();
    return !batch.accesses.empty();
}

U64TraceSource::U64TraceSource(std::string path) : path_(std::move(path)), in_(open_or_throw(path_)) {
    const std::uintmax_t bytes = std::filesystem::file_size(path_);
    if (bytes % 8 != 0)
        throw InputError(path_ + ": length " + std::to_string(bytes) +
                         " bytes is not a multiple of 8 (u64 traces hold 8-byte addresses)");
    count_ = bytes / 8;
}

std::vector<ArrayInfo> U64TraceSource::arrays() const { return {{"trace", 0, 1, 0, 1}}; }

void U64TraceSource::rewind() {
    in_.clear();
    in_.seekg(0);
    position_ = 0;
}

bool U64TraceSource::next(AccessBatch& batch, std::size_t max_accesses) {
    const std::uint64_t count = std::min<std::uint64_t>(max_accesses, count_ - position_);
    batch.first_step = position_;
    batch.accesses_per_step = 1;
    batch.accesses.resize(count);
    if (count == 0) return false;
    buffer_.resize(count * 8);
    in_.read(reinterpret_cast<char*>(buffer_.data()), static_cast<std::streamsize>(count * 8));
    if (static_cast<std::uint64_t>(in_.gcount()) != count * 8)
        throw InputError(path_ + ": file ended early at byte " +
                         std::to_string(position_ * 8 + static_cast<std::uint64_t>(in_.gcount())));
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
        if (v > ~0ull - 8) [[unlikely]]
            throw InputError(path_ + ": address at byte " + std::to_string((position_ + i) * 8) +
                             " leaves no room for an 8-byte load below 2^64");
        out[i].address = v;
        out[i].size = 8;
        out[i].array = 0;
        out[i].is_write = false;
    }
    position_ += count;
    return true;
}

}  // namespace cachesim
