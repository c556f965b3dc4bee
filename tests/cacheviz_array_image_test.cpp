// The array view's texture pixels (apps/cacheviz/array_image.hpp): one texel per element up to
// the limit, beyond it one texel per block, each side's block as long as that side needs, whose
// colour is the block's fetch, then hit, then residency, and whose texture part covers exactly the
// array; the coarser levels, each side coarsened on its own, and the level whose texels are at
// least a pixel along each side. Grids made up by hand.
#include <gtest/gtest.h>

#include <vector>

#include "apps/cacheviz/array_image.hpp"
#include "viz/cell_state.hpp"

using cachesim::gui::array_image;
using cachesim::gui::array_image_rgba;
using cachesim::gui::array_image_levels;
using cachesim::gui::array_level_for;
using cachesim::gui::ArrayImage;
using cachesim::viz::ArrayGrid;
using cachesim::viz::CellState;
using cachesim::viz::DrawnAxis;
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
    const std::vector<std::uint8_t> rgba = array_image_rgba(img);
    const std::size_t i = (static_cast<std::size_t>(y) * img.width + x) * 4;
    return {rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3]};
}

}  // namespace

// Within the limit every element is its own texel in its state's colour.
TEST(CachevizArrayImage, SmallArrayOneTexelPerElement) {
    ArrayGrid g = grid(3, 2);
    g.cells = {CellState::accessed, CellState::fetched_from_memory, CellState::fetched_from_l2,
               CellState::in_l1,    CellState::in_l2,               CellState::not_cached};
    const ArrayImage img = array_image(g, 4);
    EXPECT_EQ(img.per_texel_x, 1u);
    EXPECT_EQ(img.per_texel_y, 1u);
    EXPECT_EQ(img.width, 3u);
    EXPECT_EQ(img.height, 2u);
    EXPECT_FLOAT_EQ(img.u_end, 1.0f);
    EXPECT_FLOAT_EQ(img.v_end, 1.0f);
    for (std::uint32_t y = 0; y < 2; ++y)
        for (std::uint32_t x = 0; x < 3; ++x) EXPECT_EQ(texel(img, x, y), cell_color(g.at(x, y))) << x << "," << y;
}

// One element past the limit down: blocks of 1 x 2 elements (the one column needs no scaling),
// ceil(9 / 2) = 5 texels down, and the array covers 9 of the 10 element rows the texels span.
TEST(CachevizArrayImage, TallArrayIsScaledToTheLimit) {
    ArrayGrid g = grid(1, 9, CellState::in_l1);
    g.cells[8] = CellState::not_cached;   // the last texel's block holds only this element
    g.cells[3] = CellState::accessed;     // block 1 (elements 2, 3): the hit beats residency
    g.cells[4] = CellState::fetched_from_l2;
    g.cells[5] = CellState::accessed;     // block 2 (elements 4, 5): the fetch beats the hit
    const ArrayImage img = array_image(g, 8);
    EXPECT_EQ(img.per_texel_x, 1u);
    EXPECT_EQ(img.per_texel_y, 2u);
    EXPECT_EQ(img.width, 1u);
    EXPECT_EQ(img.height, 5u);
    EXPECT_FLOAT_EQ(img.u_end, 1.0f);
    EXPECT_FLOAT_EQ(img.v_end, 0.9f);
    EXPECT_EQ(texel(img, 0, 0), cell_color(CellState::in_l1));
    EXPECT_EQ(texel(img, 0, 1), cell_color(CellState::accessed));
    EXPECT_EQ(texel(img, 0, 2), cell_color(CellState::fetched_from_l2));
    EXPECT_EQ(texel(img, 0, 3), cell_color(CellState::in_l1));
    EXPECT_EQ(texel(img, 0, 4), cell_color(CellState::not_cached));
}

// The array view's default limit: a 2,049-row array gets 1,025 texel rows of 1 x 2 elements; a
// 2,048 x 2,048 array one texel per element.
TEST(CachevizArrayImage, DefaultLimitKeepsTexturesWithin2048) {
    const ArrayImage tall = array_image(grid(1, 2049));
    EXPECT_EQ(tall.per_texel_x, 1u);
    EXPECT_EQ(tall.per_texel_y, 2u);
    EXPECT_EQ(tall.width, 1u);
    EXPECT_EQ(tall.height, 1025u);
    const ArrayImage exact = array_image(grid(2048, 2048));
    EXPECT_EQ(exact.per_texel_x, 1u);
    EXPECT_EQ(exact.per_texel_y, 1u);
}

// A 5,000 x 3 array is scaled along its long side only: blocks of 3 x 1 (5,000 / 2,048 rounded
// up, and 3 rows within the limit), 1,667 x 3 texels, the last column of blocks reaching one
// element past the array (5,000 of 5,001). Each row keeps its own state.
TEST(CachevizArrayImage, LongSideScaledShortSideKept) {
    ArrayGrid g = grid(5000, 3);
    for (std::uint32_t x = 0; x < 5000; ++x) {
        g.cells[x] = CellState::in_l1;
        g.cells[5000 + x] = CellState::in_l2;
    }
    g.cells[2 * 5000 + 4999] = CellState::fetched_from_memory;  // the last element of row 2
    const ArrayImage img = array_image(g);
    EXPECT_EQ(img.per_texel_x, 3u);
    EXPECT_EQ(img.per_texel_y, 1u);
    EXPECT_EQ(img.width, 1667u);
    EXPECT_EQ(img.height, 3u);
    EXPECT_FLOAT_EQ(img.u_end, 5000.0f / 5001.0f);
    EXPECT_FLOAT_EQ(img.v_end, 1.0f);
    EXPECT_EQ(texel(img, 0, 0), cell_color(CellState::in_l1));
    EXPECT_EQ(texel(img, 0, 1), cell_color(CellState::in_l2));
    EXPECT_EQ(texel(img, 0, 2), cell_color(CellState::not_cached));
    EXPECT_EQ(texel(img, 1666, 1), cell_color(CellState::in_l2));  // elements 4,998 and 4,999 of row 1
    EXPECT_EQ(texel(img, 1666, 2), cell_color(CellState::fetched_from_memory));
    EXPECT_EQ(texel(img, 1665, 2), cell_color(CellState::not_cached));
}

// A square array past the limit is scaled along both sides alike: 4,096 x 4,096 in blocks of
// 2 x 2, 2,048 x 2,048 texels; element (4095, 4094) falls in texel (2047, 2047) only.
TEST(CachevizArrayImage, SquareArrayScaledOnBothSides) {
    ArrayGrid g = grid(4096, 4096, CellState::in_l1);
    g.cells[static_cast<std::size_t>(4094) * 4096 + 4095] = CellState::fetched_from_l2;
    const ArrayImage img = array_image(g);
    EXPECT_EQ(img.per_texel_x, 2u);
    EXPECT_EQ(img.per_texel_y, 2u);
    EXPECT_EQ(img.width, 2048u);
    EXPECT_EQ(img.height, 2048u);
    EXPECT_FLOAT_EQ(img.u_end, 1.0f);
    EXPECT_FLOAT_EQ(img.v_end, 1.0f);
    EXPECT_EQ(texel(img, 2047, 2047), cell_color(CellState::fetched_from_l2));
    EXPECT_EQ(texel(img, 2047, 2046), cell_color(CellState::in_l1));
    EXPECT_EQ(texel(img, 2046, 2047), cell_color(CellState::in_l1));
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

// Each level halves the texels along a side, down to one: a 1 x 9 column at a limit of 8 has
// blocks of 1 across and 2 (5 texels), 4 (3), 8 (2) and 16 (1) elements down; a block shows its fetch wherever it merges one.
TEST(CachevizArrayImage, LevelsDownToOneTexel) {
    ArrayGrid g = grid(1, 9, CellState::in_l2);
    g.cells[6] = CellState::fetched_from_memory;
    g.cells[7] = CellState::accessed;
    const std::vector<ArrayImage> levels = array_image_levels(g, 8);
    ASSERT_EQ(levels.size(), 4u);
    const std::uint32_t heights[] = {5, 3, 2, 1};
    for (std::size_t i = 0; i < levels.size(); ++i) {
        EXPECT_EQ(levels[i].per_texel_x, 1u) << i;
        EXPECT_EQ(levels[i].per_texel_y, 2u << i) << i;
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

// Each side is coarsened on its own: an 8 x 2 array has blocks of 1, 2, 4 and 8 across (8, 4, 2,
// 1 texels) by 1 and 2 down (2, 1 texels), level (i, j) at j * 4 + i; the drawn level takes each
// side's finest block whose texel reaches a pixel: on 2 x 8 pixels 4 across (2 x 4 = 8 elements)
// and 1 down, on 8 x 1 pixels 1 across and 2 down, on half a pixel each way the coarsest.
TEST(CachevizArrayImage, LevelsCoarsenEachSideOnItsOwn) {
    const std::vector<ArrayImage> levels = array_image_levels(grid(8, 2), 8);
    ASSERT_EQ(levels.size(), 8u);
    for (std::size_t j = 0; j < 2; ++j)
        for (std::size_t i = 0; i < 4; ++i) {
            const ArrayImage& l = levels[j * 4 + i];
            EXPECT_EQ(l.per_texel_x, 1u << i) << i << "," << j;
            EXPECT_EQ(l.per_texel_y, 1u << j) << i << "," << j;
            EXPECT_EQ(l.width, 8u >> i) << i << "," << j;
            EXPECT_EQ(l.height, 2u >> j) << i << "," << j;
        }
    EXPECT_EQ(array_level_for(levels, 8, 2, 2, 8), 2u);
    EXPECT_EQ(array_level_for(levels, 8, 2, 8, 1), 4u);
    EXPECT_EQ(array_level_for(levels, 8, 2, 0.5f, 0.5f), 7u);
}

// A 1,024 x 2 array drawn as the PNG draws it, 500 x 8 pixels (its two rows thickened to 8 px):
// across, 1,024 elements on 500 pixels need blocks of 4 (2 would be 1,000 pixels' worth), down,
// 2 rows on 8 pixels need none, so the drawn level is 256 x 2 texels and both rows stay apart.
// Sampled at each pixel's centre, as nearest sampling does, pixel rows 0-3 show element row 0 and
// 4-7 row 1, the rows the PNG's axis (viz::DrawnAxis) puts there; element (700, 1)'s fetch is in
// texel (175, 1) only.
TEST(CachevizArrayImage, ThinArrayKeepsItsRowsWhereThePngDoes) {
    ArrayGrid g = grid(1024, 2, CellState::in_l1);
    for (std::uint32_t x = 0; x < 1024; ++x) g.cells[1024 + x] = CellState::not_cached;
    g.cells[1024 + 700] = CellState::fetched_from_memory;
    const std::vector<ArrayImage> levels = array_image_levels(g);
    const ArrayImage& img = levels[array_level_for(levels, 1024, 2, 500, 8)];
    EXPECT_EQ(img.per_texel_x, 4u);
    EXPECT_EQ(img.per_texel_y, 1u);
    ASSERT_EQ(img.width, 256u);
    ASSERT_EQ(img.height, 2u);
    const DrawnAxis down{2, 8};
    for (int py = 0; py < 8; ++py) {
        const auto row = static_cast<std::uint32_t>((py + 0.5) / 8 * img.v_end * img.height);
        EXPECT_EQ(row, py < 4 ? 0u : 1u) << py;
        EXPECT_EQ(row, down.elements_of(py).first) << py;
        EXPECT_EQ(texel(img, 0, row), cell_color(py < 4 ? CellState::in_l1 : CellState::not_cached)) << py;
    }
    EXPECT_EQ(texel(img, 175, 1), cell_color(CellState::fetched_from_memory));
    EXPECT_EQ(texel(img, 175, 0), cell_color(CellState::in_l1));
    EXPECT_EQ(texel(img, 174, 1), cell_color(CellState::not_cached));
    // Only where the rows share a pixel do they share a texel: on 1 pixel, blocks of 2 down.
    const ArrayImage& flat = levels[array_level_for(levels, 1024, 2, 500, 1)];
    EXPECT_EQ(flat.per_texel_y, 2u);
    EXPECT_EQ(flat.height, 1u);
}
