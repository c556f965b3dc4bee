#include "apps/cacheviz/array_image.hpp"

#include <algorithm>

namespace cachesim::gui {

namespace {

// Texels of `elements` at `block` elements a texel, at least one.
std::uint32_t texels_of(std::uint32_t elements, std::uint64_t block) {
    return static_cast<std::uint32_t>(std::max<std::uint64_t>(1, (elements + block - 1) / block));
}

// Elements a texel along a side of `elements`: one within the limit, else as few as keep that
// side within it. Each side on its own, so that a short side keeps its elements apart.
std::uint64_t first_block(std::uint32_t elements, std::uint32_t max_texels) {
    return elements <= max_texels ? 1 : (elements + max_texels - 1) / max_texels;
}

// An image of `width` x `height` texels of `block_x` x `block_y` elements, none holding any yet.
ArrayImage empty_image(const viz::ArrayGrid& g, std::uint64_t block_x, std::uint64_t block_y) {
    ArrayImage img;
    img.per_texel_x = block_x;
    img.per_texel_y = block_y;
    img.width = texels_of(g.width, block_x);
    img.height = texels_of(g.height, block_y);
    img.u_end = static_cast<float>(g.width) / static_cast<float>(img.width * block_x);
    img.v_end = static_cast<float>(g.height) / static_cast<float>(img.height * block_y);
    img.code.assign(static_cast<std::size_t>(img.width) * img.height, 0);
    img.present.assign(img.code.size(), false);
    return img;
}

// Merges cells as recorded cells are, so that any_miss can rank their access kinds.
void merge(ArrayImage& img, std::size_t t, viz::CellCode code, bool present) {
    if (!present) return;
    img.code[t] = img.present[t] ? viz::combine_codes(img.code[t], code) : code;
    img.present[t] = true;
}

ArrayImage first_level(const viz::ArrayGrid& g, std::uint32_t max_texels) {
    max_texels = std::max<std::uint32_t>(max_texels, 1);
    ArrayImage img = empty_image(g, first_block(g.width, max_texels), first_block(g.height, max_texels));
    for (std::uint64_t e = 0; e < g.elements && e < g.cells.size(); ++e) {
        const std::uint64_t x = e % g.width, y = e / g.width;
        merge(img, static_cast<std::size_t>(y / img.per_texel_y) * img.width + x / img.per_texel_x, viz::encode(g.cells[e]), true);
    }
    return img;
}

// `fine` with its blocks twice as wide (`across`) or twice as tall.
ArrayImage coarser(const ArrayImage& fine, const viz::ArrayGrid& g, bool across) {
    ArrayImage img = empty_image(g, fine.per_texel_x * (across ? 2 : 1), fine.per_texel_y * (across ? 1 : 2));
    const std::uint32_t dx = across ? 2 : 1, dy = across ? 1 : 2;
    for (std::uint32_t y = 0; y < fine.height; ++y)
        for (std::uint32_t x = 0; x < fine.width; ++x) {
            const std::size_t t = static_cast<std::size_t>(y) * fine.width + x;
            merge(img, static_cast<std::size_t>(y / dy) * img.width + x / dx, fine.code[t], fine.present[t]);
        }
    return img;
}

// The block along one side (`per_texel`: across or down) of the finest of `levels` whose texels
// are at least a pixel along it, `elements` drawn on `pixels`; the coarsest where none is.
std::uint64_t side_block(const std::vector<ArrayImage>& levels, std::uint64_t ArrayImage::*per_texel,
                         std::uint32_t elements, float pixels) {
    std::uint64_t finest = 0, coarsest = 0;
    for (const ArrayImage& level : levels) {
        const std::uint64_t k = level.*per_texel;
        coarsest = std::max(coarsest, k);
        if (static_cast<double>(pixels) * static_cast<double>(k) >= elements && (finest == 0 || k < finest)) finest = k;
    }
    return finest ? finest : coarsest;
}

}  // namespace

ArrayImage array_image(const viz::ArrayGrid& g, std::uint32_t max_texels) {
    if (g.width == 0 || g.height == 0) return {};
    return first_level(g, max_texels);
}

std::vector<std::uint8_t> array_image_rgba(const ArrayImage& img) {
    std::vector<std::uint8_t> rgba(img.code.size() * 4, 0);
    for (std::size_t t = 0; t < img.code.size(); ++t) {
        if (!img.present[t]) continue;
        const viz::Rgba c = viz::cell_color(viz::decode(img.code[t], viz::AggregateRule::any_miss));
        rgba[t * 4] = c.r;
        rgba[t * 4 + 1] = c.g;
        rgba[t * 4 + 2] = c.b;
        rgba[t * 4 + 3] = 255;
    }
    return rgba;
}

std::vector<ArrayImage> array_image_levels(const viz::ArrayGrid& g, std::uint32_t max_texels) {
    std::vector<ArrayImage> levels;
    if (g.width == 0 || g.height == 0) return levels;
    // The first row of levels: blocks doubled across only; each further row doubles the blocks
    // of the row above down.
    levels.push_back(first_level(g, max_texels));
    while (levels.back().width > 1) levels.push_back(coarser(levels.back(), g, true));
    const std::size_t across = levels.size();
    for (std::size_t row = 0; levels.back().height > 1; row += across)
        for (std::size_t i = 0; i < across; ++i) levels.push_back(coarser(levels[row + i], g, false));
    return levels;
}

std::size_t array_level_for(const std::vector<ArrayImage>& levels, std::uint32_t elements_w, std::uint32_t elements_h,
                            float pixels_w, float pixels_h) {
    const std::uint64_t kx = side_block(levels, &ArrayImage::per_texel_x, elements_w, pixels_w);
    const std::uint64_t ky = side_block(levels, &ArrayImage::per_texel_y, elements_h, pixels_h);
    for (std::size_t i = 0; i < levels.size(); ++i)
        if (levels[i].per_texel_x == kx && levels[i].per_texel_y == ky) return i;
    return 0;
}

}  // namespace cachesim::gui
