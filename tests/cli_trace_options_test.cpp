// `cachesim trace` writes accesses and simulates nothing: an option of the simulation (the caches,
// their analysis, the seed, the model) given on the command line or in a --config file is refused
// (exit 2, naming it, nothing written), while a --preset's cache values go unused. An Accel-Sim
// trace brings its own launch: workload and launch options given with one are refused as well.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;
using test::run_cachesim;

std::string path_of(const std::string& name) { return (test::temp_dir() / name).string(); }

std::string write_file(const std::string& name, const std::string& text) {
    const std::string path = path_of(name);
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

// One warp of one block loading 4 bytes a lane from 0x1000.
const char* const kOneLoad =
    "-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-accelsim tracer version = 3\n#BEGIN_TB\n"
    "thread block = 0,0,0\nwarp = 0\ninsts = 1\n0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0x1000 4\n#END_TB\n";

void expect_refused(const std::string& args, const std::string& message) {
    const std::string out = path_of("never.cst");
    const auto r = run_cachesim("trace -q " + args + " -o '" + out + "'");
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.out;
    EXPECT_NE(r.err.find(message), std::string::npos) << args << "\n" << r.err;
    EXPECT_FALSE(fs::exists(out)) << args;
}

TEST(CliTraceOptions, CacheOptionsOnTheCommandLineAreRefused) {
    for (const std::string option : {"--l1-size 1K", "--l1-lines 64", "--l1-line 32", "--l1-sector 8", "--l1-ways 4",
                                     "--l1-policy opt", "--l1-write back", "--l2-size 1M", "--l2-lines 64",
                                     "--l2-line 128", "--l2-sector 32", "--l2-ways 8", "--l2-policy fifo",
                                     "--l2-write through", "--no-analysis", "--reuse-sample 0.5", "--seed 3"}) {
        const std::string name = option.substr(0, option.find(' '));
        expect_refused(option, name + " is an option of the cache simulation; `cachesim trace` writes the accesses");
    }
    // The first of several is named; a value equal to a preset's counts as given.
    expect_refused("--l1-size 1K --l1-policy opt --l2-size 1M --no-analysis", "--l1-size is an option of the cache");
    expect_refused("--preset thesis-stencil --l1-size 384", "--l1-size is an option of the cache simulation");
}

TEST(CliTraceOptions, CacheOptionsInAConfigFileAreRefusedWithTheirLine) {
    const std::string config = write_file("caches.cfg", "size = 8x8\nl2-policy = random\n");
    expect_refused("--config '" + config + "'", "--l2-policy is an option of the cache simulation");
    expect_refused("--config '" + config + "'", "line 2: l2-policy = random");
    // A file of workload options alone writes its workload.
    const std::string workload = write_file("workload.cfg", "size = 8x8\n");
    const auto r = run_cachesim("trace -q --config '" + workload + "' -o '" + path_of("from_config.cst") + "'");
    EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(CliTraceOptions, TheModelIsRefused) {
    expect_refused("--model gpu", "--model chooses the model that simulates");
    expect_refused("--model thread", "--model chooses the model that simulates");
    const std::string din = write_file("one.din", "0 1000 4\n");
    expect_refused("--trace '" + din + "' --model gpu", "--model chooses the model that simulates");
}

TEST(CliTraceOptions, APresetsCacheValuesGoUnused) {
    // thesis-stencil is the 7x7 stencil on 16x16 with an L1 of 384 B and no L2; thesis-matmul the
    // 16x16x16 matmul. Their traces are those of the workloads alone.
    const std::pair<const char*, const char*> presets[] = {
        {"thesis-stencil", "--workload stencil --size 16x16 --stencil 7x7"},
        {"thesis-matmul", "--workload matmul --size 16x16 --depth 16"},
    };
    for (const auto& [preset, workload] : presets) {
        const std::string by_preset = path_of(std::string(preset) + ".cst"), by_hand = path_of(std::string(preset) + "_hand.cst");
        const auto r = run_cachesim("trace -q --backend generator --preset " + std::string(preset) + " -o '" + by_preset + "'");
        ASSERT_EQ(r.exit_code, 0) << preset << ": " << r.err;
        ASSERT_EQ(run_cachesim("trace -q --backend generator " + std::string(workload) + " -o '" + by_hand + "'").exit_code, 0);
        EXPECT_EQ(test::read_file(by_preset), test::read_file(by_hand)) << preset;
    }
    // A GPU preset is the GPU model's hardware: nothing of it applies, and a din trace converts.
    const std::string din = write_file("gpu_preset.din", "0 1000 4\n1 2000 8\n");
    const auto r = run_cachesim("trace -q --preset h200 --trace '" + din + "' -o '" + path_of("gpu_preset.cst") + "'");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("2 accesses"), std::string::npos) << r.out;
}

TEST(CliTraceOptions, AnAccelSimTraceTakesNoWorkloadOrLaunchOptions) {
    const std::string traceg = write_file("k.traceg", kOneLoad);
    for (const std::string option : {"--workload matmul", "--size 32x32", "--stencil 3x3", "--depth 8",
                                     "--elem-bytes 8", "--schedule morton"}) {
        const std::string name = option.substr(0, option.find(' '));
        expect_refused("--trace '" + traceg + "' " + option,
                       name + " describes a built-in workload; it does not apply to an Accel-Sim --trace");
    }
    for (const std::string option : {"--block 64", "--trace-version 1", "--backend host"}) {
        const std::string name = option.substr(0, option.find(' '));
        expect_refused("--trace '" + traceg + "' " + option,
                       name + " applies to workload traces; an Accel-Sim --trace is written with its own launch");
    }
    expect_refused("--trace '" + traceg + "' --l1-size 1K", "--l1-size is an option of the cache simulation");
    // A preset's workload and caches go unused: the kernel's 32 lanes make 32 accesses.
    const auto r = run_cachesim("trace --preset thesis-matmul --trace '" + traceg + "' -o '" + path_of("k.cst") + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("32 threads, 32 accesses"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace cachesim
