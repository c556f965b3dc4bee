// Which shared-memory carve-out the model takes (carveout_choice.hpp). The expected values are the
// H200 driver's own choices, as Nsight Compute reported them for each launch
// (tests/data/h200/smem/carveout*.csv), and cases of the occupancy rule worked by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "sim/gpu/carveout_choice.hpp"
#include "sim/gpu/gpu_config.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "sim/thread_model.hpp"
#include "traces/csv_table.hpp"

namespace cachesim {
namespace {

constexpr std::uint64_t KiB = 1024;

std::uint64_t number(const std::string& text) {  // Nsight Compute writes "1,024"
    std::string digits;
    for (char ch : text)
        if (ch != ',') digits += ch;
    return std::stoull(digits);
}

struct Launch {
    std::uint32_t block, smem, regs;
    std::uint64_t carveout, resident;
};

std::vector<Launch> measured(const std::string& file) {
    const CsvTable t = read_csv_file(std::string(CACHESIM_TEST_DATA_DIR) + "/h200/smem/" + file);
    auto col = [&](const char* name) {
        const int c = t.column(name);
        EXPECT_GE(c, 0) << name;
        return c;
    };
    const int block = col("launch__block_size"), smem = col("launch__shared_mem_per_block_dynamic"),
              regs = col("launch__registers_per_thread"), config = col("launch__shared_mem_config_size"),
              warps = col("launch__occupancy_limit_warps"), blocks = col("launch__occupancy_limit_blocks"),
              registers = col("launch__occupancy_limit_registers"), shared = col("launch__occupancy_limit_shared_mem");
    std::vector<Launch> out;
    for (const auto& r : t.rows)
        out.push_back({static_cast<std::uint32_t>(number(r[block])), static_cast<std::uint32_t>(number(r[smem])),
                       static_cast<std::uint32_t>(number(r[regs])), number(r[config]),
                       std::min({number(r[warps]), number(r[blocks]), number(r[registers]), number(r[shared])})});
    return out;
}

GpuOccupancy h200_occupancy(const Launch& l) {
    GpuConfig c = find_gpu_preset("h200")->config;
    c.block = l.block;
    c.smem_per_block = l.smem;
    c.regs_per_thread = l.regs;
    return gpu_occupancy(c);
}

// Every launch of a file: the driver's carve-out, and as many resident blocks as Nsight Compute's
// tightest occupancy limit. `misses` lists the launches (block, shared memory) the rule gets wrong.
void expect_driver_choices(const std::string& file, std::size_t launches,
                           const std::vector<std::pair<std::uint32_t, std::uint32_t>>& misses = {}) {
    const std::vector<Launch> rows = measured(file);
    ASSERT_EQ(rows.size(), launches) << file;
    for (const Launch& l : rows) {
        const GpuOccupancy o = h200_occupancy(l);
        EXPECT_EQ(o.blocks_per_sm, l.resident) << file << ": block " << l.block << ", " << l.smem << " B";
        const bool known_miss = std::find(misses.begin(), misses.end(), std::pair{l.block, l.smem}) != misses.end();
        if (known_miss)
            EXPECT_NE(o.carveout_bytes, l.carveout) << file << ": block " << l.block << ", " << l.smem << " B";
        else
            EXPECT_EQ(o.carveout_bytes, l.carveout) << file << ": block " << l.block << ", " << l.smem << " B";
        EXPECT_EQ(o.l1_bytes, 256 * KiB - o.carveout_bytes);
    }
}

TEST(CarveoutChoice, H200PresetTakesTheDriversCarveoutWhereTheRuleWasRead) {
    expect_driver_choices("carveout.csv", 140);
}

TEST(CarveoutChoice, H200PresetTakesTheDriversCarveoutOnLaunchesTheRuleWasCheckedOn) {
    expect_driver_choices("carveout_check_matmul.csv", 66);
    expect_driver_choices("carveout_check_stencil.csv", 44);  // 40 registers: fewer resident blocks
    expect_driver_choices("carveout_check_repeat.csv", 6);
    expect_driver_choices("carveout_edges_none.csv", 32);
    // At 29 warps a block with 8,192 B the driver took 32 KiB (room for three blocks) where the rule
    // makes room for four (64 KiB).
    expect_driver_choices("carveout_edges_large.csv", 21, {{928, 8192}});
}

TEST(CarveoutChoice, HopperRuleWorkedByHand) {
    const std::vector<std::uint32_t> hopper = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};
    auto choose = [&](std::uint32_t warps, std::uint32_t resident, std::uint64_t smem) {
        return choose_carveout_bytes(CarveoutRule::hopper,
                                     {.warps_per_block = warps, .resident_blocks = resident, .max_blocks_per_sm = 32,
                                      .smem_per_block = smem,
                                      .smem_block_total = smem + KiB},
                                     hopper, 256 * KiB);
    };
    // No shared memory of its own: 32 KiB up to 15 warps a block, 16 up to 23, 8 beyond.
    EXPECT_EQ(choose(4, 16, 0), 32 * KiB);
    EXPECT_EQ(choose(15, 4, 0), 32 * KiB);
    EXPECT_EQ(choose(16, 4, 0), 16 * KiB);
    EXPECT_EQ(choose(24, 2, 0), 8 * KiB);
    // 16 blocks of 4 warps with 2 KiB each (with the reserved KiB): room for 32 blocks, 96 KiB -> 100.
    EXPECT_EQ(choose(4, 16, 2 * KiB), 100 * KiB);
    // With 5 KiB each, room for 32 would be 192 KiB: the driver stops at 132, the 16 resident need 96.
    EXPECT_EQ(choose(4, 16, 5 * KiB), 132 * KiB);
    // With 8 KiB each the 16 resident need 144 KiB: 164, more than the cap because they need it.
    EXPECT_EQ(choose(4, 16, 8 * KiB), 164 * KiB);
    // From 30 warps a block, room for the resident blocks only: 2 x 3 KiB -> 8.
    EXPECT_EQ(choose(32, 2, 2 * KiB), 8 * KiB);
    EXPECT_EQ(choose(29, 2, 2 * KiB), 16 * KiB);  // below 30: 4 x 3 KiB -> 16
    // One warp a block, 32 resident (the SM's most): room for 32, not 64: 32 x 3 KiB -> 100.
    EXPECT_EQ(choose(1, 32, 2 * KiB), 100 * KiB);
}

TEST(CarveoutChoice, OccupancyRuleWorkedByHand) {
    const std::vector<std::uint32_t> hopper = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};
    auto choose = [&](std::uint32_t resident, std::uint64_t smem) {
        return choose_carveout_bytes(CarveoutRule::occupancy,
                                     {.warps_per_block = 4, .resident_blocks = resident, .smem_per_block = smem,
                                      .smem_block_total = smem + KiB},
                                     hopper, 256 * KiB);
    };
    EXPECT_EQ(choose(16, 0), 16 * KiB);         // 16 x 1 KiB
    EXPECT_EQ(choose(16, 4 * KiB), 100 * KiB);  // 16 x 5 KiB = 80
    EXPECT_EQ(choose(8, 0), 8 * KiB);
    // No list: exactly what the resident blocks need.
    EXPECT_EQ(choose_carveout_bytes(CarveoutRule::occupancy,
                                    {.warps_per_block = 4, .resident_blocks = 3, .smem_per_block = 100,
                                     .smem_block_total = 100},
                                    {}, 256 * KiB),
              300u);
    // Nothing listed holds 16 x 20 KiB within the unified array.
    EXPECT_THROW(choose(16, 19 * KiB), SimulationError);
}

TEST(CarveoutChoice, PresetsTakeTheirComputeCapabilitysRule) {
    EXPECT_EQ(find_gpu_preset("h200")->config.carveout_rule, CarveoutRule::hopper);
    EXPECT_EQ(find_gpu_preset("h100")->config.carveout_rule, CarveoutRule::hopper);
    EXPECT_EQ(find_gpu_preset("a100")->config.carveout_rule, CarveoutRule::occupancy);
    EXPECT_EQ(find_gpu_preset("rtx2080s")->config.carveout_rule, CarveoutRule::occupancy);
    // The h200 at block 128 without shared memory: the driver's 32 KiB leaves 224 KiB of L1.
    GpuConfig c = find_gpu_preset("h200")->config;
    c.block = 128;
    EXPECT_EQ(gpu_occupancy(c).l1_bytes, 224 * KiB);
    c.carveout_rule = CarveoutRule::occupancy;
    EXPECT_EQ(gpu_occupancy(c).l1_bytes, 240 * KiB);
}

}  // namespace
}  // namespace cachesim
