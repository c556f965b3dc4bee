#pragma once
// Thread schedules: map a launch index t (0 .. Iw*Ih-1) to a work item j = y*Iw + x.
// Plain structs and __host__ __device__ functions only, so CUDA kernels include this unchanged.
#include <cstdint>

#include "traces/hd.hpp"

namespace cachesim {

enum class ScheduleKind : std::uint8_t { linear, column, zigzag, tiled, morton };

struct Schedule {
    ScheduleKind kind = ScheduleKind::linear;
    std::uint32_t width = 0;        // column / zigzag width W, or tile width
    std::uint32_t tile_height = 0;  // tiled only
};

struct GridPos {
    std::uint32_t x;
    std::uint32_t y;
};

// Column-based iteration, thesis eq. 4.1-4.6; zigzag reverses odd rows inside a column.
CACHESIM_HD GridPos column_position(std::uint64_t t, std::uint32_t iw, std::uint32_t ih,
                                    std::uint32_t w, bool zigzag) {
    const std::uint64_t column_size = static_cast<std::uint64_t>(w) * ih;
    const std::uint64_t column_index = t / column_size;
    const std::uint64_t offset = column_index * w;                 // eq. 4.1
    const std::uint64_t remaining = iw - offset;
    const std::uint64_t width = remaining < w ? remaining : w;     // eq. 4.2, last column narrower
    const std::uint64_t inside = t - column_index * column_size;  // eq. 4.3 (t mod Ih*w, w full)
    std::uint64_t x = inside % width;                              // eq. 4.4
    const std::uint64_t y = inside / width;                        // eq. 4.5
    if (zigzag && (y & 1u)) x = width - 1 - x;                     // reversed row stays in column
    return {static_cast<std::uint32_t>(offset + x), static_cast<std::uint32_t>(y)};
}

// Tiles in row-major order, row-major inside a tile; edge tiles are cut short.
CACHESIM_HD GridPos tiled_position(std::uint64_t t, std::uint32_t iw, std::uint32_t ih,
                                   std::uint32_t tw, std::uint32_t th) {
    const std::uint64_t band_size = static_cast<std::uint64_t>(th) * iw;  // one row of tiles
    const std::uint64_t band = t / band_size;
    const std::uint64_t band_y = band * th;
    const std::uint64_t band_h = (ih - band_y) < th ? (ih - band_y) : th;
    const std::uint64_t in_band = t - band * band_size;
    const std::uint64_t full_tile = static_cast<std::uint64_t>(tw) * band_h;
    const std::uint64_t tile = in_band / full_tile;
    const std::uint64_t tile_x = tile * tw;
    const std::uint64_t tile_w = (iw - tile_x) < tw ? (iw - tile_x) : tw;
    const std::uint64_t in_tile = in_band - tile * full_tile;
    return {static_cast<std::uint32_t>(tile_x + in_tile % tile_w),
            static_cast<std::uint32_t>(band_y + in_tile / tile_w)};
}

// Number of grid cells inside the square [x0, x0+side) x [y0, y0+side), clipped to the grid.
CACHESIM_HD std::uint64_t clipped_area(std::uint64_t x0, std::uint64_t y0, std::uint64_t side,
                                       std::uint32_t iw, std::uint32_t ih) {
    if (x0 >= iw || y0 >= ih) return 0;
    const std::uint64_t w = (iw - x0) < side ? (iw - x0) : side;
    const std::uint64_t h = (ih - y0) < side ? (ih - y0) : side;
    return w * h;
}

// Z-order (Morton) curve over the bounding power-of-two square, skipping cells outside the grid.
// The t-th valid cell is found by descending the quad tree, counting valid cells per quadrant.
CACHESIM_HD GridPos morton_position(std::uint64_t t, std::uint32_t iw, std::uint32_t ih) {
    std::uint64_t side = 1;
    while (side < iw || side < ih) side <<= 1;
    std::uint64_t x0 = 0, y0 = 0;
    while (side > 1) {
        const std::uint64_t half = side >> 1;
        for (int q = 0; q < 4; ++q) {
            const std::uint64_t qx = x0 + (q & 1 ? half : 0);
            const std::uint64_t qy = y0 + (q & 2 ? half : 0);
            const std::uint64_t cells = clipped_area(qx, qy, half, iw, ih);
            if (t < cells || q == 3) {
                x0 = qx;
                y0 = qy;
                break;
            }
            t -= cells;
        }
        side = half;
    }
    return {static_cast<std::uint32_t>(x0), static_cast<std::uint32_t>(y0)};
}

CACHESIM_HD GridPos schedule_position(const Schedule& s, std::uint64_t t, std::uint32_t iw,
                                      std::uint32_t ih) {
    switch (s.kind) {
        case ScheduleKind::column: return column_position(t, iw, ih, s.width, false);
        case ScheduleKind::zigzag: return column_position(t, iw, ih, s.width, true);
        case ScheduleKind::tiled: return tiled_position(t, iw, ih, s.width, s.tile_height);
        case ScheduleKind::morton: return morton_position(t, iw, ih);
        case ScheduleKind::linear:
        default:
            return {static_cast<std::uint32_t>(t % iw), static_cast<std::uint32_t>(t / iw)};
    }
}

// The work item j = y*Iw + x that launch index t runs.
CACHESIM_HD std::uint64_t schedule_map(const Schedule& s, std::uint64_t t, std::uint32_t iw,
                                       std::uint32_t ih) {
    const GridPos p = schedule_position(s, t, iw, ih);
    return static_cast<std::uint64_t>(p.y) * iw + p.x;
}

}  // namespace cachesim
