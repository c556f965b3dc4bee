// gpubench --describe's description of a device for the GPU model. The expected lines are worked
// out by hand from what the device reports (cudaGetDeviceProperties, as deviceQuery prints it)
// and from NVIDIA's documentation of its compute capability (CUDA C++ Programming Guide, shared
// memory sections of cc 8.x and 9.0; the Ampere and Ada tuning guides): the unified L1/shared
// array and the carve-outs the driver chooses from.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "sim/gpu/device_description.hpp"
#include "sim/gpu/gpu_presets.hpp"

namespace cachesim {
namespace {

bool has_line(const std::string& text, const std::string& line) {
    return ("\n" + text).find("\n" + line + "\n") != std::string::npos;
}

// An H200 as cudaGetDeviceProperties reports it (tests/data/h200/environment.txt and the knee
// probe's Nsight Compute device attributes: 132 SMs, L2 62,914,560 B, 2048 threads and 32 blocks
// per SM, 65,536 registers, 233,472 B shared memory per SM, 1,024 B reserved per block).
DeviceFacts h200() {
    return {.name = "NVIDIA H200", .major = 9, .minor = 0, .sms = 132, .l2_bytes = 62914560,
            .threads_per_sm = 2048, .blocks_per_sm = 32, .regs_per_sm = 65536, .smem_per_sm = 233472,
            .smem_reserved_per_block = 1024};
}

TEST(DeviceDescription, HopperTakesItsSizesFromTheDeviceAndTheGuide) {
    const DeviceDescription d = describe_device(h200());
    EXPECT_TRUE(d.notes.empty());
    for (const char* line : {"preset = h100", "sms = 132", "l2-size = 62914560", "threads-per-sm = 2048",
                             "blocks-per-sm = 32", "regs-per-sm = 65536", "smem-reserved = 1024",
                             "unified-l1 = 256K", "carveouts = 0,8,16,32,64,100,132,164,196,228",
                             "l2-partitions = 2"})
        EXPECT_TRUE(has_line(d.config, line)) << line << "\n" << d.config;
    EXPECT_EQ(d.config.rfind("# NVIDIA H200, compute capability 9.0 (Hopper)", 0), 0u) << d.config;
    EXPECT_TRUE(has_line(d.config, "# device: NVIDIA H200")) << d.config;
}

// An RTX 4090 (AD102, cc 8.9): 128 SMs, 72 MiB L2, 1,536 threads and 24 blocks per SM, 100 KiB of
// shared memory per SM at most. The Ada tuning guide gives 128 KiB of L1/shared and carve-outs of
// 0, 8, 16, 32, 64 and 100 KiB; one L2, no partitions described.
TEST(DeviceDescription, AdaTakesTheAmpereModelWithItsOwnSizes) {
    DeviceFacts f{.name = "NVIDIA GeForce RTX 4090", .major = 8, .minor = 9, .sms = 128, .l2_bytes = 75497472,
                  .threads_per_sm = 1536, .blocks_per_sm = 24, .regs_per_sm = 65536, .smem_per_sm = 102400,
                  .smem_reserved_per_block = 1024};
    const DeviceDescription d = describe_device(f);
    EXPECT_TRUE(d.notes.empty());
    for (const char* line : {"preset = a100", "sms = 128", "l2-size = 75497472", "threads-per-sm = 1536",
                             "blocks-per-sm = 24", "unified-l1 = 128K", "carveouts = 0,8,16,32,64,100",
                             "l2-partitions = 1"})
        EXPECT_TRUE(has_line(d.config, line)) << line << "\n" << d.config;
}

// A compute capability the table does not hold (12.0, 100 KiB of shared memory per SM at most):
// the nearest older one (9.0) leaves 256 - 228 = 28 KiB to the L1 beside its largest carve-out,
// so 100 + 28 = 128 KiB, and its carve-outs up to 100 KiB; both are said to be assumed.
TEST(DeviceDescription, NewerComputeCapabilityIsAssumedFromTheNearestAndSaysSo) {
    DeviceFacts f{.name = "NVIDIA GeForce RTX 5090", .major = 12, .minor = 0, .sms = 170, .l2_bytes = 100663296,
                  .threads_per_sm = 1536, .blocks_per_sm = 32, .regs_per_sm = 65536, .smem_per_sm = 102400,
                  .smem_reserved_per_block = 1024};
    const DeviceDescription d = describe_device(f);
    EXPECT_TRUE(has_line(d.config, "unified-l1 = 128K")) << d.config;
    EXPECT_TRUE(has_line(d.config, "carveouts = 0,8,16,32,64,100")) << d.config;
    EXPECT_TRUE(has_line(d.config, "preset = h100")) << d.config;
    ASSERT_EQ(d.notes.size(), 2u);
    EXPECT_NE(d.notes[0].find("12.0 is not in the model's table"), std::string::npos) << d.notes[0];
    EXPECT_NE(d.config.find("# assumed: "), std::string::npos) << d.config;
}

// A device whose largest carve-out is not the documented one (a cc 9.0 part reporting 200 KiB):
// the device's figure wins, the documented list stops below it, and the note says so.
TEST(DeviceDescription, DeviceLargestCarveoutWinsOverTheTable) {
    DeviceFacts f = h200();
    f.smem_per_sm = 200 * 1024;
    const DeviceDescription d = describe_device(f);
    EXPECT_TRUE(has_line(d.config, "carveouts = 0,8,16,32,64,100,132,164,196,200")) << d.config;
    EXPECT_TRUE(has_line(d.config, "unified-l1 = 228K")) << d.config;
    ASSERT_EQ(d.notes.size(), 1u);
    EXPECT_NE(d.notes[0].find("200 KiB"), std::string::npos) << d.notes[0];
}

// describe_device's refusal of `f`, or "(described)" when it takes it.
std::string refusal_of(const DeviceFacts& f) {
    try {
        describe_device(f);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "(described)";
}

TEST(DeviceDescription, RefusesWhatTheModelCannotTake) {
    DeviceFacts old = h200();
    old.major = 6;
    old.minor = 1;
    const std::string too_old = refusal_of(old);
    EXPECT_NE(too_old.find("6.1"), std::string::npos) << too_old;
    EXPECT_NE(too_old.find("7.0"), std::string::npos) << too_old;
    DeviceFacts no_l2 = h200();
    no_l2.l2_bytes = 0;
    const std::string without_l2 = refusal_of(no_l2);
    EXPECT_NE(without_l2.find("l2CacheSize"), std::string::npos) << without_l2;
    DeviceFacts broken_name = h200();
    broken_name.name = "NVIDIA H200\npreset = v100";
    EXPECT_THROW(describe_device(broken_name), std::invalid_argument);
}

// The presets' unified L1/shared array and carve-outs, as the CUDA C++ Programming Guide gives
// them for their compute capabilities (read from the same table as the description).
TEST(DeviceDescription, PresetsKeepTheDocumentedSharedMemoryConfigurations) {
    using Kib = std::vector<std::uint32_t>;
    const struct {
        const char* preset;
        std::uint64_t unified_kib;
        Kib carveouts;
        std::uint32_t reserved, partitions;
    } expected[] = {{"v100", 128, {0, 8, 16, 32, 64, 96}, 0, 1},
                    {"t4", 96, {32, 64}, 0, 1},
                    {"rtx2080s", 96, {32, 64}, 0, 1},
                    {"a100", 192, {0, 8, 16, 32, 64, 100, 132, 164}, 1024, 2},
                    {"h100", 256, {0, 8, 16, 32, 64, 100, 132, 164, 196, 228}, 1024, 2},
                    {"h200", 256, {0, 8, 16, 32, 64, 100, 132, 164, 196, 228}, 1024, 2}};
    for (const auto& e : expected) {
        const GpuConfig& c = find_gpu_preset(e.preset)->config;
        EXPECT_EQ(c.unified_l1_bytes, e.unified_kib * 1024) << e.preset;
        EXPECT_EQ(c.carveouts_kib, e.carveouts) << e.preset;
        EXPECT_EQ(c.smem_reserved_per_block, e.reserved) << e.preset;
        EXPECT_EQ(c.l2_partitions, e.partitions) << e.preset;
    }
}

}  // namespace
}  // namespace cachesim
