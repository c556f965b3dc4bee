#pragma once
// Small ImGui editors for numbers and for one cache level's configuration.
#include <cstdint>

#include "sim/cache.hpp"

namespace cachesim::gui {

// Edit a number; true when it changed (on Enter or when the field loses focus). Values below
// `lo` become `lo`.
bool edit_u32(const char* label, std::uint32_t& v, std::uint32_t lo = 1);
bool edit_u64(const char* label, std::uint64_t& v);
// The thread model's cache level: enable, size, lines, sectors, ways, policy, stores.
bool level_controls(CacheConfig& c);

}  // namespace cachesim::gui
