#pragma once
// The scans of a set's ways: which hold a tag (and which are empty), where a tag is, and OPT's
// furthest next use. Branch-free masks; SSE4.1 where available (x86-64-v2), plain loops
// elsewhere. On random streams these scans are most of the simulator's time; sets of many ways
// are indexed instead (sim/cache.hpp).
#include <cstdint>

#if defined(__SSE4_1__)
#include <smmintrin.h>
#endif

namespace cachesim {

struct TagMasks {
    std::uint64_t equal = 0;  // bit w: tags[w] == value
    std::uint64_t empty = 0;  // bit w: tags[w] == empty
};

// n <= 64 tags.
[[gnu::always_inline]] inline TagMasks scan_tags(const std::uint64_t* tags, std::uint32_t n, std::uint64_t value,
                          std::uint64_t empty_tag) {
    TagMasks m;
    std::uint32_t w = 0;
#if defined(__SSE4_1__)
    const __m128i wanted = _mm_set1_epi64x(static_cast<long long>(value));
    const __m128i empty = _mm_set1_epi64x(static_cast<long long>(empty_tag));
    for (; w + 2 <= n; w += 2) {
        const __m128i t = _mm_loadu_si128(reinterpret_cast<const __m128i*>(tags + w));
        m.equal |= static_cast<std::uint64_t>(_mm_movemask_pd(_mm_castsi128_pd(_mm_cmpeq_epi64(t, wanted)))) << w;
        m.empty |= static_cast<std::uint64_t>(_mm_movemask_pd(_mm_castsi128_pd(_mm_cmpeq_epi64(t, empty)))) << w;
    }
#endif
    for (; w < n; ++w) {
        m.equal |= static_cast<std::uint64_t>(tags[w] == value) << w;
        m.empty |= static_cast<std::uint64_t>(tags[w] == empty_tag) << w;
    }
    return m;
}

// Position of the first tags[p] == value for p < n, or n. Early exit: in a recency-ordered set the
// line is usually near the front.
[[gnu::always_inline]] inline std::uint32_t find_tag(const std::uint64_t* tags, std::uint32_t n,
                                                     std::uint64_t value) {
    std::uint32_t p = 0;
#if defined(__SSE4_1__)
    const __m128i wanted = _mm_set1_epi64x(static_cast<long long>(value));
    auto equal_mask = [&](std::uint32_t at) {
        return _mm_movemask_pd(_mm_castsi128_pd(
            _mm_cmpeq_epi64(_mm_loadu_si128(reinterpret_cast<const __m128i*>(tags + at)), wanted)));
    };
    // Four tags per branch: a miss scans the whole set, so fewer, better-predicted branches.
    for (; p + 4 <= n; p += 4) {
        const int m = equal_mask(p) | (equal_mask(p + 2) << 2);
        if (m) return p + static_cast<std::uint32_t>(__builtin_ctz(static_cast<unsigned>(m)));
    }
    for (; p + 2 <= n; p += 2) {
        const int m = equal_mask(p);
        if (m) return p + static_cast<std::uint32_t>(__builtin_ctz(static_cast<unsigned>(m)));
    }
#endif
    for (; p < n; ++p)
        if (tags[p] == value) return p;
    return n;
}

// Index of the largest 64-bit value, the first on ties (OPT's furthest next use).
inline std::uint32_t index_of_max(const std::uint64_t* values, std::uint32_t n) {
    std::uint32_t best = 0;
    for (std::uint32_t w = 1; w < n; ++w)
        if (values[w] > values[best]) best = w;
    return best;
}

}  // namespace cachesim
