#pragma once
// How a cell that stands for several recorded cells (a PNG pixel, a GUI texel) is coloured: the
// aggregation rule, the miss-density scale, colouring by SM or by hit source, and the miss-rate
// strip's scale.
// Shared by the PNG renderer (render.cpp) and cacheviz's texture, so that both show one picture.
#include <cstdint>
#include <string>
#include <vector>

#include "viz/canvas.hpp"
#include "viz/cell_state.hpp"
#include "viz/miss_record.hpp"
#include "viz/tag_grid.hpp"

namespace cachesim::viz {

struct CellColouring {
    AggregateRule rule = AggregateRule::priority;  // the rule in effect
    bool density = false;                          // pixels with L1 fetches take the density ramp
    ColourBy by = ColourBy::state;                 // tagged pixels take their tag's colour
    double density_min = 0, density_max = 0;       // the ramp's ends (misses per step x line)

    // `requested`: the user's rule; `aggregated`: some pixel shows more than one recorded cell
    // (otherwise every rule shows the state colours: one cell's density is its state); `by`:
    // what tags colour the cells (state where the diagram has none recorded).
    static CellColouring choose(AggregateRule requested, bool aggregated, ColourBy by);
    // Other states are muted while the ramp or the tags are shown.
    bool muted() const { return density || by != ColourBy::state; }
    // A pixel holding `code` is coloured by its tag: an accessed one by its SM, one with an L1
    // hit by the hit's source (unless a fetch wins it: the any-miss rule).
    bool wants_tag(CellCode code) const;
    // Position on the ramp, log scale from density_min (0) to density_max (1).
    double ramp_position(double density) const;
    // `code`: the cell's CellCode; `density`: its misses per (step x line) cell (density rule
    // only); `tag`: its TagGrid tag (0: none), read only where wants_tag(code).
    Rgba colour(CellCode code, double density, std::uint8_t tag) const;
};

// A muted state's legend label while the ramp (`density`) or tags (`by`) are shown: an accessed
// cell without a tag is one whose SM or hit source was not recorded (stores have their own
// state). Shared by the PNG and the GUI.
std::string muted_state_label(CellState s, ColourBy by, bool density);

// Misses per (step x line) cell of a block of counts; a fetch the counts do not hold (a
// hand-built diagram) counts as one.
inline double miss_density(const MissCounts::Sum& sum) {
    return sum.cells ? static_cast<double>(sum.misses ? sum.misses : 1) / static_cast<double>(sum.cells) : 1.0;
}

// The tag most of the tagged base cells in [c0, c1) x [b0, b1) hold (0: none; ties: the lower
// tag). `votes`: 256 zeros, left zeroed. With `max_side` > 0 at most max_side evenly spaced
// columns and rows are read (a bounded sample for a large block).
std::uint8_t majority_tag(const TagGrid& g, std::uint64_t c0, std::uint64_t c1, std::uint64_t b0, std::uint64_t b1,
                         std::vector<std::uint32_t>& votes, std::uint64_t max_side = 0);

// The miss-rate strip: its top edge for the highest rate shown (rounded up to 1, 2, 5, 10, 20,
// 50 or 100 %), each level's colour (L1 red, L2 orange) and its legend line.
double strip_top_rate(double highest);
Rgba strip_level_colour(std::size_t level);
std::string strip_level_label(const MissRateSeries& series, std::size_t level);

}  // namespace cachesim::viz
