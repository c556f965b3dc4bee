#pragma once
// The port between an SM front end and the L2 system: what an SM sends to the L2, recorded in
// order while the SM runs on its own and replayed by the L2 afterwards.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <span>

namespace cachesim {

enum class L2EventKind : std::uint8_t { load, store_partial, store_full };

// A load event is a run of the L1 sectors one request missed in one L1 line: the first at
// `address`, and bit j of `more` for the sector 1 + j after it (one event where a sector each
// would take up to four times the buffer that the L2 replay streams through). A line with more
// sectors than fit is sent as several events, in order.
struct L2Event {
    std::uint64_t address;  // loads: the first L1 sector's address; stores: the L2 sector id
    std::uint32_t round;    // round within the chunk (0 when replayed at once)
    std::uint16_t array;
    L2EventKind kind;
    std::uint8_t more = 0;  // loads: the further sectors of the run (see above)

    static constexpr std::uint32_t kMoreSectors = 8;
};
static_assert(sizeof(L2Event) == 16, "events are buffered by the million: keep them small");

// Calls f(address) for each L1 sector a load event names, in ascending order.
template <class F>
void for_each_sector(const L2Event& e, std::uint32_t sector_shift, F&& f) {
    f(e.address);
    for (std::uint32_t m = e.more; m; m &= m - 1)
        f(e.address + ((static_cast<std::uint64_t>(__builtin_ctz(m)) + 1) << sector_shift));
}

// A growable array of events whose append is inlined where the event is made, so that its fields
// are stored straight into the array. (std::vector's push_back stayed a call, which read the event
// back from the stack as one 16-byte load right after its fields were stored one by one: the
// store could not be forwarded, and that wait was a tenth of the 9x9 stencil's run.)
class L2EventVector {
public:
    L2EventVector() = default;
    L2EventVector(const L2EventVector& other) { *this = other; }
    L2EventVector& operator=(const L2EventVector& other) {
        if (this != &other) {
            clear();
            reserve(other.size_);
            if (other.size_) std::memcpy(data_, other.data_, other.size_ * sizeof(L2Event));
            size_ = other.size_;
        }
        return *this;
    }
    ~L2EventVector() { std::free(data_); }

    [[gnu::always_inline]] void push_back(const L2Event& e) {
        if (size_ == capacity_) [[unlikely]] grow();
        data_[size_++] = e;
    }
    void reserve(std::size_t n) {
        if (n <= capacity_) return;
        void* grown = std::realloc(data_, n * sizeof(L2Event));
        if (!grown) throw std::bad_alloc();
        data_ = static_cast<L2Event*>(grown);
        capacity_ = n;
    }
    void clear() { size_ = 0; }
    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    const L2Event& operator[](std::size_t i) const { return data_[i]; }
    const L2Event* begin() const { return data_; }
    const L2Event* end() const { return data_ + size_; }
    operator std::span<const L2Event>() const { return {data_, size_}; }

private:
    [[gnu::noinline]] void grow() { reserve(capacity_ < 64 ? 64 : 2 * capacity_); }

    L2Event* data_ = nullptr;
    std::size_t size_ = 0, capacity_ = 0;
};

// A list of events that one thread appends to while others append to their own: a host cache line
// of its own, so that the appends do not contend.
struct alignas(64) L2EventList {
    L2EventVector events;
};

}  // namespace cachesim
