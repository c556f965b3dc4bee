#pragma once
// Open-addressing hash map from line address to a 64-bit value; lines are never ~0.
#include <cstdint>
#include <vector>

namespace cachesim {

class LineMap {
public:
    static constexpr std::uint64_t kNoKey = ~0ull;

    explicit LineMap(std::size_t initial_capacity = 1024) { rehash(round_up(initial_capacity)); }

    // Returns the slot of the value for `key`, inserting `fresh` if it was absent.
    std::uint64_t& find_or_insert(std::uint64_t key, std::uint64_t fresh, bool& inserted) {
        if ((size_ + 1) * 4 > keys_.size() * 3) rehash(keys_.size() * 2);
        std::size_t i = slot_of(key);
        while (keys_[i] != kNoKey) {
            if (keys_[i] == key) {
                inserted = false;
                return values_[i];
            }
            i = (i + 1) & mask_;
        }
        keys_[i] = key;
        values_[i] = fresh;
        ++size_;
        inserted = true;
        return values_[i];
    }

    std::size_t size() const { return size_; }

    template <class F>
    void for_each(F&& f) {
        for (std::size_t i = 0; i < keys_.size(); ++i)
            if (keys_[i] != kNoKey) f(keys_[i], values_[i]);
    }

private:
    static std::size_t round_up(std::size_t n) {
        std::size_t c = 16;
        while (c < n) c <<= 1;
        return c;
    }
    std::size_t slot_of(std::uint64_t key) const {
        return static_cast<std::size_t>((key * 0x9e3779b97f4a7c15ull) >> shift_) & mask_;
    }
    void rehash(std::size_t capacity) {
        std::vector<std::uint64_t> old_keys = std::move(keys_), old_values = std::move(values_);
        keys_.assign(capacity, kNoKey);
        values_.assign(capacity, 0);
        mask_ = capacity - 1;
        shift_ = 64 - static_cast<unsigned>(__builtin_ctzll(capacity));
        size_ = 0;
        for (std::size_t i = 0; i < old_keys.size(); ++i) {
            if (old_keys[i] == kNoKey) continue;
            bool inserted;
            find_or_insert(old_keys[i], old_values[i], inserted);
        }
    }

    std::vector<std::uint64_t> keys_, values_;
    std::size_t mask_ = 0, size_ = 0;
    unsigned shift_ = 60;
};

}  // namespace cachesim
