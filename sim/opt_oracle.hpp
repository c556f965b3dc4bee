#pragma once
// Belady's OPT needs, for each lookup of a cache, when the same line is looked up next.
#include <cstdint>
#include <vector>

namespace cachesim {

// Turns a recorded lookup stream (line addresses, in order) into next-use indices, in place of
// the stream; kNeverUsedAgain where the line is not looked up again.
std::vector<std::uint64_t> next_use_from_stream(std::vector<std::uint64_t> lines);

}  // namespace cachesim
