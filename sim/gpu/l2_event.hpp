#pragma once
// The port between an SM front end and the L2 system: what an SM sends to the L2, recorded in
// order while the SM runs on its own and replayed by the L2 afterwards.
#include <cstdint>
#include <vector>

namespace cachesim {

enum class L2EventKind : std::uint8_t { load, store_partial, store_full };

struct L2Event {
    std::uint64_t address;  // loads: the L1 sector's address; stores: the L2 sector id
    std::uint32_t round;    // round within the chunk (0 when replayed at once)
    std::uint16_t array;
    L2EventKind kind;
};
static_assert(sizeof(L2Event) == 16, "events are buffered by the million: keep them small");

// A list of events that one thread appends to while others append to their own: a host cache line
// of its own, so that the appends do not contend.
struct alignas(64) L2EventList {
    std::vector<L2Event> events;
};

}  // namespace cachesim
