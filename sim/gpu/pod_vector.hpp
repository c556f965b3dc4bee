#pragma once
// A growable array of trivially copyable values whose append is inlined where the value is made,
// for the GPU model's per-request buffers (an SM's L2 events, a request's coalesced lines). Its
// fields are then stored straight into the array: std::vector's push_back stayed a call in these
// loops (in the coalescer a third of an even request's instructions), which built the value on the
// stack and read it back as a whole, a load that waits for the stores of its parts.
// Its storage comes from HostLineAllocator, in whole host cache lines, so that arrays appended to
// by different threads (the event lists of SMs that run side by side) never share one.
#include <cstddef>
#include <cstring>
#include <new>
#include <span>
#include <type_traits>

#include "sim/gpu/host_line_allocator.hpp"

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
            release();
            data_ = other.data_;
            size_ = other.size_;
            capacity_ = other.capacity_;
            other.data_ = nullptr;
            other.size_ = other.capacity_ = 0;
        }
        return *this;
    }
    ~PodVector() { release(); }

    [[gnu::always_inline]] void push_back(const T& value) {
        if (size_ == capacity_) [[unlikely]] grow();
        data_[size_++] = value;
    }
    void reserve(std::size_t n) {
        if (n <= capacity_) return;
        T* grown = HostLineAllocator<T>().allocate(n);
        if (size_) std::memcpy(grown, data_, size_ * sizeof(T));
        release();
        data_ = grown;
        capacity_ = n;
    }
    void clear() { size_ = 0; }
    std::size_t size() const { return size_; }
    std::size_t capacity() const { return capacity_; }
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
    void release() {
        if (data_) HostLineAllocator<T>().deallocate(data_, capacity_);
    }

    T* data_ = nullptr;
    std::size_t size_ = 0, capacity_ = 0;
};

}  // namespace cachesim
