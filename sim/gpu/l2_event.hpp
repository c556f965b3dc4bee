#pragma once
// The port between an SM front end and the L2 system: what an SM sends to the L2, recorded in
// order while the SM runs on its own and replayed by the L2 afterwards.
#include <cstdint>

#include "sim/gpu/pod_vector.hpp"

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

// An SM's events, appended where they are made (pod_vector.hpp).
using L2EventVector = PodVector<L2Event>;

// A list of events that one thread appends to while others append to their own: a host cache line
// of its own, so that the appends do not contend.
struct alignas(64) L2EventList {
    L2EventVector events;
};

}  // namespace cachesim
