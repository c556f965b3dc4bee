#pragma once
// Per-lane addresses of one warp request. A warp's lanes keep their work item as (x, y) and two
// base addresses computed when the warp is dispatched; request k is every active lane's k-th
// access. The fast paths compute exactly what StencilWorkload::access / MatmulWorkload::access
// return (tests/gpu_model_test.cpp compares whole runs against `reference`, which calls access()
// itself): a request is then a base plus one offset common to the warp, and only stencil warps
// near an edge clamp lane by lane.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "traces/workload_spec.hpp"

namespace cachesim {

// A request's shape. An even request (lane l at lane 0's address plus l x stride: consecutive
// elements, or all one address) has only lane 0's address written out, so that the coalescer can
// work out its sectors without the lanes (Coalescer::coalesce_even); fill_even expands it.
struct RequestShape {
    std::uint32_t size = 4;  // bytes per lane
    std::uint16_t array = 0;
    bool is_write = false;
    std::uint32_t lanes = 0;  // active lanes (WarpSlots::generate fills it in)
    bool even = false;
    std::uint64_t stride = 0;  // even: lane l's address less lane 0's, over l (mod 2^64)
};

// out[l] = base + l x stride for the lanes: two lanes a step, adds only (no 64-bit multiply).
inline void fill_even(std::uint64_t* out, std::uint32_t lanes, std::uint64_t base, std::uint64_t stride) {
    std::uint64_t even = base, odd = base + stride;
    const std::uint64_t step = 2 * stride;
    std::uint32_t l = 0;
    for (; l + 1 < lanes; l += 2, even += step, odd += step) {
        out[l] = even;
        out[l + 1] = odd;
    }
    if (l < lanes) out[l] = even;
}

// The step between a warp's lanes' bases when they step evenly (kUneven otherwise).
inline constexpr std::uint64_t kUneven = ~0ull;
inline std::uint64_t even_stride(const std::uint64_t* bases, std::uint32_t lanes) {
    if (lanes < 2) return 0;
    const std::uint64_t stride = bases[1] - bases[0];
    if (stride == kUneven) return kUneven;
    for (std::uint32_t l = 2; l < lanes; ++l)
        if (bases[l] - bases[l - 1] != stride) return kUneven;
    return stride;
}

class WarpLanes {
public:
    WarpLanes(const WorkloadSpec& spec, bool reference)
        : kind_(spec.kind), stencil_(spec.stencil()), matmul_(spec.matmul()), reference_(reference),
          iw_(spec.width), per_item_(spec.accesses_per_item()) {
        if (!reference_) build_steps();
    }

    std::uint32_t accesses_per_item() const { return per_item_; }
    // The step table of a run of `spec` (one entry per request of a work item).
    static std::uint64_t footprint_bytes(const WorkloadSpec& spec) {
        return static_cast<std::uint64_t>(spec.accesses_per_item()) * sizeof(Step);
    }

    // Request k of a warp whose accesses are not clamped (a stencil's store, or any request of a
    // warp away from the edges): each lane's address is one of its two bases plus an offset common
    // to every warp, and its shape is known before any warp runs; generate() and WarpSlots's
    // even-warp path both read it. `usable` is false for the requests that must be worked out lane
    // by lane whatever the warp (the matmul's store). None for the reference path.
    struct Step {
        std::uint64_t offset = 0;
        std::uint32_t size = 4;
        std::uint16_t array = 0;
        std::uint8_t base = 0;  // 0: the bases a, 1: b (see prepare)
        bool is_write = false;
        bool usable = false;
    };
    bool has_steps() const { return !steps_.empty(); }
    const Step& step(std::uint32_t k) const { return steps_[k]; }

    // At dispatch: the lanes' bases (stencil: the address of in[y][x]; matmul: of A[y][0] and
    // B[0][x]). Returns true when no access of the warp is clamped (a stencil warp away from the
    // edges; always for the matmul).
    bool prepare(const std::uint32_t* x, const std::uint32_t* y, std::uint32_t lanes, std::uint64_t* a,
                 std::uint64_t* b) const {
        if (kind_ == WorkloadKind::stencil) {
            const StencilWorkload& w = stencil_;
            std::uint32_t min_x = ~0u, max_x = 0, min_y = ~0u, max_y = 0;
            for (std::uint32_t i = 0; i < lanes; ++i) {
                a[i] = w.in_base() + (static_cast<std::uint64_t>(y[i]) * w.iw + x[i]) * w.elem_bytes;
                b[i] = 0;
                min_x = std::min(min_x, x[i]);
                max_x = std::max(max_x, x[i]);
                min_y = std::min(min_y, y[i]);
                max_y = std::max(max_y, y[i]);
            }
            // dx runs over -(sw/2) .. sw-1-sw/2, likewise dy.
            const std::uint64_t left = w.sw / 2, right = w.sw - 1 - w.sw / 2;
            const std::uint64_t up = w.sh / 2, down = w.sh - 1 - w.sh / 2;
            return min_x >= left && max_x + right < w.iw && min_y >= up && max_y + down < w.ih;
        }
        const MatmulWorkload& w = matmul_;
        for (std::uint32_t i = 0; i < lanes; ++i) {
            a[i] = w.a_base() + static_cast<std::uint64_t>(y[i]) * w.depth * w.elem_bytes;
            b[i] = w.b_base() + static_cast<std::uint64_t>(x[i]) * w.elem_bytes;
        }
        return true;
    }

    // Request k of `lanes` lanes whose items are (x[i], y[i]) with the bases from prepare() and
    // their steps (even_stride of a and of b): addresses into `out`, or only lane 0's for an even
    // request. The reference path never says even, so that comparing with it checks both.
    RequestShape generate(const std::uint32_t* x, const std::uint32_t* y, const std::uint64_t* a,
                          const std::uint64_t* b, std::uint64_t stride_a, std::uint64_t stride_b, bool interior,
                          std::uint32_t lanes, std::uint32_t k, std::uint64_t* out) const {
        if (reference_) [[unlikely]] return generate_reference(x, y, lanes, k, out);
        if (kind_ == WorkloadKind::stencil) {
            // (the store, out[y][x], is never clamped: the same offset from in[y][x] for every lane)
            if (!interior && k != stencil_.sw * stencil_.sh) return stencil(x, y, lanes, k, out);
        } else if (k == 2 * matmul_.depth) {
            return matmul(x, y, lanes, k, out);  // the store, C[y][x]: no base of the lanes
        }
        const Step& step = steps_[k];
        return offset_of(step.base ? b : a, step.base ? stride_b : stride_a, step.offset, lanes, out,
                         {step.size, step.array, step.is_write});
    }

private:
    // Every lane at its base plus `offset`: lane 0's address alone when the bases step evenly.
    static RequestShape offset_of(const std::uint64_t* bases, std::uint64_t stride, std::uint64_t offset,
                                  std::uint32_t lanes, std::uint64_t* out, RequestShape shape) {
        if (stride != kUneven) {
            out[0] = bases[0] + offset;
            shape.even = true;
            shape.stride = stride;
            return shape;
        }
        for (std::uint32_t i = 0; i < lanes; ++i) out[i] = bases[i] + offset;
        return shape;
    }

    RequestShape stencil(const std::uint32_t* x, const std::uint32_t* y, std::uint32_t lanes,
                         std::uint32_t k, std::uint64_t* out) const {
        const StencilWorkload& w = stencil_;
        RequestShape shape{w.elem_bytes, StencilWorkload::kIn, false};
        const std::uint64_t eb = w.elem_bytes;
        if (k == w.sw * w.sh) {
            const std::uint64_t base = w.out_base();
            for (std::uint32_t i = 0; i < lanes; ++i)
                out[i] = base + (static_cast<std::uint64_t>(y[i]) * w.iw + x[i]) * eb;
            return {w.elem_bytes, StencilWorkload::kOut, true};
        }
        const std::int64_t dy = static_cast<std::int64_t>(k / w.sw) - static_cast<std::int64_t>(w.sh / 2);
        const std::int64_t dx = static_cast<std::int64_t>(k % w.sw) - static_cast<std::int64_t>(w.sw / 2);
        const std::int64_t last_x = static_cast<std::int64_t>(w.iw) - 1;
        const std::int64_t last_y = static_cast<std::int64_t>(w.ih) - 1;
        const std::uint64_t base = w.in_base();
        for (std::uint32_t i = 0; i < lanes; ++i) {
            std::int64_t cy = static_cast<std::int64_t>(y[i]) + dy;
            std::int64_t cx = static_cast<std::int64_t>(x[i]) + dx;
            cy = cy < 0 ? 0 : (cy > last_y ? last_y : cy);
            cx = cx < 0 ? 0 : (cx > last_x ? last_x : cx);
            out[i] = base + static_cast<std::uint64_t>(cy * w.iw + cx) * eb;
        }
        return shape;
    }

    RequestShape matmul(const std::uint32_t* x, const std::uint32_t* y, std::uint32_t lanes,
                        std::uint32_t k, std::uint64_t* out) const {
        const MatmulWorkload& w = matmul_;
        const std::uint64_t eb = w.elem_bytes;
        if (k == 2 * w.depth) {
            const std::uint64_t base = w.c_base();
            for (std::uint32_t i = 0; i < lanes; ++i)
                out[i] = base + (static_cast<std::uint64_t>(y[i]) * w.iw + x[i]) * eb;
            return {w.elem_bytes, MatmulWorkload::kC, true};
        }
        const std::uint64_t step = k / 2;
        if ((k & 1u) == 0) {
            const std::uint64_t base = w.a_base() + step * eb;
            for (std::uint32_t i = 0; i < lanes; ++i) out[i] = base + static_cast<std::uint64_t>(y[i]) * w.depth * eb;
            return {w.elem_bytes, MatmulWorkload::kA, false};
        }
        const std::uint64_t base = w.b_base() + step * w.iw * eb;
        for (std::uint32_t i = 0; i < lanes; ++i) out[i] = base + static_cast<std::uint64_t>(x[i]) * eb;
        return {w.elem_bytes, MatmulWorkload::kB, false};
    }

    RequestShape generate_reference(const std::uint32_t* x, const std::uint32_t* y, std::uint32_t lanes,
                                    std::uint32_t k, std::uint64_t* out) const {
        RequestShape shape;
        for (std::uint32_t i = 0; i < lanes; ++i) {
            const std::uint64_t item = static_cast<std::uint64_t>(y[i]) * iw_ + x[i];
            const Access a = kind_ == WorkloadKind::stencil ? stencil_.access(item, k) : matmul_.access(item, k);
            out[i] = a.address;
            shape = {a.size, a.array, a.is_write};
        }
        return shape;
    }

    // The table step() reads, worked out once (a stencil's offsets take two divisions a request
    // otherwise: its width is known only at run time).
    void build_steps() {
        steps_.assign(per_item_, Step{});
        if (kind_ == WorkloadKind::stencil) {
            const StencilWorkload& w = stencil_;
            for (std::uint32_t k = 0; k < w.sw * w.sh; ++k) {
                const std::int64_t dy = static_cast<std::int64_t>(k / w.sw) - static_cast<std::int64_t>(w.sh / 2);
                const std::int64_t dx = static_cast<std::int64_t>(k % w.sw) - static_cast<std::int64_t>(w.sw / 2);
                const auto offset = static_cast<std::uint64_t>((dy * w.iw + dx) * static_cast<std::int64_t>(w.elem_bytes));
                steps_[k] = {offset, w.elem_bytes, StencilWorkload::kIn, 0, false, true};
            }
            steps_[w.sw * w.sh] = {w.out_base() - w.in_base(), w.elem_bytes, StencilWorkload::kOut, 0, true, true};
            return;
        }
        const MatmulWorkload& w = matmul_;
        for (std::uint32_t k = 0; k < 2 * w.depth; ++k) {
            const std::uint64_t step = k / 2;
            if ((k & 1u) == 0) steps_[k] = {step * w.elem_bytes, w.elem_bytes, MatmulWorkload::kA, 0, false, true};
            else steps_[k] = {step * w.iw * w.elem_bytes, w.elem_bytes, MatmulWorkload::kB, 1, false, true};
        }
    }

    WorkloadKind kind_;
    StencilWorkload stencil_;
    MatmulWorkload matmul_;
    bool reference_;
    std::uint32_t iw_;
    std::uint32_t per_item_;
    std::vector<Step> steps_;  // per request k (none for the reference path)
};

}  // namespace cachesim
