// The array view's texture pixels (apps/cacheviz/array_image.hpp): one texel per element up to
// the limit, beyond it one texel per square block, whose colour is the block's fetch, then hit,
// then residency, and whose texture part covers exactly the array; the coarser levels, and the
// level whose texels are at least a pixel. Grids made up by hand.
#include <gtest/gtest.h>

#include <vector>

#include "apps/cacheviz/array_image.hpp"
#include "viz/cell_state.hpp"

using cachesim::gui::array_image;
using cachesim::gui::array_image_levels;
using cachesim::gui::array_level_for;
using cachesim::gui::ArrayImage;
using cachesim::viz::ArrayGrid;
using cachesim::viz::CellState;
using cachesim::viz::Rgba;

namespace {

ArrayGrid grid(std::uint32_t w, std::uint32_t h, CellState fill = CellState::not_cached) {
    ArrayGrid g;
    g.name = "a";
    g.width = w;
    g.height = h;
    g.elements = static_cast<std::uint64_t>(w) * h;
    g.cells.assign(g.elements, fill);
    return g;
}

Rgba texel(const ArrayImage& img, std::uint32_t x, std::uint32_t y) {
    const std::size_t i = (static_cast<std::size_t>(y) * img.width + x) * 4;
    return {img.rgba[i], img.rgba[i + 1], img.rgba[i + 2], img.rgba[i + 3]};
}

}  // namespace

// Within the limit every element is its own texel in its state's colour.
TEST(CachevizArrayImage, SmallArrayOneTexelPerElement) {
    ArrayGrid g = grid(3, 2);
    g.cells = {CellState::accessed, CellState::fetched_from_memory, CellState::fetched_from_l2,
               CellState::in_l1,    CellState::in_l2,               CellState::not_cached};
    const ArrayImage img = array_image(g, 4);
    EXPECT_EQ(img.per_texel, 1u);
    EXPECT_EQ(img.width, 3u);
    EXPECT_EQ(img.height, 2u);
    EXPECT_FLOAT_EQ(img.u_end, 1.0f);
    EXPECT_FLOAT_EQ(img.v_end, 1.0f);
    for (std::uint32_t y = 0; y < 2; ++y)
        for (std::uint32_t x = 0; x < 3; ++x) EXPECT_EQ(texel(img, x, y), cell_color(g.at(x, y))) << x << "," << y;
}

// One element past the limit: blocks of 2 x 2 elements, ceil(9 / 2) = 5 texels down, and the
// array covers 9 of the 10 element rows the texels span.
TEST(CachevizArrayImage, TallArrayIsScaledToTheLimit) {
    ArrayGrid g = grid(1, 9, CellState::in_l1);
    g.cells[8] = CellState::not_cached;   // the last texel's block holds only this element
    g.cells[3] = CellState::accessed;     // block 1 (elements 2, 3): the hit beats residency
    g.cells[4] = CellState::fetched_from_l2;
    g.cells[5] = CellState::accessed;     // block 2 (elements 4, 5): the fetch beats the hit
    const ArrayImage img = array_image(g, 8);
    EXPECT_EQ(img.per_texel, 2u);
    EXPECT_EQ(img.width, 1u);
    EXPECT_EQ(img.height, 5u);
    EXPECT_FLOAT_EQ(img.u_end, 0.5f);
    EXPECT_FLOAT_EQ(img.v_end, 0.9f);
    EXPECT_EQ(texel(img, 0, 0), cell_color(CellState::in_l1));
    EXPECT_EQ(texel(img, 0, 1), cell_color(CellState::accessed));
    EXPECT_EQ(texel(img, 0, 2), cell_color(CellState::fetched_from_l2));
    EXPECT_EQ(texel(img, 0, 3), cell_color(CellState::in_l1));
    EXPECT_EQ(texel(img, 0, 4), cell_color(CellState::not_cached));
}

// The array view's default limit: a 2,049-row array gets 1,025 texel rows of 2 x 2 elements; a
// 5,000 x 3 array blocks of 3 (5,000 / 2,048 rounded up), 1,667 x 1 texels.
TEST(CachevizArrayImage, DefaultLimitKeepsTexturesWithin2048) {
    const ArrayImage tall = array_image(grid(1, 2049));
    EXPECT_EQ(tall.per_texel, 2u);
    EXPECT_EQ(tall.height, 1025u);
    const ArrayImage wide = array_image(grid(5000, 3, CellState::in_l2));
    EXPECT_EQ(wide.per_texel, 3u);
    EXPECT_EQ(wide.width, 1667u);
    EXPECT_EQ(wide.height, 1u);
    EXPECT_EQ(texel(wide, 1666, 0), cell_color(CellState::in_l2));  // elements 4,998 and 4,999 of each row
    const ArrayImage exact = array_image(grid(2048, 2048));
    EXPECT_EQ(exact.per_texel, 1u);
}

// A folded 1D array's padding (cells past its elements) stays transparent, also in a block that
// holds no element; a block with one element takes that element's colour.
TEST(CachevizArrayImage, FoldedPaddingStaysTransparent) {
    ArrayGrid g = grid(4, 4, CellState::in_l1);
    g.folded = true;
    g.elements = 9;  // rows 0 and 1, and element 8 of row 2
    const ArrayImage img = array_image(g, 2);
    ASSERT_EQ(img.width, 2u);
    ASSERT_EQ(img.height, 2u);
    EXPECT_EQ(texel(img, 0, 1), cell_color(CellState::in_l1));  // element 8 alone
    EXPECT_EQ(texel(img, 1, 1).a, 0);                          // elements 10, 11, 14, 15: padding
    EXPECT_EQ(texel(img, 1, 0), cell_color(CellState::in_l1));
}

// Each level halves the texels a side, down to one: a 1 x 9 column at a limit of 8 has blocks of
// 2 (5 texels), 4 (3), 8 (2) and 16 (1) elements; a block shows its fetch wherever it merges one.
TEST(CachevizArrayImage, LevelsDownToOneTexel) {
    ArrayGrid g = grid(1, 9, CellState::in_l2);
    g.cells[6] = CellState::fetched_from_memory;
    g.cells[7] = CellState::accessed;
    const std::vector<ArrayImage> levels = array_image_levels(g, 8);
    ASSERT_EQ(levels.size(), 4u);
    const std::uint32_t heights[] = {5, 3, 2, 1};
    for (std::size_t i = 0; i < levels.size(); ++i) {
        EXPECT_EQ(levels[i].per_texel, 2u << i) << i;
        EXPECT_EQ(levels[i].width, 1u) << i;
        EXPECT_EQ(levels[i].height, heights[i]) << i;
        EXPECT_FLOAT_EQ(levels[i].v_end, 9.0f / static_cast<float>(heights[i] * (2u << i))) << i;
    }
    // Element 6 is in block 3 of 2, block 1 of 4, block 0 of 8 and of 16.
    EXPECT_EQ(texel(levels[0], 0, 3), cell_color(CellState::fetched_from_memory));
    EXPECT_EQ(texel(levels[0], 0, 2), cell_color(CellState::in_l2));
    EXPECT_EQ(texel(levels[1], 0, 1), cell_color(CellState::fetched_from_memory));
    EXPECT_EQ(texel(levels[1], 0, 2), cell_color(CellState::in_l2));
    EXPECT_EQ(texel(levels[2], 0, 0), cell_color(CellState::fetched_from_memory));
    EXPECT_EQ(texel(levels[2], 0, 1), cell_color(CellState::in_l2));
    EXPECT_EQ(texel(levels[3], 0, 0), cell_color(CellState::fetched_from_memory));
}

// The finest level whose texel spans at least a pixel: 9 rows on 4.5 pixels or more take blocks
// of 2 (the finest there is), on 2.25 to 4 pixels blocks of 4, on 2 pixels blocks of 8 (4.5 rows
// a pixel), and on half a pixel, where no level's texel reaches a pixel, the coarsest.
TEST(CachevizArrayImage, DrawnLevelHasTexelsOfAtLeastAPixel) {
    const std::vector<ArrayImage> levels = array_image_levels(grid(1, 9), 8);
    EXPECT_EQ(array_level_for(levels, 1, 9, 1, 20), 0u);
    EXPECT_EQ(array_level_for(levels, 1, 9, 1, 4.5f), 0u);
    EXPECT_EQ(array_level_for(levels, 1, 9, 1, 4), 1u);
    EXPECT_EQ(array_level_for(levels, 1, 9, 1, 2.25f), 1u);
    EXPECT_EQ(array_level_for(levels, 1, 9, 1, 2), 2u);
    EXPECT_EQ(array_level_for(levels, 1, 9, 1, 0.5f), 3u);
}
