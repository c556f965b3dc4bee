#pragma once
// A map from cache line to slot for sets with many ways, where scanning the ways would cost more
// than the lookup: the GPU model's sectored caches and the thread model's LRU caches use it.
#include <cstddef>
#include <cstdint>

#include "sim/gpu/host_line_allocator.hpp"

namespace cachesim {

// Open-addressing map line -> slot with backward-shift deletion (no tombstones). Key and value
// share an entry, so a probe touches one host cache line.
class SlotIndex {
public:
    static constexpr std::uint32_t kAbsent = ~0u;
    static constexpr std::uint64_t kNoLine = ~0ull;  // (the caches' empty tag: never a line)
    static constexpr std::size_t kEntryBytes = 16;  // a line and its slot
    // The entries for `lines` lines: a power of two, at most half full.
    static std::size_t capacity_for(std::uint64_t lines) {
        std::size_t capacity = 16;
        while (capacity < 2 * lines) capacity <<= 1;
        return capacity;
    }
    void reset(std::uint64_t lines) {
        const std::size_t capacity = capacity_for(lines);
        entries_.assign(capacity, Entry{});
        mask_ = capacity - 1;
        shift_ = 64 - static_cast<unsigned>(__builtin_ctzll(capacity));
    }
    std::uint32_t find(std::uint64_t line) const {
        for (std::size_t i = home(line);; i = (i + 1) & mask_) {
            const Entry& e = entries_[i];
            if (e.key == line) return e.slot;
            if (e.key == kNoLine) return kAbsent;
        }
    }
    void prefetch(std::uint64_t line) const { __builtin_prefetch(&entries_[home(line)]); }
    void insert(std::uint64_t line, std::uint32_t slot) {
        std::size_t i = home(line);
        while (entries_[i].key != kNoLine) i = (i + 1) & mask_;
        entries_[i] = Entry{line, slot};
    }
    void erase(std::uint64_t line) {
        std::size_t i = home(line);
        while (entries_[i].key != line) {
            if (entries_[i].key == kNoLine) return;
            i = (i + 1) & mask_;
        }
        // Shift later members of the probe run back into the hole.
        std::size_t j = i;
        while (true) {
            j = (j + 1) & mask_;
            if (entries_[j].key == kNoLine) break;
            const std::size_t h = home(entries_[j].key);
            // j may move to i unless its home lies cyclically inside (i, j].
            const bool stays = (i <= j) ? (i < h && h <= j) : (i < h || h <= j);
            if (stays) continue;
            entries_[i] = entries_[j];
            i = j;
        }
        entries_[i] = Entry{};
    }

private:
    struct Entry {
        std::uint64_t key = kNoLine;
        std::uint32_t slot = kAbsent;
    };
    static_assert(sizeof(Entry) == kEntryBytes);
    std::size_t home(std::uint64_t line) const {
        return static_cast<std::size_t>((line * 0x9e3779b97f4a7c15ull) >> shift_) & mask_;
    }
    HostVector<Entry> entries_;
    std::size_t mask_ = 0;
    unsigned shift_ = 60;
};

}  // namespace cachesim
