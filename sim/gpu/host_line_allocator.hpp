#pragma once
// An allocator whose blocks start on a host cache line (64 bytes), for arrays read a group of
// elements at a time: a set's tags, scanned together, then lie in as few lines as they can (a
// large block from malloc starts 16 bytes past a page, which spreads 128 bytes over three lines).
#include <cstddef>
#include <new>

namespace cachesim {

template <class T>
struct HostLineAllocator {
    using value_type = T;
    static constexpr std::align_val_t kAlignment{64};

    HostLineAllocator() = default;
    template <class U>
    HostLineAllocator(const HostLineAllocator<U>&) {}

    T* allocate(std::size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), kAlignment)); }
    void deallocate(T* p, std::size_t) { ::operator delete(p, kAlignment); }

    template <class U>
    bool operator==(const HostLineAllocator<U>&) const {
        return true;
    }
};

}  // namespace cachesim
