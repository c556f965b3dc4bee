// Which preset cachesim compare simulates measured rows with: without --preset, the one whose
// GPU the rows' `gpu` column names (a GPU no preset describes, or rows of two presets' GPUs, are
// refused, exit 2, naming them); with --preset, that one, and a note for rows of another GPU.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "sim/gpu/gpu_presets.hpp"
#include "tests/cli_util.hpp"
#include "tests/csv_table.hpp"
#include "tests/measured_stencil_rows.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;

using test::kCounterHeader;

// A small stencil launch measured on `gpu`.
std::string row(const std::string& gpu) { return test::stencil_row(gpu); }

struct Compared {
    test::CommandResult run;
    std::string preset;  // the joined CSV's preset column (empty when the command failed)
};

Compared compare(const std::string& rows, const std::string& options = "") {
    const fs::path dir = test::temp_dir() / "compare-preset";
    fs::create_directories(dir);
    std::ofstream(dir / "m.csv") << kCounterHeader << rows;
    fs::remove(dir / "j.csv");
    Compared c{test::run_cachesim("compare --no-progress --plot none --measured '" + (dir / "m.csv").string() +
                                  "' --out '" + (dir / "j.csv").string() + "' " + options),
               ""};
    if (c.run.exit_code == 0) c.preset = test::CsvTable::from_file((dir / "j.csv").string()).at(0, "preset");
    return c;
}

TEST(ComparePresetChoice, TheRowsGpuChoosesThePreset) {
    const Compared h100 = compare(row("NVIDIA H100 80GB HBM3"));
    ASSERT_EQ(h100.run.exit_code, 0) << h100.run.err;
    EXPECT_EQ(h100.preset, "h100");
    EXPECT_NE(h100.run.err.find("rows measured on NVIDIA H100 80GB HBM3: the h100 preset"), std::string::npos)
        << h100.run.err;
    const Compared h200 = compare(row("NVIDIA H200") + row("NVIDIA H200"));
    ASSERT_EQ(h200.run.exit_code, 0) << h200.run.err;
    EXPECT_EQ(h200.preset, "h200");
}

TEST(ComparePresetChoice, AGpuWithoutAPresetIsRefusedByName) {
    const Compared c = compare(row("NVIDIA GeForce RTX 4090"));
    EXPECT_EQ(c.run.exit_code, 2);
    EXPECT_NE(c.run.err.find("'NVIDIA GeForce RTX 4090', which no preset describes; give --preset NAME"),
              std::string::npos)
        << c.run.err;
    EXPECT_NE(c.run.err.find("or --config FILE with the description `gpubench --describe FILE` writes"),
              std::string::npos)
        << "the message names the way to describe a GPU no preset knows: " << c.run.err;
    // Given a preset, the same rows are simulated with it, and a note says whose GPU they are.
    const Compared given = compare(row("NVIDIA GeForce RTX 4090"), "--preset rtx2080s");
    ASSERT_EQ(given.run.exit_code, 0) << given.run.err;
    EXPECT_EQ(given.preset, "rtx2080s");
    EXPECT_NE(given.run.err.find("rows measured on 'NVIDIA GeForce RTX 4090' (no preset's GPU) are simulated with "
                                 "--preset rtx2080s"),
              std::string::npos)
        << given.run.err;
}

TEST(ComparePresetChoice, RowsOfTwoPresetsGpusAreRefusedWithoutAPreset) {
    const Compared c = compare(row("NVIDIA H200") + row("NVIDIA H100 80GB HBM3"));
    EXPECT_EQ(c.run.exit_code, 2);
    EXPECT_NE(c.run.err.find("GPUs of different presets ('NVIDIA H200': h200, 'NVIDIA H100 80GB HBM3': h100)"),
              std::string::npos)
        << c.run.err;
    const Compared given = compare(row("NVIDIA H200") + row("NVIDIA H100 80GB HBM3"), "--preset h200");
    ASSERT_EQ(given.run.exit_code, 0) << given.run.err;
    EXPECT_EQ(given.preset, "h200");
    EXPECT_NE(given.run.err.find("rows measured on 'NVIDIA H100 80GB HBM3' (the h100 preset's GPU) are simulated "
                                 "with --preset h200"),
              std::string::npos)
        << given.run.err;
    EXPECT_EQ(given.run.err.find("'NVIDIA H200'"), std::string::npos) << "no note for the preset's own GPU";
}

TEST(ComparePresetChoice, RowsNamingNoGpuTakeTheDefaultWithANote) {
    const Compared c = compare(row(""));
    ASSERT_EQ(c.run.exit_code, 0) << c.run.err;
    EXPECT_EQ(c.preset, std::string(kDefaultGpuPreset));
    EXPECT_NE(c.run.err.find("name no GPU; simulating them with the h200 preset"), std::string::npos) << c.run.err;
}

// Device names match whatever their letter case and surrounding spaces; every preset's devices
// lead back to it.
TEST(ComparePresetChoice, DeviceNamesMatchTheirPreset) {
    EXPECT_EQ(find_gpu_preset_for_device("  nvidia h200 ")->name, "h200");
    EXPECT_EQ(find_gpu_preset_for_device("Tesla T4")->name, "t4");
    EXPECT_EQ(find_gpu_preset_for_device("NVIDIA H100 PCIe"), nullptr);  // 114 SMs: not the h100 preset's chip
    EXPECT_EQ(find_gpu_preset_for_device(""), nullptr);
    for (const GpuPreset& p : gpu_presets())
        for (const std::string& d : p.devices) EXPECT_EQ(find_gpu_preset_for_device(d), &p) << d;
}

}  // namespace
}  // namespace cachesim
