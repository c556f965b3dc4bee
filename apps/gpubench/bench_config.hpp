#pragma once
// One measured launch: a workload (kernel, sizes, schedule) and a block size.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "traces/workload_spec.hpp"

namespace gpubench {

// How a kernel is compiled: every variant makes the same accesses in the same order, but the
// instructions nvcc emits around them differ, and with them when each warp's loads issue. The
// GPU model must predict all of them from the SASS (scripts/device_sass.sh), not from a fit.
enum class KernelVariant : std::uint8_t {
    index64,  // 64-bit index arithmetic, loops unrolled as nvcc chooses (the training compilation)
    index32,  // 32-bit index arithmetic (unsigned products), loops as index64
    unroll1,  // 64-bit indices, '#pragma unroll 1' on every loop: one load per iteration
};

std::string_view kernel_variant_name(KernelVariant variant);
std::optional<KernelVariant> parse_kernel_variant(std::string_view text);

struct BenchConfig {
    cachesim::WorkloadSpec spec;  // elem_bytes is always 4 (float)
    std::uint32_t block = 256;
    KernelVariant variant = KernelVariant::index64;

    std::string label() const {  // e.g. "stencil 4096x4096, 9x9 box, column:32, block 256"
        std::string text = spec.describe() + ", block " + std::to_string(block);
        if (variant != KernelVariant::index64) text += ", " + std::string(kernel_variant_name(variant));
        return text;
    }
};

inline std::string_view kernel_variant_name(KernelVariant variant) {
    switch (variant) {
        case KernelVariant::index64: return "index64";
        case KernelVariant::index32: return "index32";
        case KernelVariant::unroll1: return "unroll1";
    }
    return "?";
}

inline std::optional<KernelVariant> parse_kernel_variant(std::string_view text) {
    for (KernelVariant v : {KernelVariant::index64, KernelVariant::index32, KernelVariant::unroll1})
        if (kernel_variant_name(v) == text) return v;
    return std::nullopt;
}

}  // namespace gpubench
