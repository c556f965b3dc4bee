#pragma once
// Little-endian field encoding for the cst format, and a bounds-checked cursor whose errors
// name the absolute byte offset in the file.
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "traces/input_error.hpp"

namespace cachesim::cst {

inline void put_u8(std::string& out, std::uint8_t v) { out.push_back(static_cast<char>(v)); }
inline void put_u16(std::string& out, std::uint16_t v) { out.append(reinterpret_cast<const char*>(&v), 2); }
inline void put_u32(std::string& out, std::uint32_t v) { out.append(reinterpret_cast<const char*>(&v), 4); }
inline void put_u64(std::string& out, std::uint64_t v) { out.append(reinterpret_cast<const char*>(&v), 8); }

template <class T>
T load_le(const void* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

// Reads fields from a byte range that starts at `base_offset` in the file.
class ByteCursor {
public:
    ByteCursor(std::string_view bytes, std::uint64_t base_offset, std::string what)
        : bytes_(bytes), base_(base_offset), what_(std::move(what)) {}

    std::uint64_t offset() const { return base_ + pos_; }
    std::size_t remaining() const { return bytes_.size() - pos_; }

    [[noreturn]] void fail(const std::string& why) const { fail_at(offset(), why); }
    [[noreturn]] void fail_at(std::uint64_t at, const std::string& why) const {
        throw InputError("byte " + std::to_string(at) + ": " + what_ + ": " + why);
    }

    std::uint8_t u8(const char* field) { return load_le<std::uint8_t>(take(1, field)); }
    std::uint16_t u16(const char* field) { return load_le<std::uint16_t>(take(2, field)); }
    std::uint32_t u32(const char* field) { return load_le<std::uint32_t>(take(4, field)); }
    std::uint64_t u64(const char* field) { return load_le<std::uint64_t>(take(8, field)); }
    std::string_view bytes(std::size_t n, const char* field) { return {take(n, field), n}; }

private:
    const char* take(std::size_t n, const char* field) {
        if (remaining() < n)
            fail(std::string("header ends inside field '") + field + "' (needs " + std::to_string(n) +
                 " bytes, " + std::to_string(remaining()) + " left)");
        const char* p = bytes_.data() + pos_;
        pos_ += n;
        return p;
    }

    std::string_view bytes_;
    std::uint64_t base_;
    std::size_t pos_ = 0;
    std::string what_;
};

}  // namespace cachesim::cst
