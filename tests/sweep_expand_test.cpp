// Sweep arguments: lists, ranges and their cross product, checked against simulate's options.
#include <gtest/gtest.h>

#include <fstream>

#include "apps/common/options.hpp"
#include "apps/cachesim/sweep_expand.hpp"
#include "tests/cli_util.hpp"
#include "traces/input_error.hpp"

namespace cachesim::cli {
namespace {

using Values = std::vector<std::string>;

TEST(SweepExpand, ListsAndRanges) {
    EXPECT_EQ(expand_values("linear,column:8,column:16", "schedule"), (Values{"linear", "column:8", "column:16"}));
    EXPECT_EQ(expand_values("32K..256K*2", "l1-size"), (Values{"32768", "65536", "131072", "262144"}));
    EXPECT_EQ(expand_values("1..10+4", "l1-ways"), (Values{"1", "5", "9"}));
    EXPECT_EQ(expand_values("1..3,full", "l1-ways"), (Values{"1", "2", "3", "full"}));
    EXPECT_EQ(expand_values("100..300*2", "x"), (Values{"100", "200"}));
    EXPECT_EQ(expand_values("../traces/a.cst", "trace"), (Values{"../traces/a.cst"}));
    EXPECT_EQ(expand_values("tiled:32x8", "schedule"), (Values{"tiled:32x8"}));
    EXPECT_EQ(expand_values("0\\,8\\,16,0\\,32", "carveouts"), (Values{"0,8,16", "0,32"}));
}

TEST(SweepExpand, MalformedRangesAreInputErrors) {
    for (const char* bad : {"8..1", "1..8*1", "0..8*2", "1..8+0", "1..x", "a,,b", "1..1000000000", "1..8*"})
        EXPECT_THROW(expand_values(bad, "l1-size"), InputError) << bad;
}

po::options_description simulate_like() {
    po::options_description d;
    d.add(common_options()).add(workload_options()).add(cache_options());
    return d;
}

TEST(SweepExpand, CrossProductFirstAxisSlowest) {
    const auto axes = parse_sweep_axes({"--schedule", "linear,column:8", "--l1-size=1K..4K*2", "--no-analysis",
                                        "--size", "64x64"},
                                       simulate_like());
    ASSERT_EQ(axes.size(), 4u);
    EXPECT_TRUE(axes[2].values.empty());  // a switch
    const auto configs = expand_configurations(axes);
    ASSERT_EQ(configs.size(), 6u);
    // The key lists the options by name, whatever order they were written in.
    EXPECT_EQ(configs[0].key, "--l1-size=1024 --no-analysis --schedule=linear --size=64x64");
    EXPECT_EQ(configs[1].key, "--l1-size=2048 --no-analysis --schedule=linear --size=64x64");
    EXPECT_EQ(configs[3].key, "--l1-size=1024 --no-analysis --schedule=column:8 --size=64x64");
    EXPECT_EQ(configs[5].axis_values[1], "4096");
    EXPECT_EQ(configs[0].args.front(), "--schedule=linear");  // the arguments keep the axes' order
}

TEST(SweepExpand, TheKeyDoesNotDependOnTheOptionsOrder) {
    const auto one = expand_configurations(parse_sweep_axes({"--size", "64x64", "--l1-size", "1K,2K"}, simulate_like()));
    const auto other = expand_configurations(parse_sweep_axes({"--l1-size", "1K,2K", "--size", "64x64"}, simulate_like()));
    ASSERT_EQ(one.size(), 2u);
    ASSERT_EQ(other.size(), 2u);
    EXPECT_EQ(one[0].key, other[0].key);
    EXPECT_EQ(one[1].key, other[1].key);
    EXPECT_EQ(configuration_key({"--b=1", "--a=2", "--ab"}), "--a=2 --ab --b=1");
}

TEST(SweepExpand, EachWorkloadKeepsOnlyItsOwnShapeOptions) {
    // Two workloads, two depths, two boxes: 8 combinations, of which the stencil's rows differ only
    // by box (2) and the matmul's only by depth (2).
    const auto axes = parse_sweep_axes({"--workload", "stencil,matmul", "--depth", "16,32", "--stencil", "3x3,5x5",
                                        "--size", "32x32"},
                                       simulate_like());
    auto configs = expand_configurations(axes);
    ASSERT_EQ(configs.size(), 8u);
    keep_options_that_apply(configs, axes, simulate_like());
    ASSERT_EQ(configs.size(), 4u);
    EXPECT_EQ(configs[0].key, "--size=32x32 --stencil=3x3 --workload=stencil");
    EXPECT_EQ(configs[1].key, "--size=32x32 --stencil=5x5 --workload=stencil");
    EXPECT_EQ(configs[2].key, "--depth=16 --size=32x32 --workload=matmul");
    EXPECT_EQ(configs[3].key, "--depth=32 --size=32x32 --workload=matmul");
    EXPECT_EQ(configs[0].axis_values[1], "");  // no depth of its own
    EXPECT_EQ(configs[2].axis_values[2], "");  // no box of its own
    EXPECT_EQ(configs[3].axis_values[1], "32");
}

TEST(SweepExpand, AShapeOptionNoConfigurationUsesIsLeftForSimulateToRefuse) {
    const auto axes = parse_sweep_axes({"--workload", "stencil", "--depth", "16,32"}, simulate_like());
    auto configs = expand_configurations(axes);
    keep_options_that_apply(configs, axes, simulate_like());
    ASSERT_EQ(configs.size(), 2u);
    EXPECT_EQ(configs[1].key, "--depth=32 --workload=stencil");
}

// A --config file holding `text`.
std::string config_file(const std::string& name, const std::string& text) {
    const std::filesystem::path path = test::temp_dir() / name;
    std::ofstream(path) << text;
    return path.string();
}

// A configuration as simulate reads it (its config file included).
SimulationOptions read_configuration(const SweepConfiguration& config) {
    std::vector<std::string> args{"sweep"};
    args.insert(args.end(), config.args.begin(), config.args.end());
    return read_simulation_args(args, simulation_option_groups(), "configuration: ");
}

TEST(SweepExpand, AConfigFilesShapeOfTheOtherWorkloadGoesUnused) {
    // The file's depth is the matmul's: the stencil's configuration runs without it, not refused.
    const std::string cfg = config_file("depth.cfg", "depth = 64\n");
    const auto axes = parse_sweep_axes({"--workload", "stencil,matmul", "--config", cfg, "--size", "16x16"},
                                       simulation_option_groups());
    auto configs = expand_configurations(axes);
    keep_options_that_apply(configs, axes, simulation_option_groups());
    ASSERT_EQ(configs.size(), 2u);
    EXPECT_EQ(configs[0].key, "--config=" + cfg + " --size=16x16 --workload=stencil");
    EXPECT_EQ(configs[1].key, "--config=" + cfg + " --size=16x16 --workload=matmul");
    const SimulationOptions stencil = read_configuration(configs[0]), matmul = read_configuration(configs[1]);
    ASSERT_TRUE(stencil.workload && matmul.workload);
    EXPECT_EQ(stencil.workload->kind, WorkloadKind::stencil);
    EXPECT_EQ(matmul.workload->kind, WorkloadKind::matmul);
    EXPECT_EQ(matmul.workload->depth, 64u);
}

TEST(SweepExpand, ShapesFromTheCommandLineAndAConfigFileEachGoToTheirWorkload) {
    // 2 workloads x 2 depths = 4; the stencil's two differ only by depth, so 1 + 2 = 3, and the
    // file's box shapes the stencil's only.
    const std::string cfg = config_file("box.cfg", "stencil = 3x3\n");
    const auto axes = parse_sweep_axes({"--workload", "stencil,matmul", "--depth", "8,16", "--config", cfg},
                                       simulation_option_groups());
    auto configs = expand_configurations(axes);
    ASSERT_EQ(configs.size(), 4u);
    keep_options_that_apply(configs, axes, simulation_option_groups());
    ASSERT_EQ(configs.size(), 3u);
    EXPECT_EQ(configs[0].key, "--config=" + cfg + " --workload=stencil");
    EXPECT_EQ(configs[0].axis_values[1], "");
    EXPECT_EQ(configs[1].key, "--config=" + cfg + " --depth=8 --workload=matmul");
    EXPECT_EQ(configs[2].key, "--config=" + cfg + " --depth=16 --workload=matmul");
    const SimulationOptions stencil = read_configuration(configs[0]), eight = read_configuration(configs[1]), sixteen = read_configuration(configs[2]);
    EXPECT_EQ(stencil.workload->stencil_w, 3u);
    EXPECT_EQ(stencil.workload->stencil_h, 3u);
    EXPECT_EQ(eight.workload->depth, 8u);
    EXPECT_EQ(sixteen.workload->depth, 16u);
}

TEST(SweepExpand, ALevelsOptionsGoOnlyToTheRowsThatHaveIt) {
    // 3 L2 sizes, one of them none: its row runs without --l2-ways and --l2-policy.
    const auto axes = parse_sweep_axes({"--l2-size", "0,64K,1M", "--l2-ways", "8", "--l2-policy", "fifo"},
                                       simulation_option_groups());
    auto configs = expand_configurations(axes);
    keep_options_that_apply(configs, axes, simulation_option_groups());
    ASSERT_EQ(configs.size(), 3u);
    EXPECT_EQ(configs[0].key, "--l2-size=0");
    EXPECT_EQ(configs[1].key, "--l2-policy=fifo --l2-size=64K --l2-ways=8");
    EXPECT_EQ(configs[2].key, "--l2-policy=fifo --l2-size=1M --l2-ways=8");
    EXPECT_FALSE(read_configuration(configs[0]).hierarchy.l2.enabled());
    EXPECT_EQ(read_configuration(configs[1]).hierarchy.l2.ways, 8u);
    // No row with an L2: the options stay, and simulate's message names them.
    const auto none = parse_sweep_axes({"--l1-size", "1K,2K", "--l2-ways", "8"}, simulation_option_groups());
    auto unused = expand_configurations(none);
    keep_options_that_apply(unused, none, simulation_option_groups());
    ASSERT_EQ(unused.size(), 2u);
    EXPECT_THROW(read_configuration(unused[0]), InputError);
}

TEST(SweepExpand, AConfigFileThatNamesOneWorkloadAndShapesTheOtherIsRefused) {
    const std::string cfg = config_file("contradicts.cfg", "workload = stencil\ndepth = 64\n");
    const auto axes = parse_sweep_axes({"--workload", "stencil,matmul", "--config", cfg}, simulation_option_groups());
    auto configs = expand_configurations(axes);
    keep_options_that_apply(configs, axes, simulation_option_groups());
    ASSERT_EQ(configs.size(), 2u);
    try {
        read_configuration(configs[0]);
        ADD_FAILURE() << "the stencil's configuration was read";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("'depth' shapes the matmul workload, and the file's workload is stencil"),
                  std::string::npos)
            << e.what();
    }
    // The command line's matmul overrides the file's workload: its depth applies.
    EXPECT_EQ(read_configuration(configs[1]).workload->depth, 64u);
}

TEST(SweepExpand, UnknownRepeatedOrIncompleteOptionsAreInputErrors) {
    const auto d = simulate_like();
    // An unknown option is the option error every command gives, for its "did you mean".
    EXPECT_THROW(parse_sweep_axes({"--l1-colour", "red"}, d), boost::program_options::unknown_option);
    EXPECT_THROW(parse_sweep_axes({"--l1-size", "1K", "--l1-size", "2K"}, d), InputError);
    EXPECT_THROW(parse_sweep_axes({"--l1-size"}, d), InputError);
    EXPECT_THROW(parse_sweep_axes({"stray"}, d), InputError);
    EXPECT_THROW(parse_sweep_axes({"--no-analysis=1"}, d), InputError);
}

TEST(SweepExpand, HugeCrossProductsAreRefused) {
    const auto d = simulate_like();
    const auto axes = parse_sweep_axes({"--seed", "1..2000", "--l1-line", "1..2000"}, d);
    EXPECT_THROW(expand_configurations(axes), InputError);
}

}  // namespace
}  // namespace cachesim::cli
