#pragma once
// Unsigned arithmetic that stops at the largest value instead of wrapping: memory estimates of
// absurd configurations (a terabyte cache, 100,000 SMs) then read as too large, never as small.
#include <cstdint>

namespace cachesim {

inline std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) { return a > ~0ull - b ? ~0ull : a + b; }
inline std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) { return b && a > ~0ull / b ? ~0ull : a * b; }

}  // namespace cachesim
