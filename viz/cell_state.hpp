#pragma once
// What a diagram cell (one cache line at one time step) shows, and how cells combine when many
// fall into one pixel: the most important state wins.
#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>

#include "viz/canvas.hpp"

namespace cachesim::viz {

// Ordered by importance: a larger value wins when cells are aggregated.
//   accessed             the line was accessed in this step and was already in L1 (a hit)
//   fetched_from_memory  accessed in this step, missed, and brought into L1 from memory
//   fetched_from_l2      accessed in this step, missed in L1, brought into L1 from L2 (an L2 hit)
//   in_l1                resident in L1 at the end of the step, not touched
//   in_l2                resident in L2 (not in L1) at the end of the step
//   not_cached           in neither
// A single cell that was both fetched and then hit again in the same step shows as fetched.
enum class CellState : std::uint8_t {
    not_cached = 0,
    in_l2 = 1,
    in_l1 = 2,
    fetched_from_l2 = 3,
    fetched_from_memory = 4,
    accessed = 5,
};
inline constexpr int kCellStateCount = 6;

// The aggregation rule: the more important state.
constexpr CellState combine(CellState a, CellState b) { return a > b ? a : b; }

constexpr std::string_view cell_state_name(CellState s) {
    switch (s) {
        case CellState::accessed: return "accessed (L1 hit)";
        case CellState::fetched_from_memory: return "fetched from memory";
        case CellState::fetched_from_l2: return "fetched from L2";
        case CellState::in_l1: return "in L1";
        case CellState::in_l2: return "in L2 only";
        case CellState::not_cached: default: return "not cached";
    }
}

// The documented palette (docs/gui.md, "Colour palette and legend").
constexpr Rgba cell_color(CellState s) {
    switch (s) {
        case CellState::accessed: return {20, 20, 20, 255};              // near black
        case CellState::fetched_from_memory: return {228, 26, 28, 255};  // red
        case CellState::fetched_from_l2: return {255, 152, 0, 255};      // orange
        case CellState::in_l1: return {55, 126, 184, 255};               // blue
        case CellState::in_l2: return {166, 206, 227, 255};              // light blue
        case CellState::not_cached: default: return {255, 255, 255, 255};  // white
    }
}

// Legend order: most important first.
inline constexpr std::array<CellState, kCellStateCount> kLegendOrder = {
    CellState::accessed, CellState::fetched_from_memory, CellState::fetched_from_l2,
    CellState::in_l1,    CellState::in_l2,               CellState::not_cached};

}  // namespace cachesim::viz
