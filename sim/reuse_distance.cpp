#include "sim/reuse_distance.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <stdexcept>

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

constexpr std::int32_t kMinCapacity = 4096;  // times; a multiple of 64

// Position of the k-th (0-based) set bit of x, which has more than k set bits.
unsigned select_bit(std::uint64_t x, unsigned k) {
    unsigned pos = 0;
    unsigned c = static_cast<unsigned>(std::popcount(static_cast<std::uint32_t>(x)));
    if (k >= c) { k -= c; x >>= 32; pos += 32; }
    c = static_cast<unsigned>(std::popcount(x & 0xffff));
    if (k >= c) { k -= c; x >>= 16; pos += 16; }
    c = static_cast<unsigned>(std::popcount(x & 0xff));
    if (k >= c) { k -= c; x >>= 8; pos += 8; }
    for (; k; --k) x &= x - 1;
    return pos + static_cast<unsigned>(std::countr_zero(x));
}

}  // namespace

ReuseDistanceTracker::ReuseDistanceTracker(std::uint64_t threshold)
    : threshold_(threshold), capacity_(kMinCapacity), marks_(kMinCapacity / 64, 0) {
    if (threshold != 0 && std::has_single_bit(threshold))
        threshold_power_ = std::countr_zero(threshold);
}

std::size_t ReuseDistanceTracker::memory_bytes() const {
    return marks_.capacity() * 8 + word_rank_.capacity() * 4 + times_.memory_bytes();
}

ReuseDistanceTracker::Result ReuseDistanceTracker::access_new(std::uint64_t line, bool want_beyond) {
    last_line_ = line;
    if (now_ == capacity_) compact();
    std::uint32_t& slot = times_.at(line);
    if (slot == 0) {
        slot = static_cast<std::uint32_t>(now_) + 1;
        marks_[static_cast<std::size_t>(now_) >> 6] |= 1ull << (now_ & 63);
        ++now_;
        ++live_;
        while (active_ < kMaxPowers && (std::int32_t{1} << active_) <= live_ - 1) ++active_;
        return {kColdBucket, false};
    }
    const std::int32_t last = static_cast<std::int32_t>(slot - 1);
    // distance >= 2^b  <=>  the previous access is at or before cursor b's true position. The
    // cursors' true positions fall with b, so the satisfied ones are a prefix.
    // A known position is never after the true one: the cursors at or after `last` are
    // satisfied as they stand; the first one before it is brought up to date, and so on.
    const std::uint32_t active_mask = (std::uint32_t{1} << active_) - 1;  // active_ <= 31
    std::uint32_t known = at_or_after(last) & active_mask;
    int b = std::countr_one(known);
    while (b < active_ && last <= resolve(b, live_ - 1 - (std::int32_t{1} << b)))
        b = std::countr_one(known | ((std::uint32_t{2} << b) - 1));
    bool beyond = false;
    if (want_beyond) {
        if (threshold_power_ >= 0) {
            beyond = b > threshold_power_;
        } else if (threshold_ == 0) {
            beyond = true;
        } else if (threshold_ <= static_cast<std::uint64_t>(live_ - 1)) {
            const std::int32_t rank = live_ - 1 - static_cast<std::int32_t>(threshold_);
            beyond = last <= pos_[kThresholdCursor] || last <= resolve(kThresholdCursor, rank);
        }
    }
    // The mark moves from `last` to now: every cursor after `last` has one mark fewer before it.
    marks_[static_cast<std::size_t>(last) >> 6] &= ~(1ull << (last & 63));
    for (int j = 0; j < kCursors; ++j) before_[j] -= last < pos_[j] ? 1 : 0;
    slot = static_cast<std::uint32_t>(now_) + 1;
    marks_[static_cast<std::size_t>(now_) >> 6] |= 1ull << (now_ & 63);
    ++now_;
    return {static_cast<std::uint32_t>(b), beyond};
}

// Moves cursor j forward to the mark of the given rank (0 = oldest) and returns its position.
std::int32_t ReuseDistanceTracker::resolve(int j, std::int32_t rank) {
    const std::int32_t p = pos_[j];
    std::uint32_t need = static_cast<std::uint32_t>(rank - before_[j]);  // marks to pass at >= p
    std::size_t w = static_cast<std::size_t>(p) >> 6;
    std::uint64_t bits = marks_[w] & (~0ull << (p & 63));
    for (;;) {
        const auto n = static_cast<std::uint32_t>(std::popcount(bits));
        if (n > need) break;
        need -= n;
        bits = marks_[++w];
    }
    const std::int32_t found = static_cast<std::int32_t>(w * 64 + select_bit(bits, need));
    pos_[j] = found;
    before_[j] = rank;
    return found;
}

// Renumbers the marks 0..live-1 in time order: each one's new time is its rank, counted from the
// bitset (per-word ranks plus a popcount), no sort. The bitset is sized to twice the live marks.
void ReuseDistanceTracker::compact() {
    const std::size_t words = static_cast<std::size_t>(capacity_) / 64;
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
    // A cursor's new position is the rank of the first mark at or after it: its count before.
    for (int j = 0; j < kCursors; ++j) pos_[j] = before_[j];
    const std::int64_t wanted = std::max<std::int64_t>(kMinCapacity, 2 * std::int64_t{live_} + kMinCapacity);
    if (wanted > std::numeric_limits<std::int32_t>::max() - 64)
        throw std::length_error("reuse distance: more than 2^30 distinct lines");
    capacity_ = static_cast<std::int32_t>((wanted + 63) / 64 * 64);
    marks_.assign(static_cast<std::size_t>(capacity_) / 64, 0);
    const std::size_t full = static_cast<std::size_t>(live_) / 64;
    std::fill(marks_.begin(), marks_.begin() + static_cast<std::ptrdiff_t>(full), ~0ull);
    if (live_ % 64) marks_[full] = (1ull << (live_ % 64)) - 1;
    now_ = live_;
}

}  // namespace cachesim
