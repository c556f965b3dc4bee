#pragma once
// The thesis's workloads as pure functions: work item -> its k-th memory access.
// Shared by the CPU simulator, the Thrust trace generator and the CUDA kernels.
#include <cstdint>

#include "traces/access.hpp"
#include "traces/hd.hpp"

namespace cachesim {

enum class WorkloadKind : std::uint8_t { stencil, matmul };

// Arrays are placed in declaration order, the first at 0, each next one at the following
// multiple of this alignment.
inline constexpr std::uint64_t kArrayAlignment = 4096;

CACHESIM_HD std::uint64_t align_up(std::uint64_t value, std::uint64_t alignment) {
    return (value + alignment - 1) / alignment * alignment;
}

struct StencilWorkload {
    std::uint32_t iw = 16, ih = 16;  // output (and input) size
    std::uint32_t sw = 7, sh = 7;    // box size
    std::uint32_t elem_bytes = 4;

    static constexpr std::uint16_t kIn = 0, kOut = 1;

    CACHESIM_HD std::uint64_t array_bytes() const {
        return static_cast<std::uint64_t>(iw) * ih * elem_bytes;
    }
    CACHESIM_HD std::uint64_t in_base() const { return 0; }
    CACHESIM_HD std::uint64_t out_base() const { return align_up(array_bytes(), kArrayAlignment); }
    CACHESIM_HD std::uint32_t accesses_per_item() const { return sw * sh + 1; }
    CACHESIM_HD std::uint64_t items() const { return static_cast<std::uint64_t>(iw) * ih; }

    CACHESIM_HD static std::int64_t clamp(std::int64_t v, std::int64_t hi) {
        return v < 0 ? 0 : (v > hi ? hi : v);
    }

    // Reads row by row (dy outer, dx inner) with clamped edges, then writes out[y][x].
    CACHESIM_HD Access access(std::uint64_t item, std::uint32_t k) const {
        const std::int64_t x = static_cast<std::int64_t>(item % iw);
        const std::int64_t y = static_cast<std::int64_t>(item / iw);
        Access a;
        a.size = elem_bytes;
        if (k == sw * sh) {
            a.address = out_base() + static_cast<std::uint64_t>(item) * elem_bytes;
            a.array = kOut;
            a.is_write = true;
            return a;
        }
        const std::int64_t dy = static_cast<std::int64_t>(k / sw) - static_cast<std::int64_t>(sh / 2);
        const std::int64_t dx = static_cast<std::int64_t>(k % sw) - static_cast<std::int64_t>(sw / 2);
        const std::int64_t cy = clamp(y + dy, static_cast<std::int64_t>(ih) - 1);
        const std::int64_t cx = clamp(x + dx, static_cast<std::int64_t>(iw) - 1);
        a.address = in_base() + static_cast<std::uint64_t>(cy * iw + cx) * elem_bytes;
        a.array = kIn;
        return a;
    }
};

struct MatmulWorkload {
    std::uint32_t iw = 16, ih = 16;  // C is ih rows x iw columns
    std::uint32_t depth = 16;        // A is ih x depth, B is depth x iw
    std::uint32_t elem_bytes = 4;

    static constexpr std::uint16_t kA = 0, kB = 1, kC = 2;

    CACHESIM_HD std::uint64_t a_bytes() const {
        return static_cast<std::uint64_t>(ih) * depth * elem_bytes;
    }
    CACHESIM_HD std::uint64_t b_bytes() const {
        return static_cast<std::uint64_t>(depth) * iw * elem_bytes;
    }
    CACHESIM_HD std::uint64_t a_base() const { return 0; }
    CACHESIM_HD std::uint64_t b_base() const { return align_up(a_bytes(), kArrayAlignment); }
    CACHESIM_HD std::uint64_t c_base() const {
        return align_up(b_base() + b_bytes(), kArrayAlignment);
    }
    CACHESIM_HD std::uint32_t accesses_per_item() const { return 2 * depth + 1; }
    CACHESIM_HD std::uint64_t items() const { return static_cast<std::uint64_t>(iw) * ih; }

    // For i in 0..D-1: A[y*D + i] then B[i*Iw + x]; finally C[y*Iw + x] is written.
    CACHESIM_HD Access access(std::uint64_t item, std::uint32_t k) const {
        const std::uint64_t x = item % iw;
        const std::uint64_t y = item / iw;
        Access a;
        a.size = elem_bytes;
        if (k == 2 * depth) {
            a.address = c_base() + item * elem_bytes;
            a.array = kC;
            a.is_write = true;
            return a;
        }
        const std::uint64_t i = k / 2;
        if ((k & 1u) == 0) {
            a.address = a_base() + (y * depth + i) * elem_bytes;
            a.array = kA;
        } else {
            a.address = b_base() + (i * iw + x) * elem_bytes;
            a.array = kB;
        }
        return a;
    }
};

}  // namespace cachesim
