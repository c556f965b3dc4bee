#pragma once
#include <cstdint>

#include "traces/hd.hpp"

namespace cachesim {

// One memory access of one thread: byte address, size, direction and the array it belongs to.
struct Access {
    std::uint64_t address = 0;
    std::uint32_t size = 4;
    std::uint16_t array = 0;  // index into the source's array table; 0 for plain traces
    bool is_write = false;
};

}  // namespace cachesim
