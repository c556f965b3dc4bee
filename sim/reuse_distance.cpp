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

constexpr std::uint32_t kMinCapacity = 1u << 15;  // times; whole groups, so the counts' loops need no bound

}  // namespace

ReuseDistanceTracker::ReuseDistanceTracker(std::uint64_t threshold)
    : threshold_(threshold),
      capacity_(kMinCapacity),
      marks_(kMinCapacity / 64, 0),
      block_count_(kMinCapacity >> kBlockShift, 0),
      group_count_(std::size_t{1} << (kSuperShift - kGroupShift), 0),
      super_count_(1, 0) {}

std::size_t ReuseDistanceTracker::memory_bytes() const {
    return marks_.capacity() * 8 + block_count_.capacity() * 2 + (group_count_.capacity() + super_count_.capacity()) * 4 +
           word_rank_.capacity() * 4 + times_.memory_bytes();
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
    const std::uint32_t distance = marks_after(last);
    clear_mark(last);
    slot = now_ + 1;
    set_mark(now_++);
    const std::uint32_t bucket = distance == 0 ? 0 : 32 - static_cast<std::uint32_t>(std::countl_zero(distance));
    r.bucket = bucket;
    r.beyond = distance >= threshold_;
    r.distance = distance;
}

std::uint32_t ReuseDistanceTracker::marks_after(std::uint32_t t) const {
    const std::uint32_t w = t >> 6;
    // Within t's word, then the later words of its block.
    std::uint32_t n = static_cast<std::uint32_t>(std::popcount(marks_[w] & (~1ull << (t & 63))));
    const std::uint64_t* block = &marks_[w & ~7u];
    const std::uint32_t in_block = w & 7;
    for (std::uint32_t j = 0; j < 8; ++j)  // a mask, not a branch: in_block is random
        n += static_cast<std::uint32_t>(std::popcount(block[j] & (0 - static_cast<std::uint64_t>(j > in_block))));
    // The later blocks of its group.
    const std::uint32_t b = t >> kBlockShift;
    const std::uint16_t* group = &block_count_[b & ~63u];
    const std::uint32_t in_group = b & 63;
#if defined(__SSE2__)
    const __m128i limit = _mm_set1_epi16(static_cast<short>(in_group));
    const __m128i step = _mm_set1_epi16(8);
    __m128i index = _mm_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7);
    __m128i sum = _mm_setzero_si128();  // per lane at most 8 blocks of 512 marks
    for (int j = 0; j < 64; j += 8) {
        const __m128i counts = _mm_loadu_si128(reinterpret_cast<const __m128i*>(group + j));
        sum = _mm_add_epi16(sum, _mm_and_si128(counts, _mm_cmpgt_epi16(index, limit)));
        index = _mm_add_epi16(index, step);
    }
    __m128i wide = _mm_madd_epi16(sum, _mm_set1_epi16(1));
    wide = _mm_add_epi32(wide, _mm_shuffle_epi32(wide, _MM_SHUFFLE(1, 0, 3, 2)));
    wide = _mm_add_epi32(wide, _mm_shuffle_epi32(wide, _MM_SHUFFLE(2, 3, 0, 1)));
    n += static_cast<std::uint32_t>(_mm_cvtsi128_si32(wide));
#else
    for (std::uint32_t j = 0; j < 64; ++j) n += j > in_group ? group[j] : 0;
#endif
    // The later groups of its supergroup, then the later supergroups: all of them, masked (the
    // loop's length changes only with the capacity).
    const std::uint32_t g = t >> kGroupShift;
    const std::uint32_t* super = &group_count_[g & ~15u];
    const std::uint32_t in_super = g & 15;
    for (std::uint32_t j = 0; j < 16; ++j) n += super[j] & (0 - static_cast<std::uint32_t>(j > in_super));
    const std::uint32_t in_all = t >> kSuperShift;
    const auto supers = static_cast<std::uint32_t>(super_count_.size());
    for (std::uint32_t k = 0; k < supers; ++k) n += super_count_[k] & (0 - static_cast<std::uint32_t>(k > in_all));
    return n;
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
    capacity_ = static_cast<std::uint32_t>((wanted + kMinCapacity - 1) / kMinCapacity * kMinCapacity);
    marks_.assign(capacity_ / 64, 0);
    const std::size_t full = live_ / 64;
    std::fill(marks_.begin(), marks_.begin() + static_cast<std::ptrdiff_t>(full), ~0ull);
    if (live_ % 64) marks_[full] = (1ull << (live_ % 64)) - 1;
    block_count_.assign(capacity_ >> kBlockShift, 0);
    const std::size_t supers = (capacity_ + (1u << kSuperShift) - 1) >> kSuperShift;
    group_count_.assign(supers << (kSuperShift - kGroupShift), 0);
    super_count_.assign(supers, 0);
    for (std::size_t w = 0; w <= full && w < marks_.size(); ++w) {
        const auto c = static_cast<std::uint32_t>(std::popcount(marks_[w]));
        block_count_[w >> (kBlockShift - 6)] = static_cast<std::uint16_t>(block_count_[w >> (kBlockShift - 6)] + c);
        group_count_[w >> (kGroupShift - 6)] += c;
        super_count_[w >> (kSuperShift - 6)] += c;
    }
    now_ = live_;
}

}  // namespace cachesim
