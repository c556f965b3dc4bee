#pragma once
// An allocator laid out for the host's memory system. Blocks start on a host cache line (64
// bytes) and take whole lines, for arrays read a group of elements at a time: a set's tags,
// scanned together, then lie in as few lines as they can (a large block from malloc starts 16
// bytes past a page, which spreads 128 bytes over three lines); and for the small arrays that
// each SM writes, which then share no line with another block (threads run different SMs).
// Blocks of 1 MiB or more (the L2's tags and valid masks, the request coalescer's table: tens of
// MB in all, looked up at random) are mapped on their own, in whole 2 MiB pages aligned to 2 MiB,
// and ask the kernel for huge pages, which it gives only on request where transparent huge pages
// are set to madvise: with 4 KiB pages nearly every lookup in them also missed in the host's TLB.
// Without huge pages such a block works the same.
#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace cachesim {

template <class T>
struct HostLineAllocator {
    using value_type = T;
    static constexpr std::size_t kLine = 64;
    static constexpr std::size_t kHugePage = std::size_t{2} << 20;
    static constexpr std::size_t kHugeFrom = kHugePage / 2;  // rounding up wastes at most half

    HostLineAllocator() = default;
    template <class U>
    HostLineAllocator(const HostLineAllocator<U>&) {}

    T* allocate(std::size_t n) {
        const std::size_t bytes = n * sizeof(T);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
        if (bytes >= kHugeFrom && alignof(T) <= kHugePage) return static_cast<T*>(map_huge(whole_pages(bytes)));
#endif
        // (whole lines: a block of a few bytes, such as a one-set cache's list head, written at
        // every lookup, would otherwise share its line with the next block, another SM's)
        return static_cast<T*>(::operator new((bytes + kLine - 1) / kLine * kLine, kAlignment));
    }
    void deallocate(T* p, std::size_t n) {
        const std::size_t bytes = n * sizeof(T);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
        if (bytes >= kHugeFrom && alignof(T) <= kHugePage) {
            munmap(p, whole_pages(bytes));
            return;
        }
#endif
        ::operator delete(p, kAlignment);
    }

    template <class U>
    bool operator==(const HostLineAllocator<U>&) const {
        return true;
    }

private:
    static constexpr std::align_val_t kAlignment{alignof(T) > kLine ? alignof(T) : kLine};
    static std::size_t whole_pages(std::size_t bytes) { return (bytes + kHugePage - 1) / kHugePage * kHugePage; }

#if defined(__linux__) && defined(MADV_HUGEPAGE)
    // `size` bytes (whole huge pages) at a 2 MiB boundary: a mapping one huge page longer,
    // trimmed at both ends.
    static void* map_huge(std::size_t size) {
        void* raw = mmap(nullptr, size + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (raw == MAP_FAILED) throw std::bad_alloc();
        const std::uintptr_t start = reinterpret_cast<std::uintptr_t>(raw);
        const std::uintptr_t aligned = (start + kHugePage - 1) / kHugePage * kHugePage;
        if (aligned > start) munmap(raw, aligned - start);
        const std::uintptr_t tail = start + size + kHugePage - (aligned + size);
        if (tail) munmap(reinterpret_cast<void*>(aligned + size), tail);
        madvise(reinterpret_cast<void*>(aligned), size, MADV_HUGEPAGE);
        return reinterpret_cast<void*>(aligned);
    }
#endif
};

// A vector in such blocks.
template <class T>
using HostVector = std::vector<T, HostLineAllocator<T>>;

// The host memory a block of `bytes` takes from HostLineAllocator: whole host lines, or whole huge
// pages from kHugeFrom on (memory estimates count these).
inline std::uint64_t host_block_bytes(std::uint64_t bytes) {
    using A = HostLineAllocator<char>;
    if (bytes >= A::kHugeFrom) return (bytes + A::kHugePage - 1) / A::kHugePage * A::kHugePage;
    return (bytes + A::kLine - 1) / A::kLine * A::kLine;
}

}  // namespace cachesim
