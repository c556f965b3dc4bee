#include "sim/line_times.hpp"

#include <algorithm>
#include <bit>

namespace cachesim {

LineTimes::LineTimes(unsigned levels)
    : level_shift_(levels == 2 ? 1 : 0), line_shift_(4 - level_shift_), line_mask_((1u << line_shift_) - 1) {
    rehash(64);
}

LineTimes::Chunk* LineTimes::chunk_making_room(std::uint64_t key) {
    const std::uint64_t offset = key - dense_base_;
    if (offset < dense_size_) return &dense_data_[offset];
    for (std::size_t i = home(key); keys_[i] != kNoKey; i = (i + 1) & mask_)
        if (keys_[i] == key) return &chunks_[i];
    reserve(1);  // may widen the window or rehash: look again
    return chunk(key);
}

void LineTimes::grow(std::size_t chunks) {
    const std::size_t more = chunks - size_;
    const std::vector<KeyedChunk> given_back = widen_window();
    std::size_t capacity = 64;
    while ((size_ + given_back.size() + more) * 4 > capacity * 3) capacity *= 2;
    rehash(capacity);
    for (const KeyedChunk& k : given_back) {
        std::size_t i = home(k.key);
        while (keys_[i] != kNoKey) i = (i + 1) & mask_;
        keys_[i] = k.key;
        chunks_[i] = k.chunk;
        ++size_;
    }
    last_key_[0] = last_key_[1] = kNoKey;
}

std::vector<LineTimes::KeyedChunk> LineTimes::widen_window() {
    std::vector<KeyedChunk> given_back;
    if (size_ == 0) return given_back;
    std::size_t window_in_use = 0;  // a slot written is never 0 again
    for (const Chunk& c : dense_) window_in_use += in_use(c);
    const std::uint64_t old_lo = dense_base_, old_hi = dense_base_ + dense_size_;
    struct Range {
        std::uint64_t lo = ~0ull, hi = 0;
        std::size_t keys = 0;  // the hash table's keys in it
    };
    // `r` stretched over the hash table's keys within `reach` of `centre`.
    const auto stretch = [&](Range r, std::uint64_t centre, std::uint64_t reach) {
        const std::uint64_t near_lo = centre > reach ? centre - reach : 0, near_hi = centre + reach;
        for (const std::uint64_t key : keys_) {
            if (key == kNoKey || key < near_lo || key >= near_hi) continue;
            r.lo = std::min(r.lo, key);
            r.hi = std::max(r.hi, key + 1);
            ++r.keys;
        }
        return r;
    };
    // First the window's own range stretched over the keys near it (a stream's next keys, the
    // rest of its range) ...
    Range r;
    bool found = false;
    if (dense_size_ > 0) {
        r = stretch(Range{old_lo, old_hi, 0}, old_lo + dense_size_ / 2, dense_size_ + dense_size_ / 2);
        found = r.keys > 0 && r.hi - r.lo <= 2 * (window_in_use + r.keys);
    }
    // ... else a range of the hash table's keys around their median (a range at least half in
    // use that holds most keys holds the median and spans at most twice the keys), taken when it
    // holds a quarter of all the chunks in use and more than the window (which it replaces).
    bool replacing = false;
    if (!found) {
        std::vector<std::uint64_t> keys;
        keys.reserve(size_);
        for (const std::uint64_t key : keys_)
            if (key != kNoKey) keys.push_back(key);
        const auto middle = keys.begin() + static_cast<std::ptrdiff_t>(keys.size() / 2);
        std::nth_element(keys.begin(), middle, keys.end());
        r = stretch(Range{}, *middle, 2 * keys.size());
        found = r.keys > window_in_use && 4 * r.keys >= window_in_use + size_ && r.hi - r.lo <= 2 * r.keys;
        replacing = found && dense_size_ > 0;
    }
    if (!found) return given_back;
    std::uint64_t size = r.hi - r.lo;
    if (dense_size_ > 0 && !replacing && r.hi > old_hi) size += size / 2;  // growing upwards, as a stream does: room ahead
    HostVector<Chunk> window(size);
    for (std::size_t j = 0; j < dense_size_; ++j) {
        const std::uint64_t offset = old_lo + j - r.lo;
        if (offset < size) window[offset] = dense_[j];
        else if (in_use(dense_[j])) given_back.push_back({old_lo + j, dense_[j]});
    }
    // Every hash key in the new range moves (the rehash that follows drops the emptied slots).
    for (std::size_t i = 0; i < keys_.size(); ++i) {
        const std::uint64_t offset = keys_[i] - r.lo;
        if (keys_[i] == kNoKey || offset >= size) continue;
        window[offset] = chunks_[i];
        keys_[i] = kNoKey;
        --size_;
    }
    dense_ = std::move(window);
    dense_data_ = dense_.data();
    dense_base_ = r.lo;
    dense_size_ = size;
    return given_back;
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

}  // namespace cachesim
