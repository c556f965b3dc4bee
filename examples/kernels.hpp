#pragma once
// Example kernel bodies recorded with traces/recorder.hpp: one body each, run on the GPU by
// record_kernel_cuda and on the host by record_kernel_host (same trace bytes).
#include <cstdint>

#include "traces/recorder.hpp"

namespace cachesim::examples {

// The naive transpose: out[x][y] = in[y][x], one thread per element, 2D blocks. Reads coalesce
// along a row of `in`; the writes of a warp scatter down a column of `out`.
struct Transpose {
    const float* in;
    float* out;
    std::uint32_t width, height;  // of `in`

    template <class Rec>
    CACHESIM_HD void operator()(const ThreadIndex& t, Rec& rec) const {
        const std::uint32_t x = t.block.x * t.block_dim.x + t.thread.x;
        const std::uint32_t y = t.block.y * t.block_dim.y + t.thread.y;
        if (x >= width || y >= height) return;
        traced<const float> a(in, rec);
        traced<float> b(out, rec);
        b[static_cast<std::uint64_t>(x) * height + y] = static_cast<float>(a[static_cast<std::uint64_t>(y) * width + x]);
    }
};

// The thesis's box stencil (StencilWorkload, linear schedule): a 1D launch, thread i computes
// out[i] from the sw x sh box around in[i] (rows outer, columns inner, edges clamped).
struct BoxStencil {
    const float* in;
    float* out;
    std::uint32_t width, height, sw, sh;

    template <class Rec>
    CACHESIM_HD void operator()(const ThreadIndex& t, Rec& rec) const {
        const std::uint64_t i = t.global();
        if (i >= static_cast<std::uint64_t>(width) * height) return;
        const std::int64_t x = static_cast<std::int64_t>(i % width), y = static_cast<std::int64_t>(i / width);
        float sum = 0;
        for (std::uint32_t r = 0; r < sh; ++r) {
            std::int64_t cy = y + r - sh / 2;
            cy = cy < 0 ? 0 : (cy >= height ? height - 1 : cy);
            for (std::uint32_t c = 0; c < sw; ++c) {
                std::int64_t cx = x + c - sw / 2;
                cx = cx < 0 ? 0 : (cx >= width ? width - 1 : cx);
                sum += rec.load(&in[cy * width + cx]);
            }
        }
        rec.store(&out[i], sum / static_cast<float>(sw * sh));
    }
};

}  // namespace cachesim::examples
