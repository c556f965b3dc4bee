#pragma once
// Block checksum of the cst trace format: a 64-bit multiply-rotate hash over 8-byte words.
// Each step is a bijection of the running state for a fixed word and of the word for a fixed
// state, so any change confined to one 8-byte word (a flipped bit or byte) always changes the
// result; it runs at several GB/s, far ahead of decompression.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace cachesim::cst {

inline constexpr std::uint64_t kChecksumSeed = 0x6373747261636531ull;  // "cstrace1"

inline std::uint64_t checksum_update(std::uint64_t state, const void* data, std::size_t bytes) {
    static_assert(std::endian::native == std::endian::little, "cst checksums assume little-endian");
    constexpr std::uint64_t kPrime = 0x9e3779b97f4a7c15ull;
    const unsigned char* p = static_cast<const unsigned char*>(data);
    auto mix = [&](std::uint64_t word) { state = std::rotl((state ^ word) * kPrime, 29); };
    std::size_t i = 0;
    for (; i + 8 <= bytes; i += 8) {
        std::uint64_t word;
        std::memcpy(&word, p + i, 8);
        mix(word);
    }
    if (i < bytes) {
        std::uint64_t tail = 0;
        std::memcpy(&tail, p + i, bytes - i);
        mix(tail);
    }
    mix(static_cast<std::uint64_t>(bytes));  // a truncated range hashes differently
    return state;
}

inline std::uint64_t checksum(const void* data, std::size_t bytes) {
    return checksum_update(kChecksumSeed, data, bytes);
}

}  // namespace cachesim::cst
