#pragma once
// An array of the array view as the texels of its texture: one texel per element up to
// `max_texels` a side, beyond that one texel per block of elements, each side's block as long as
// that side needs (a 5,000 x 3 array: blocks of 3 x 1, so its three rows stay apart), so that
// arrays of any size draw within a texture's limits; and coarser levels of that, each side's
// blocks doubled independently of the other's, so that the panel can draw texels of at least a
// pixel along both sides, which nearest sampling never skips (the step's few accessed elements
// would otherwise fall between pixel centres), without merging the rows of a side drawn thick.
#include <cstdint>
#include <vector>

#include "viz/array_view.hpp"
#include "viz/cell_state.hpp"

namespace cachesim::gui {

// The largest texture side the array view asks for (OpenGL implementations give at least this).
inline constexpr std::uint32_t kMaxArrayTexels = 2048;

struct ArrayImage {
    std::uint32_t width = 0, height = 0;                   // texels
    std::uint64_t per_texel_x = 1, per_texel_y = 1;         // elements across and down a texel's block
    // What of the texture the array covers (its last texels' blocks may reach past its edge).
    float u_end = 1, v_end = 1;
    // Per texel, row-major: its block's cells merged, and whether the block holds an element
    // (not only a folded array's padding). Codes rather than colours: the levels of a large
    // array are many, and only the drawn one is coloured (array_image_rgba).
    std::vector<viz::CellCode> code;
    std::vector<bool> present;
};

// A texel shows its block's most telling state: a fetch from memory, then from L2, then a hit,
// then where the lines live (in L1, in L2, not cached); the elements the step touches are a few
// among many, and a fetch is what the view is for. A folded 1D array's padding stays transparent.
ArrayImage array_image(const viz::ArrayGrid& grid, std::uint32_t max_texels = kMaxArrayTexels);

// The texels' colours, RGBA, width x height, row-major.
std::vector<std::uint8_t> array_image_rgba(const ArrayImage& image);

// array_image's and each coarser level: blocks 2^i times array_image's across and 2^j times
// down, for every i and j down to one texel a side; level (i, j) at j * (levels across) + i, so
// the first is array_image's.
std::vector<ArrayImage> array_image_levels(const viz::ArrayGrid& grid, std::uint32_t max_texels = kMaxArrayTexels);

// The level of `levels` whose texels are the finest that are at least a pixel across and at least
// a pixel down, each side on its own, when the array (`elements_w` x `elements_h`) is drawn
// `pixels_w` x `pixels_h`; along a side where none is, the coarsest.
std::size_t array_level_for(const std::vector<ArrayImage>& levels, std::uint32_t elements_w, std::uint32_t elements_h,
                            float pixels_w, float pixels_h);

}  // namespace cachesim::gui
