#include "apps/cacheviz/array_image.hpp"

#include <algorithm>

#include "viz/cell_state.hpp"

namespace cachesim::gui {

namespace {

// A level's blocks merged as recorded cells are, so that any_miss can rank their access kinds.
struct Codes {
    std::uint32_t width = 0, height = 0;
    std::uint64_t per_texel = 1;
    std::vector<viz::CellCode> code;
    std::vector<bool> present;  // the block holds an element (not only a folded array's padding)
};

ArrayImage colour(const Codes& c, const viz::ArrayGrid& g) {
    ArrayImage img;
    img.width = c.width;
    img.height = c.height;
    img.per_texel = c.per_texel;
    img.u_end = static_cast<float>(g.width) / static_cast<float>(c.width * c.per_texel);
    img.v_end = static_cast<float>(g.height) / static_cast<float>(c.height * c.per_texel);
    img.rgba.assign(c.code.size() * 4, 0);
    for (std::size_t t = 0; t < c.code.size(); ++t) {
        if (!c.present[t]) continue;
        const viz::Rgba rgba = viz::cell_color(viz::decode(c.code[t], viz::AggregateRule::any_miss));
        img.rgba[t * 4] = rgba.r;
        img.rgba[t * 4 + 1] = rgba.g;
        img.rgba[t * 4 + 2] = rgba.b;
        img.rgba[t * 4 + 3] = 255;
    }
    return img;
}

void merge(Codes& c, std::size_t t, viz::CellCode code, bool present) {
    if (!present) return;
    c.code[t] = c.present[t] ? viz::combine_codes(c.code[t], code) : code;
    c.present[t] = true;
}

Codes first_level(const viz::ArrayGrid& g, std::uint32_t max_texels) {
    Codes c;
    const std::uint32_t side = std::max(g.width, g.height);
    max_texels = std::max<std::uint32_t>(max_texels, 1);
    c.per_texel = side <= max_texels ? 1 : (side + max_texels - 1) / max_texels;
    const std::uint32_t k = static_cast<std::uint32_t>(c.per_texel);
    c.width = std::max<std::uint32_t>(1, (g.width + k - 1) / k);
    c.height = std::max<std::uint32_t>(1, (g.height + k - 1) / k);
    c.code.assign(static_cast<std::size_t>(c.width) * c.height, 0);
    c.present.assign(c.code.size(), false);
    for (std::uint64_t e = 0; e < g.elements && e < g.cells.size(); ++e) {
        const auto x = static_cast<std::uint32_t>(e % g.width), y = static_cast<std::uint32_t>(e / g.width);
        merge(c, static_cast<std::size_t>(y / k) * c.width + x / k, viz::encode(g.cells[e]), true);
    }
    return c;
}

}  // namespace

ArrayImage array_image(const viz::ArrayGrid& g, std::uint32_t max_texels) {
    if (g.width == 0 || g.height == 0) return {};
    return colour(first_level(g, max_texels), g);
}

std::vector<ArrayImage> array_image_levels(const viz::ArrayGrid& g, std::uint32_t max_texels) {
    std::vector<ArrayImage> levels;
    if (g.width == 0 || g.height == 0) return levels;
    Codes c = first_level(g, max_texels);
    levels.push_back(colour(c, g));
    while (c.width > 1 || c.height > 1) {
        Codes next;
        next.width = (c.width + 1) / 2;
        next.height = (c.height + 1) / 2;
        next.per_texel = c.per_texel * 2;
        next.code.assign(static_cast<std::size_t>(next.width) * next.height, 0);
        next.present.assign(next.code.size(), false);
        for (std::uint32_t y = 0; y < c.height; ++y)
            for (std::uint32_t x = 0; x < c.width; ++x) {
                const std::size_t t = static_cast<std::size_t>(y) * c.width + x;
                merge(next, static_cast<std::size_t>(y / 2) * next.width + x / 2, c.code[t], c.present[t]);
            }
        c = std::move(next);
        levels.push_back(colour(c, g));
    }
    return levels;
}

std::size_t array_level_for(const std::vector<ArrayImage>& levels, std::uint32_t elements_w, std::uint32_t elements_h,
                            float pixels_w, float pixels_h) {
    for (std::size_t i = 0; i < levels.size(); ++i) {
        const auto k = static_cast<double>(levels[i].per_texel);
        if (pixels_w * k >= elements_w && pixels_h * k >= elements_h) return i;
    }
    return levels.empty() ? 0 : levels.size() - 1;
}

}  // namespace cachesim::gui
