#pragma once
// A GPU the presets do not describe, described for the GPU model: what the device reports about
// itself (cudaGetDeviceProperties, gathered by gpubench --describe), what NVIDIA documents for its
// compute capability (compute_capabilities.hpp) and, for everything else, the preset of its
// architecture, written as a cachesim config file (`name = value` lines, as --config reads), with
// the device's name in a `# device: NAME` comment line.
// Plain C++: gpubench compiles it without the rest of the library.
#include <cstdint>
#include <string>
#include <vector>

namespace cachesim {

// The device properties the GPU model takes, as cudaGetDeviceProperties reports them.
struct DeviceFacts {
    std::string name;
    int major = 0, minor = 0;                    // compute capability
    std::uint32_t sms = 0;                       // multiProcessorCount
    std::uint64_t l2_bytes = 0;                  // l2CacheSize
    std::uint32_t threads_per_sm = 0;            // maxThreadsPerMultiProcessor
    std::uint32_t blocks_per_sm = 0;             // maxBlocksPerMultiProcessor
    std::uint32_t regs_per_sm = 0;               // regsPerMultiprocessor
    std::uint64_t smem_per_sm = 0;               // sharedMemPerMultiprocessor: the largest carve-out
    std::uint64_t smem_reserved_per_block = 0;   // reservedSharedMemPerBlock
};

struct DeviceDescription {
    std::string config;               // the config file's text
    std::vector<std::string> notes;   // what had to be assumed (also in the file, as comments)
};

// Throws std::invalid_argument naming the field when a fact is missing (zero) or out of range,
// or when the device is older than every compute capability the model knows (before 7.0).
DeviceDescription describe_device(const DeviceFacts& facts);

}  // namespace cachesim
