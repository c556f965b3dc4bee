#pragma once
// Latest-access time (plus one; 0 = never) of each line, for one reuse tracker or for the two
// levels' trackers together, in chunks of 16 times (one 64-byte host cache line): 16 consecutive
// lines, or 8 lines with both levels' times side by side, so that the second level's lookup of a
// line the first has just looked up finds its chunk in the host's cache.
//
// Two places hold chunks, a key (line / lines per chunk) in exactly one of them:
//   - a dense window, an array indexed by key - base: a lookup is a subtraction, a compare and
//     one load. It covers a range of keys in which at least half the chunks are in use (a
//     stream's lines, a random range's), looked for when the hash table below fills up, and grows
//     with them (half as much room again above when it grows upwards, as a stream does). From
//     1 MiB it is mapped in huge pages (HostVector): a stream's window, regrown many times, then
//     costs few page faults, and lookups at random in it few TLB misses;
//   - an open-addressing hash table for the keys outside it. The key's slot and its chunk are at
//     the same index, so both loads go out at once. Eight consecutive keys share a hashed home of
//     eight slots (one host line of keys, eight adjacent chunks), so that clustered lines keep
//     their keys and chunks together.
// Memory stays within a small multiple of the chunks in use either way.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/gpu/host_line_allocator.hpp"

namespace cachesim {

class LineTimes {
public:
    // levels: 1 or 2 trackers.
    explicit LineTimes(unsigned levels = 1);
    std::uint32_t& at(std::uint64_t line, unsigned level = 0) {
        const std::uint64_t key = line >> line_shift_;
        if (key != last_key_[level]) {
            last_chunk_[level] = chunk_making_room(key);
            last_key_[level] = key;
        }
        return last_chunk_[level]->t[index(line, level)];
    }
    // Makes room for `more` new chunks without a rehash or a new window, so that slot()'s
    // pointers stay valid (the hash table is kept at most 3/4 full: linear probes stay short).
    void reserve(std::size_t more) {
        if ((size_ + more) * 4 > keys_.size() * 3) grow(size_ + more);
    }
    // The line's time slot (inserted if new), after reserve().
    std::uint32_t* slot(std::uint64_t line, unsigned level) {
        return &chunk(line >> line_shift_)->t[index(line, level)];
    }
    // f(time) for every time slot of the level.
    template <class F>
    void for_each(unsigned level, F&& f) {
        const unsigned step = 1u << level_shift_;
        for (Chunk& c : dense_)
            for (unsigned j = level; j < 16; j += step) f(c.t[j]);
        for (std::size_t i = 0; i < keys_.size(); ++i)
            if (keys_[i] != kNoKey)
                for (unsigned j = level; j < 16; j += step) f(chunks_[i].t[j]);
    }
    std::size_t memory_bytes() const {
        return keys_.capacity() * sizeof(std::uint64_t) + (chunks_.capacity() + dense_.capacity()) * sizeof(Chunk);
    }
    // The dense window's keys, [dense_first(), dense_first() + dense_chunks()) (for tests).
    std::uint64_t dense_first() const { return dense_base_; }
    std::size_t dense_chunks() const { return dense_size_; }
    // Lines per chunk.
    unsigned lines_per_chunk() const { return 1u << line_shift_; }

private:
    struct alignas(64) Chunk {
        std::uint32_t t[16] = {};
    };
    static constexpr std::uint64_t kNoKey = ~0ull;
    unsigned index(std::uint64_t line, unsigned level) const {
        return ((static_cast<unsigned>(line) & line_mask_) << level_shift_) | level;
    }
    std::size_t home(std::uint64_t key) const {
        return (static_cast<std::size_t>(((key >> 3) * 0x9e3779b97f4a7c15ull) >> shift_) & ~std::size_t{7}) |
               static_cast<std::size_t>(key & 7);
    }
    // The key's chunk, inserted if new (room made beforehand).
    Chunk* chunk(std::uint64_t key) {
        const std::uint64_t offset = key - dense_base_;  // wraps below the window: one compare
        if (offset < dense_size_) [[likely]] return &dense_data_[offset];
        std::size_t i = home(key);
        while (keys_[i] != key) {
            if (keys_[i] == kNoKey) {
                keys_[i] = key;
                ++size_;
                break;
            }
            i = (i + 1) & mask_;
        }
        return &chunks_[i];
    }
    Chunk* chunk_making_room(std::uint64_t key);
    static bool in_use(const Chunk& c) {
        for (const std::uint32_t t : c.t)
            if (t != 0) return true;
        return false;
    }
    // Room for `chunks` keys in the hash table, after moving what a new window takes.
    void grow(std::size_t chunks);
    struct KeyedChunk {
        std::uint64_t key;
        Chunk chunk;
    };
    // Moves the hash table's keys into a new or wider dense window where its range would be at
    // least half in use; returns the chunks of a replaced window outside the new one, for the
    // hash table.
    std::vector<KeyedChunk> widen_window();
    void rehash(std::size_t capacity);

    unsigned level_shift_;  // 0: one level; 1: two
    unsigned line_shift_;   // lines per chunk: 1 << line_shift_
    unsigned line_mask_;
    HostVector<Chunk> dense_;
    Chunk* dense_data_ = nullptr;
    std::uint64_t dense_base_ = 0;
    std::uint64_t dense_size_ = 0;
    std::vector<std::uint64_t> keys_;
    std::vector<Chunk> chunks_;
    std::size_t size_ = 0, mask_ = 0;
    unsigned shift_ = 60;
    std::uint64_t last_key_[2] = {kNoKey, kNoKey};  // each level's latest chunk
    Chunk* last_chunk_[2] = {nullptr, nullptr};
};

}  // namespace cachesim
