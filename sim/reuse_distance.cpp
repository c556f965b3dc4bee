#include "sim/reuse_distance.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <stdexcept>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace cachesim {

namespace {

constexpr std::uint32_t kMinCapacity = 1u << 15;  // times

// n rounded up to whole parents.
std::size_t whole(std::size_t n, std::size_t parent) {
    return (n + parent - 1) / parent * parent;
}

// -1 in the lanes after each position: adding a row subtracts one from the later prefixes.
template <class Lane, std::size_t kLanes>
struct LaterMasks {
    alignas(16) Lane row[kLanes][kLanes];
    constexpr LaterMasks() : row{} {
        for (std::size_t pos = 0; pos < kLanes; ++pos)
            for (std::size_t j = 0; j < kLanes; ++j) row[pos][j] = j > pos ? Lane(-1) : Lane(0);
    }
};
constexpr LaterMasks<std::uint16_t, 8> kLater16x8;
constexpr LaterMasks<std::uint16_t, 16> kLater16x16;
constexpr LaterMasks<std::uint32_t, 8> kLater32x8;

// p[j] -= 1 for the lanes j in (pos, lanes) of one parent's prefixes (p: 16 or 32 bytes).
template <class Lane, std::size_t kLanes>
[[gnu::always_inline]] inline void decrement_after(Lane* p, std::uint32_t pos, const LaterMasks<Lane, kLanes>& masks) {
#if defined(__SSE2__)
    static_assert(sizeof(Lane) * kLanes % 16 == 0);
    auto* v = reinterpret_cast<__m128i*>(p);
    const auto* m = reinterpret_cast<const __m128i*>(masks.row[pos]);
    for (std::size_t k = 0; k < sizeof(Lane) * kLanes / 16; ++k) {
        const __m128i sum = sizeof(Lane) == 2 ? _mm_add_epi16(_mm_loadu_si128(v + k), _mm_load_si128(m + k))
                                              : _mm_add_epi32(_mm_loadu_si128(v + k), _mm_load_si128(m + k));
        _mm_storeu_si128(v + k, sum);
    }
#else
    for (std::size_t j = pos + 1; j < kLanes; ++j) p[j] = static_cast<Lane>(p[j] + masks.row[pos][j]);
#endif
}

}  // namespace

ReuseDistanceTracker::ReuseDistanceTracker(std::uint64_t threshold, LineTimes* shared_times, unsigned level)
    : threshold_(threshold),
      own_times_(shared_times ? std::nullopt : std::optional<LineTimes>(std::in_place)),
      times_(shared_times ? *shared_times : *own_times_),
      level_(shared_times ? level : 0) {
    resize(kMinCapacity);
}

void ReuseDistanceTracker::resize(std::uint32_t capacity) {
    capacity_ = capacity;
    marks_.assign(capacity / 64, 0);
    word_before_.assign(capacity / 64, 0);
    block_before_.assign(whole(capacity >> kBlockShift, 16), 0);
    group_before_.assign(whole((capacity + (1u << kGroupShift) - 1) >> kGroupShift, 8), 0);
    super_before_.assign(whole((capacity + (1u << kSuperShift) - 1) >> kSuperShift, 8), 0);
    hyper_before_.assign((capacity + (1u << kHyperShift) - 1) >> kHyperShift, 0);
}

std::size_t ReuseDistanceTracker::memory_bytes() const {
    return marks_.capacity() * 8 + (word_before_.capacity() + block_before_.capacity() + group_before_.capacity()) * 2 +
           (super_before_.capacity() + hyper_before_.capacity() + word_rank_.capacity()) * 4 +
           (level_ == 0 ? times_.memory_bytes() : 0);  // a shared table is counted by level 0
}

void ReuseDistanceTracker::start_batch(const std::uint64_t* lines, std::uint32_t** slots, std::size_t n) {
    if (n == 0) return;
    times_.reserve(n);
    std::uint64_t previous = last_line_;
    for (std::size_t i = 0; i < n; ++i) {
        slots[i] = lines[i] == previous ? nullptr : times_.slot(lines[i], level_);
        previous = lines[i];
        __builtin_prefetch(slots[i]);
    }
    last_line_ = previous;
    for (std::size_t i = 0; i < n; ++i)
        if (slots[i]) prefetch_mark(*slots[i]);
}

[[gnu::always_inline]] inline std::uint32_t ReuseDistanceTracker::Marks::up_to(std::uint32_t t) const {
    const std::uint32_t w = t >> 6;
    std::uint32_t n = static_cast<std::uint32_t>(std::popcount(marks[w] & (~0ull >> (63 - (t & 63)))));
    n += word_before[w];
    n += block_before[t >> kBlockShift];
    n += group_before[t >> kGroupShift];
    n += super_before[t >> kSuperShift];
    n += hyper_before[t >> kHyperShift];
    return n;
}

[[gnu::always_inline]] inline void ReuseDistanceTracker::Marks::clear(std::uint32_t t, std::uint32_t now) const {
    const std::uint32_t w = t >> 6;
    marks[w] &= ~(1ull << (t & 63));
    decrement_after(&word_before[w & ~7u], w & 7, kLater16x8);
    const std::uint32_t b = t >> kBlockShift;
    decrement_after(&block_before[b & ~15u], b & 15, kLater16x16);
    const std::uint32_t g = t >> kGroupShift;
    decrement_after(&group_before[g & ~7u], g & 7, kLater16x8);
    const std::uint32_t s = t >> kSuperShift;
    decrement_after(&super_before[s & ~7u], s & 7, kLater32x8);
    // The hypergroups after t's up to now's. Most earlier times are in now's hypergroup or the one
    // before, and which of the two goes either way on a random stream: that case decrements now's
    // by 0 or 1 without a branch on which; a time further back takes the loop.
    const std::uint32_t first = t >> kHyperShift, last = now >> kHyperShift;
    if (last - first <= 1) [[likely]] hyper_before[last] -= last - first;
    else for (std::uint32_t h = first + 1; h <= last; ++h) --hyper_before[h];
}

[[gnu::always_inline]] inline std::uint32_t ReuseDistanceTracker::step(std::uint32_t& slot, const Marks& m,
                                                                       std::uint32_t& now, std::uint32_t& live) {
    const std::uint32_t previous = slot;
    slot = now + 1;
    if (previous == 0) {
        set_mark(m, now++);
        ++live;
        return kCold;
    }
    const std::uint32_t last = previous - 1;
    const std::uint32_t distance = live - m.up_to(last);
    m.clear(last, now);
    set_mark(m, now++);
    return distance;
}

std::uint32_t ReuseDistanceTracker::step(std::uint32_t& slot) {
    std::uint32_t now = now_, live = live_;
    const std::uint32_t distance = step(slot, view(), now, live);
    now_ = now;
    live_ = live;
    return distance;
}

template <class Each>
[[gnu::always_inline]] inline void ReuseDistanceTracker::run_batch(const std::uint64_t* lines, std::size_t n,
                                                                   Each&& each) {
    // Renumbered first if the batch might not fit (a batch takes at most n times), so that the
    // loop needs no check.
    if (capacity_ - now_ < n) compact();
    std::uint32_t* slots[kMaxBatch];
    start_batch(lines, slots, n);
    const Marks m = view();
    std::uint32_t now = now_, live = live_;
    for (std::size_t i = 0; i < n; ++i) each(i, slots[i] ? step(*slots[i], m, now, live) : 0u);
    now_ = now;
    live_ = live;
}

void ReuseDistanceTracker::access_batch(const std::uint64_t* lines, Result* out, std::size_t n) {
    run_batch(lines, n, [&](std::size_t i, std::uint32_t distance) { result(distance, out[i]); });
}

void ReuseDistanceTracker::count_batch(const std::uint64_t* lines, const bool* miss, std::size_t n, Tally& tally) {
    const std::uint64_t threshold = threshold_;
    std::uint64_t(*count)[2 * kBuckets] = tally.count;
    run_batch(lines, n, [&](std::size_t i, std::uint32_t distance) {
        ++count[miss[i]][2 * bucket_of(distance) + (distance >= threshold)];
    });
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
    if (s & 7) {
        super_before_[s] = previous;
        return;
    }
    super_before_[s] = 0;
    const std::uint32_t h = s >> (kHyperShift - kSuperShift);
    hyper_before_[h] = hyper_before_[h - 1] + previous;
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
    times_.for_each(level_, [&](std::uint32_t& v) {
        if (v == 0) return;
        const std::uint32_t t = v - 1;
        const std::uint64_t below = marks_[t >> 6] & ((1ull << (t & 63)) - 1);
        v = word_rank_[t >> 6] + static_cast<std::uint32_t>(std::popcount(below)) + 1;
    });
    const std::uint64_t wanted = 4 * std::uint64_t{live_} + kMinCapacity;
    if (wanted > std::uint64_t{std::numeric_limits<std::int32_t>::max()})
        throw std::length_error("reuse distance: more than 2^30 distinct lines");
    resize(static_cast<std::uint32_t>((wanted + kMinCapacity - 1) / kMinCapacity * kMinCapacity));
    const std::size_t full = live_ / 64;
    std::fill(marks_.begin(), marks_.begin() + static_cast<std::ptrdiff_t>(full), ~0ull);
    if (live_ % 64) marks_[full] = (1ull << (live_ % 64)) - 1;
    now_ = live_;
    // The prefixes of every word up to now's (now's own too, should it start mid-word).
    for (std::uint32_t w = 1; w <= (now_ >> 6); ++w) start_word(w);
}

}  // namespace cachesim
