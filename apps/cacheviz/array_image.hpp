#pragma once
// An array of the array view as the pixels of its texture: one texel per element up to
// `max_texels` a side, beyond that one texel per square block of elements, so that arrays of any
// size draw within a texture's limits; and coarser levels of that, so that the panel can draw
// texels of at least a pixel, which nearest sampling never skips (the step's few accessed
// elements would otherwise fall between pixel centres).
#include <cstdint>
#include <vector>

#include "viz/array_view.hpp"

namespace cachesim::gui {

// The largest texture side the array view asks for (OpenGL implementations give at least this).
inline constexpr std::uint32_t kMaxArrayTexels = 2048;

struct ArrayImage {
    std::uint32_t width = 0, height = 0;  // texels
    std::uint64_t per_texel = 1;          // elements a side of a texel's block
    // What of the texture the array covers (its last texels' blocks may reach past its edge).
    float u_end = 1, v_end = 1;
    std::vector<std::uint8_t> rgba;  // width x height, row-major
};

// A texel shows its block's most telling state: a fetch from memory, then from L2, then a hit,
// then where the lines live (in L1, in L2, not cached); the elements the step touches are a few
// among many, and a fetch is what the view is for. A folded 1D array's padding stays transparent.
ArrayImage array_image(const viz::ArrayGrid& grid, std::uint32_t max_texels = kMaxArrayTexels);

// array_image's, then each next level of blocks twice as large a side, down to one texel.
std::vector<ArrayImage> array_image_levels(const viz::ArrayGrid& grid, std::uint32_t max_texels = kMaxArrayTexels);

// The finest of `levels` whose texels are at least a pixel a side when the array (`elements_w` x
// `elements_h`) is drawn `pixels_w` x `pixels_h`; the coarsest when none is.
std::size_t array_level_for(const std::vector<ArrayImage>& levels, std::uint32_t elements_w, std::uint32_t elements_h,
                            float pixels_w, float pixels_h);

}  // namespace cachesim::gui
