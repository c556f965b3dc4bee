#pragma once
#include <cstdint>

namespace cachesim {

// splitmix64: advances `state` and returns the next well-mixed 64-bit value.
inline std::uint64_t splitmix64(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

// The draws a run makes from its seed, keyed by what they are for: each its own stream, so that
// two kinds of draw with the same key never get the same value.
enum class DrawStream : std::uint64_t { warp_rate = 0, miss_wait = 1 };

// A splitmix64 state for a keyed draw: (seed, stream, a, b, c) mixed with odd constants; advance
// it with splitmix64 for as many values as the draw needs.
inline std::uint64_t keyed_draw_state(std::uint64_t seed, DrawStream stream, std::uint64_t a, std::uint64_t b,
                                      std::uint64_t c) {
    return seed * 0x9e3779b97f4a7c15ull + a * 0xd1b54a32d192ed03ull + (b + 1) * 0x8cb92ba72f3d8dd7ull +
           c * 0xa0761d6478bd642full + static_cast<std::uint64_t>(stream) * 0xe7037ed1a0b428dbull;
}

// xoshiro256** seeded through splitmix64: fast, and identical on every platform for a seed.
class Rng {
public:
    explicit Rng(std::uint64_t seed = 1) {
        for (auto& word : state_) word = splitmix64(seed);
    }
    std::uint64_t next() {
        const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
        const std::uint64_t t = state_[1] << 17;
        state_[2] ^= state_[0];
        state_[3] ^= state_[1];
        state_[1] ^= state_[2];
        state_[0] ^= state_[3];
        state_[2] ^= t;
        state_[3] = rotl(state_[3], 45);
        return result;
    }
    // Uniform in [0, bound) without modulo bias worth caring about (bound < 2^32).
    std::uint32_t below(std::uint32_t bound) {
        return static_cast<std::uint32_t>(((next() >> 32) * bound) >> 32);
    }

private:
    static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    std::uint64_t state_[4];
};

}  // namespace cachesim
