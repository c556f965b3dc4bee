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
//   stored               stored to in this step at an L1 that does not allocate on stores
//                        (write-through): the store goes on below, so it is no L1 hit
//   in_l1                resident in L1 at the end of the step, not touched
//   in_l2                resident in L2 (not in L1) at the end of the step
//   not_cached           in neither
// A single cell that was both fetched and then hit again in the same step shows as fetched.
enum class CellState : std::uint8_t {
    not_cached = 0,
    in_l2 = 1,
    in_l1 = 2,
    stored = 3,
    fetched_from_l2 = 4,
    fetched_from_memory = 5,
    accessed = 6,
};
inline constexpr int kCellStateCount = 7;

// The aggregation rule: the more important state.
constexpr CellState combine(CellState a, CellState b) { return a > b ? a : b; }

// How the cells that share a pixel (or a recorded cell) are shown:
//   priority  the most important state wins (the order above: a hit hides a fetch)
//   any_miss  a fetch wins: fetched from memory > fetched from L2 > accessed > in L1 > ...
//   density   pixels holding fetches are coloured by their miss density (misses per cell,
//             render.hpp); the others as any_miss. A pixel showing at most one cell keeps its
//             state colour (the density of one cell is its state).
enum class AggregateRule : std::uint8_t { priority, any_miss, density };

// What, beside the state, colours the cells (GPU model; the diagram's TagGrids):
//   state       the palette below
//   sm          accessed cells in the colour of the SM that accessed them
//   hit_source  L1 hits in the colour of who brought the sectors they found (own warp, another
//               warp of the block, another block on the SM); fetches keep their state colours
enum class ColourBy : std::uint8_t { state, sm, hit_source };

// What a recorded cell holds, in 4 bits, so that every rule can be applied to the same
// recording: with an access, kAccessed | the access kinds seen (a union over the cells merged;
// a store no L1 served adds no kind: kAccessed alone); without, the strongest residency
// (not_cached 0, in_l2 1, in_l1 2).
using CellCode = std::uint8_t;
inline constexpr CellCode kCodeAccessed = 8;
inline constexpr CellCode kCodeHit = 1, kCodeFromL2 = 2, kCodeFromMemory = 4;

constexpr CellCode encode(CellState s) {
    switch (s) {
        case CellState::accessed: return kCodeAccessed | kCodeHit;
        case CellState::fetched_from_memory: return kCodeAccessed | kCodeFromMemory;
        case CellState::fetched_from_l2: return kCodeAccessed | kCodeFromL2;
        case CellState::stored: return kCodeAccessed;
        case CellState::in_l1: return 2;
        case CellState::in_l2: return 1;
        case CellState::not_cached: default: return 0;
    }
}

constexpr CellCode combine_codes(CellCode a, CellCode b) {
    if ((a | b) & kCodeAccessed) return static_cast<CellCode>(((a & kCodeAccessed) ? a : 0) | ((b & kCodeAccessed) ? b : 0));
    return a > b ? a : b;
}

// A cell (or a merge of cells) holds an L1 fetch.
constexpr bool has_fetch(CellCode c) { return (c & kCodeAccessed) && (c & (kCodeFromL2 | kCodeFromMemory)); }

constexpr CellState decode(CellCode c, AggregateRule rule = AggregateRule::priority) {
    if (!(c & kCodeAccessed)) return c >= 2 ? CellState::in_l1 : c == 1 ? CellState::in_l2 : CellState::not_cached;
    if (rule == AggregateRule::priority && (c & kCodeHit)) return CellState::accessed;
    if (c & kCodeFromMemory) return CellState::fetched_from_memory;
    if (c & kCodeFromL2) return CellState::fetched_from_l2;
    return (c & kCodeHit) ? CellState::accessed : CellState::stored;
}

constexpr std::string_view cell_state_name(CellState s) {
    switch (s) {
        case CellState::accessed: return "accessed (L1 hit)";
        case CellState::fetched_from_memory: return "fetched from memory";
        case CellState::fetched_from_l2: return "fetched from L2";
        case CellState::stored: return "stored (written through, no L1 hit)";
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
        case CellState::stored: return {77, 175, 74, 255};               // green
        case CellState::in_l1: return {55, 126, 184, 255};               // blue
        case CellState::in_l2: return {166, 206, 227, 255};              // light blue
        case CellState::not_cached: default: return {255, 255, 255, 255};  // white
    }
}

// Legend order: most important first.
inline constexpr std::array<CellState, kCellStateCount> kLegendOrder = {
    CellState::accessed, CellState::fetched_from_memory, CellState::fetched_from_l2, CellState::stored,
    CellState::in_l1,    CellState::in_l2,               CellState::not_cached};

}  // namespace cachesim::viz
