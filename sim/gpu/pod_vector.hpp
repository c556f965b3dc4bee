#pragma once
// A growable array of trivially copyable values whose append is inlined where the value is made,
// for the GPU model's per-request buffers (an SM's L2 events, a request's coalesced lines). Its
// fields are then stored straight into the array: std::vector's push_back stayed a call in these
// loops (in the coalescer a third of an even request's instructions), which built the value on the
// stack and read it back as a whole, a load that waits for the stores of its parts.
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>
#include <span>
#include <type_traits>

namespace cachesim {

template <class T>
class PodVector {
    static_assert(std::is_trivially_copyable_v<T>);

public:
    PodVector() = default;
    PodVector(const PodVector& other) { *this = other; }
    PodVector(PodVector&& other) noexcept
        : data_(other.data_), size_(other.size_), capacity_(other.capacity_) {
        other.data_ = nullptr;
        other.size_ = other.capacity_ = 0;
    }
    PodVector& operator=(const PodVector& other) {
        if (this != &other) {
            clear();
            reserve(other.size_);
            if (other.size_) std::memcpy(data_, other.data_, other.size_ * sizeof(T));
            size_ = other.size_;
        }
        return *this;
    }
    PodVector& operator=(PodVector&& other) noexcept {
        if (this != &other) {
            std::free(data_);
            data_ = other.data_;
            size_ = other.size_;
            capacity_ = other.capacity_;
            other.data_ = nullptr;
            other.size_ = other.capacity_ = 0;
        }
        return *this;
    }
    ~PodVector() { std::free(data_); }

    [[gnu::always_inline]] void push_back(const T& value) {
        if (size_ == capacity_) [[unlikely]] grow();
        data_[size_++] = value;
    }
    void reserve(std::size_t n) {
        if (n <= capacity_) return;
        void* grown = std::realloc(data_, n * sizeof(T));
        if (!grown) throw std::bad_alloc();
        data_ = static_cast<T*>(grown);
        capacity_ = n;
    }
    void clear() { size_ = 0; }
    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    T& operator[](std::size_t i) { return data_[i]; }
    const T& operator[](std::size_t i) const { return data_[i]; }
    T& back() { return data_[size_ - 1]; }
    const T& back() const { return data_[size_ - 1]; }
    T* begin() { return data_; }
    T* end() { return data_ + size_; }
    const T* begin() const { return data_; }
    const T* end() const { return data_ + size_; }
    operator std::span<const T>() const { return {data_, size_}; }

private:
    [[gnu::noinline]] void grow() { reserve(capacity_ < 16 ? 16 : 2 * capacity_); }

    T* data_ = nullptr;
    std::size_t size_ = 0, capacity_ = 0;
};

}  // namespace cachesim
