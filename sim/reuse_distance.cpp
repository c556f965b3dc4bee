#include "sim/reuse_distance.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <stdexcept>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace cachesim {

LineTimes::LineTimes() { rehash(64); }

std::size_t LineTimes::insert(std::uint64_t key) {
    if ((size_ + 1) * 2 > keys_.size()) {
        rehash(keys_.size() * 2);
        last_key_ = kNoKey;
    }
    std::size_t i = home(key);
    while (keys_[i] != kNoKey) i = (i + 1) & mask_;
    keys_[i] = key;
    ++size_;
    return i;
}

void LineTimes::rehash(std::size_t capacity) {
    std::vector<std::uint64_t> old_keys = std::move(keys_);
    std::vector<Chunk> old_chunks = std::move(chunks_);
    keys_.assign(capacity, kNoKey);
    chunks_.assign(capacity, Chunk{});
    mask_ = capacity - 1;
    shift_ = 64 - static_cast<unsigned>(std::countr_zero(capacity));
    for (std::size_t j = 0; j < old_keys.size(); ++j) {
        if (old_keys[j] == kNoKey) continue;
        std::size_t i = home(old_keys[j]);
        while (keys_[i] != kNoKey) i = (i + 1) & mask_;
        keys_[i] = old_keys[j];
        chunks_[i] = old_chunks[j];
    }
}

namespace {

constexpr std::uint32_t kMinCapacity = 1u << 15;  // times

// n rounded up to whole parents.
std::size_t whole(std::size_t n, std::size_t parent) {
    return (n + parent - 1) / parent * parent;
}

// p[j] -= 1 for the lanes j in (pos, 8) of 8 16-bit prefixes.
inline void decrement_after_u16x8(std::uint16_t* p, std::uint32_t pos) {
#if defined(__SSE2__)
    const __m128i later = _mm_cmpgt_epi16(_mm_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7), _mm_set1_epi16(static_cast<short>(pos)));
    auto* v = reinterpret_cast<__m128i*>(p);
    _mm_storeu_si128(v, _mm_add_epi16(_mm_loadu_si128(v), later));  // `later` is -1 in the later lanes
#else
    for (std::uint32_t j = pos + 1; j < 8; ++j) --p[j];
#endif
}

// The same for 16 lanes.
inline void decrement_after_u16x16(std::uint16_t* p, std::uint32_t pos) {
#if defined(__SSE2__)
    const __m128i at = _mm_set1_epi16(static_cast<short>(pos));
    auto* v = reinterpret_cast<__m128i*>(p);
    _mm_storeu_si128(v, _mm_add_epi16(_mm_loadu_si128(v), _mm_cmpgt_epi16(_mm_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7), at)));
    _mm_storeu_si128(v + 1, _mm_add_epi16(_mm_loadu_si128(v + 1),
                                          _mm_cmpgt_epi16(_mm_setr_epi16(8, 9, 10, 11, 12, 13, 14, 15), at)));
#else
    for (std::uint32_t j = pos + 1; j < 16; ++j) --p[j];
#endif
}

// The same for 8 32-bit lanes.
inline void decrement_after_u32x8(std::uint32_t* p, std::uint32_t pos) {
#if defined(__SSE2__)
    const __m128i at = _mm_set1_epi32(static_cast<int>(pos));
    auto* v = reinterpret_cast<__m128i*>(p);
    _mm_storeu_si128(v, _mm_add_epi32(_mm_loadu_si128(v), _mm_cmpgt_epi32(_mm_setr_epi32(0, 1, 2, 3), at)));
    _mm_storeu_si128(v + 1, _mm_add_epi32(_mm_loadu_si128(v + 1), _mm_cmpgt_epi32(_mm_setr_epi32(4, 5, 6, 7), at)));
#else
    for (std::uint32_t j = pos + 1; j < 8; ++j) --p[j];
#endif
}

}  // namespace

ReuseDistanceTracker::ReuseDistanceTracker(std::uint64_t threshold) : threshold_(threshold) { resize(kMinCapacity); }

void ReuseDistanceTracker::resize(std::uint32_t capacity) {
    capacity_ = capacity;
    marks_.assign(capacity / 64, 0);
    word_before_.assign(capacity / 64, 0);
    block_before_.assign(whole(capacity >> kBlockShift, 16), 0);
    group_before_.assign(whole((capacity + (1u << kGroupShift) - 1) >> kGroupShift, 8), 0);
    super_before_.assign(whole((capacity + (1u << kSuperShift) - 1) >> kSuperShift, 8), 0);
    hyper_count_.assign((capacity + (1u << kHyperShift) - 1) >> kHyperShift, 0);
}

std::size_t ReuseDistanceTracker::memory_bytes() const {
    return marks_.capacity() * 8 + (word_before_.capacity() + block_before_.capacity() + group_before_.capacity()) * 2 +
           (super_before_.capacity() + hyper_count_.capacity() + word_rank_.capacity()) * 4 + times_.memory_bytes();
}

void ReuseDistanceTracker::access_new(std::uint64_t line, Result& r) {
    last_line_ = line;
    if (now_ == capacity_) compact();
    std::uint32_t& slot = times_.at(line);
    if (slot == 0) {
        slot = now_ + 1;
        set_mark(now_++);
        ++live_;
        r.bucket = kColdBucket;
        r.beyond = false;
        r.distance = 0;
        return;
    }
    const std::uint32_t last = slot - 1;
    const std::uint32_t distance = live_ - marks_up_to(last);
    clear_mark(last);
    slot = now_ + 1;
    set_mark(now_++);
    const std::uint32_t bucket = distance == 0 ? 0 : 32 - static_cast<std::uint32_t>(std::countl_zero(distance));
    r.bucket = bucket;
    r.beyond = distance >= threshold_;
    r.distance = distance;
}

std::uint32_t ReuseDistanceTracker::marks_up_to(std::uint32_t t) const {
    const std::uint32_t w = t >> 6;
    std::uint32_t n = static_cast<std::uint32_t>(std::popcount(marks_[w] & (~0ull >> (63 - (t & 63)))));
    n += word_before_[w];
    n += block_before_[t >> kBlockShift];
    n += group_before_[t >> kGroupShift];
    n += super_before_[t >> kSuperShift];
    // The earlier hypergroups: all of them, masked (the loop's length changes only with the capacity).
    const std::uint32_t h = t >> kHyperShift;
    const auto hypers = static_cast<std::uint32_t>(hyper_count_.size());
    for (std::uint32_t k = 0; k < hypers; ++k) n += hyper_count_[k] & (0 - static_cast<std::uint32_t>(k < h));
    return n;
}

void ReuseDistanceTracker::clear_mark(std::uint32_t t) {
    const std::uint32_t w = t >> 6;
    marks_[w] &= ~(1ull << (t & 63));
    decrement_after_u16x8(&word_before_[w & ~7u], w & 7);
    const std::uint32_t b = t >> kBlockShift;
    decrement_after_u16x16(&block_before_[b & ~15u], b & 15);
    const std::uint32_t g = t >> kGroupShift;
    decrement_after_u16x8(&group_before_[g & ~7u], g & 7);
    const std::uint32_t s = t >> kSuperShift;
    decrement_after_u32x8(&super_before_[s & ~7u], s & 7);
    --hyper_count_[t >> kHyperShift];
}

void ReuseDistanceTracker::start_word(std::uint32_t w) {
    if (w == 0) return;  // every prefix of time 0 is 0 (the arrays start zeroed)
    // The previous word's, block's, group's and supergroup's marks, each the one before plus
    // its predecessors' prefix.
    std::uint32_t previous = word_before_[w - 1] + static_cast<std::uint32_t>(std::popcount(marks_[w - 1]));
    if (w & 7) {
        word_before_[w] = static_cast<std::uint16_t>(previous);
        return;
    }
    word_before_[w] = 0;
    const std::uint32_t b = w >> (kBlockShift - 6);
    previous += block_before_[b - 1];
    if (b & 15) {
        block_before_[b] = static_cast<std::uint16_t>(previous);
        return;
    }
    block_before_[b] = 0;
    const std::uint32_t g = b >> (kGroupShift - kBlockShift);
    previous += group_before_[g - 1];
    if (g & 7) {
        group_before_[g] = static_cast<std::uint16_t>(previous);
        return;
    }
    group_before_[g] = 0;
    const std::uint32_t s = g >> (kSuperShift - kGroupShift);
    previous += super_before_[s - 1];
    super_before_[s] = (s & 7) ? previous : 0;
}

// Renumbers the marks 0..live-1 in time order: each one's new time is its rank, counted from the
// bitset (per-word ranks plus a popcount), no sort. The bitset is sized to twice the live marks.
void ReuseDistanceTracker::compact() {
    const std::size_t words = capacity_ / 64;
    word_rank_.resize(words);
    std::uint32_t rank = 0;
    for (std::size_t w = 0; w < words; ++w) {
        word_rank_[w] = rank;
        rank += static_cast<std::uint32_t>(std::popcount(marks_[w]));
    }
    times_.for_each([&](std::uint32_t& v) {
        if (v == 0) return;
        const std::uint32_t t = v - 1;
        const std::uint64_t below = marks_[t >> 6] & ((1ull << (t & 63)) - 1);
        v = word_rank_[t >> 6] + static_cast<std::uint32_t>(std::popcount(below)) + 1;
    });
    const std::uint64_t wanted = 2 * std::uint64_t{live_} + kMinCapacity;
    if (wanted > std::uint64_t{std::numeric_limits<std::int32_t>::max()})
        throw std::length_error("reuse distance: more than 2^30 distinct lines");
    resize(static_cast<std::uint32_t>((wanted + kMinCapacity - 1) / kMinCapacity * kMinCapacity));
    const std::size_t full = live_ / 64;
    std::fill(marks_.begin(), marks_.begin() + static_cast<std::ptrdiff_t>(full), ~0ull);
    if (live_ % 64) marks_[full] = (1ull << (live_ % 64)) - 1;
    now_ = live_;
    // The prefixes of every word up to now's (now's own too, should it start mid-word).
    for (std::uint32_t w = 1; w <= (now_ >> 6); ++w) start_word(w);
    for (std::size_t h = 0; h < hyper_count_.size(); ++h) {
        const std::uint64_t lo = std::uint64_t{h} << kHyperShift, hi = lo + (1u << kHyperShift);
        hyper_count_[h] = static_cast<std::uint32_t>(std::clamp<std::uint64_t>(live_, lo, hi) - lo);
    }
}

}  // namespace cachesim
