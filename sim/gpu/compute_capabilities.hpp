#pragma once
// What NVIDIA documents per compute capability and a device does not report: the size of the
// unified L1/shared-memory array of an SM and the shared-memory carve-outs the driver chooses
// from (CUDA C++ Programming Guide, the shared memory sections of cc 7.x, 8.x and 9.0, and the
// Volta, Turing, Ampere, Ada and Hopper tuning guides). cudaGetDeviceProperties reports the rest
// (SMs, L2 size, threads, blocks and registers per SM, the largest carve-out, the shared memory
// reserved per block). Also how the driver chooses among the carve-outs. One table, read by the
// presets and by the description of a device (device_description.hpp). Plain C++ headers only.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "sim/gpu/carveout_choice.hpp"

namespace cachesim {

struct ComputeCapability {
    int major = 0, minor = 0;
    std::string_view architecture;
    std::uint32_t unified_l1_kib = 0;              // L1 + shared memory per SM
    std::array<std::uint16_t, 10> carveouts_kib{};  // the first `carveouts` entries, ascending
    std::uint32_t carveouts = 0;
    std::uint32_t smem_reserved_per_block = 0;     // bytes CUDA reserves per block (cc >= 8.0: 1 KiB)
    // Two L2 partitions, each SM attached to one (documented for the A100, measured on the H100 and
    // H200); the other chips' L2 is taken as one, as no source describes a split.
    std::uint32_t l2_partitions = 1;
    // The preset whose model (policies, mechanisms, what was measured on its chip) a device of this
    // compute capability that no preset describes takes, with the device's own sizes.
    std::string_view base_preset;
    // How the driver picks among the carve-outs: measured on the H200 for cc 9.0 (carveout_choice.hpp);
    // elsewhere CUDA's occupancy reasoning, as nothing was measured.
    CarveoutRule carveout_rule = CarveoutRule::occupancy;
};

inline constexpr std::array<ComputeCapability, 8> kComputeCapabilities = {{
    {7, 0, "Volta", 128, {0, 8, 16, 32, 64, 96}, 6, 0, 1, "v100"},
    {7, 2, "Volta", 128, {0, 8, 16, 32, 64, 96}, 6, 0, 1, "v100"},
    {7, 5, "Turing", 96, {32, 64}, 2, 0, 1, "t4"},
    {8, 0, "Ampere", 192, {0, 8, 16, 32, 64, 100, 132, 164}, 8, 1024, 2, "a100"},
    {8, 6, "Ampere", 128, {0, 8, 16, 32, 64, 100}, 6, 1024, 1, "a100"},
    {8, 7, "Ampere", 192, {0, 8, 16, 32, 64, 100, 132, 164}, 8, 1024, 1, "a100"},
    {8, 9, "Ada", 128, {0, 8, 16, 32, 64, 100}, 6, 1024, 1, "a100"},
    {9, 0, "Hopper", 256, {0, 8, 16, 32, 64, 100, 132, 164, 196, 228}, 10, 1024, 2, "h100", CarveoutRule::hopper},
}};

// The entry of compute capability major.minor, or null. (Index loops: a sanitizer build cannot
// compare the array's iterators in a constant expression.)
constexpr const ComputeCapability* find_compute_capability(int major, int minor) {
    for (std::size_t i = 0; i < kComputeCapabilities.size(); ++i)
        if (kComputeCapabilities[i].major == major && kComputeCapabilities[i].minor == minor)
            return &kComputeCapabilities[i];
    return nullptr;
}

// The entry of a compute capability the table holds, at compile time (a preset's chip).
consteval const ComputeCapability& compute_capability(int major, int minor) {
    for (std::size_t i = 0; i < kComputeCapabilities.size(); ++i)
        if (kComputeCapabilities[i].major == major && kComputeCapabilities[i].minor == minor)
            return kComputeCapabilities[i];
    throw "compute_capability: not in kComputeCapabilities";  // a compile error
}

// The latest entry not newer than major.minor (for a device newer than the table), or null.
constexpr const ComputeCapability* nearest_compute_capability(int major, int minor) {
    const ComputeCapability* best = nullptr;
    for (std::size_t i = 0; i < kComputeCapabilities.size(); ++i) {
        const ComputeCapability& c = kComputeCapabilities[i];
        if (c.major < major || (c.major == major && c.minor <= minor)) best = &c;
    }
    return best;
}

constexpr std::uint32_t largest_carveout_kib(const ComputeCapability& c) { return c.carveouts_kib[c.carveouts - 1]; }

inline std::vector<std::uint32_t> carveouts_of(const ComputeCapability& c) {
    return {c.carveouts_kib.begin(), c.carveouts_kib.begin() + c.carveouts};
}

}  // namespace cachesim
