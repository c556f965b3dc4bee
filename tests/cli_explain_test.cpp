// cachesim simulate --explain: every GPU model parameter with its value and its provenance, for
// every preset, "set by the user" for a value given on the command line (and which file and line
// for one a --config file gave).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

using test::run_cachesim;

// The GPU model's options, written down from the README's option table (not from the program).
const std::vector<std::string> kParameters = {
    "block", "sms", "warp-size", "threads-per-sm", "blocks-per-sm", "regs-per-thread", "regs-per-sm",
    "smem-per-block", "smem-reserved", "unified-l1", "carveouts", "l1-size", "l1-line", "l1-sector",
    "l1-ways", "l1-policy", "l2-size", "l2-line", "l2-sector", "l2-ways", "l2-policy", "l2-index",
    "dram-fetch", "l2-partitions", "l2-partition-map", "l2-fill", "l2-coalesce-hit", "l2-coalesce-miss",
    "l2-coalesce-max", "l2-coalesce-among", "cta-order", "cta-refill", "warp-scheduler",
    "warp-rate-spread", "issue-burst", "block-start-skip",
};
const std::vector<std::string> kProvenances = {"measured", "documented", "fitted", "assumed", "set by the user"};

// The line of `text` that explains --option.
std::string line_of(const std::string& text, const std::string& option) {
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (line.rfind("  --" + option + " ", 0) == 0) return line;
    return "";
}

TEST(CliExplain, ListsEveryParameterWithValueAndProvenanceForEveryPreset) {
    for (const std::string preset : {"v100", "t4", "rtx2080s", "a100", "h100", "h200"}) {
        const auto r = run_cachesim("simulate --preset " + preset + " --explain");
        ASSERT_EQ(r.exit_code, 0) << preset << "\n" << r.err;
        EXPECT_NE(r.out.find("preset " + preset), std::string::npos) << r.out;
        for (const std::string& option : kParameters) {
            const std::string line = line_of(r.out, option);
            ASSERT_FALSE(line.empty()) << preset << ": --" << option << " missing\n" << r.out;
            bool has_provenance = false;
            for (const std::string& kind : kProvenances) has_provenance |= line.find(kind) != std::string::npos;
            EXPECT_TRUE(has_provenance) << line;
            EXPECT_EQ(line.find("set by the user"), std::string::npos) << line;
        }
    }
}

TEST(CliExplain, TheH200sValuesAndSources) {
    const auto r = run_cachesim("simulate --preset h200 --explain");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // The H200 preset as gpu_presets.cpp's comments describe it.
    const std::string spread = line_of(r.out, "warp-rate-spread");
    EXPECT_NE(spread.find(" 0.15 "), std::string::npos) << spread;
    EXPECT_NE(spread.find("fitted"), std::string::npos) << spread;
    EXPECT_NE(spread.find("training matmul"), std::string::npos) << spread;
    const std::string redraw = line_of(r.out, "warp-rate-redraw");
    EXPECT_NE(redraw.find(" 32 "), std::string::npos) << redraw;
    EXPECT_NE(redraw.find("assumed"), std::string::npos) << redraw;
    const std::string skip = line_of(r.out, "block-start-skip");
    EXPECT_NE(skip.find(" 8 "), std::string::npos) << skip;
    EXPECT_NE(skip.find("fitted"), std::string::npos) << skip;
    const std::string partitions = line_of(r.out, "l2-partitions");
    EXPECT_NE(partitions.find(" 2 "), std::string::npos) << partitions;
    EXPECT_NE(partitions.find("measured"), std::string::npos) << partitions;
    EXPECT_NE(partitions.find("tests/data/h200/l2probe_sm.csv"), std::string::npos) << partitions;
    EXPECT_NE(line_of(r.out, "l2-size").find(" 62914560 "), std::string::npos);  // 60 MiB
    EXPECT_NE(line_of(r.out, "issue-burst").find(" auto "), std::string::npos);
}

TEST(CliExplain, ValuesGivenOnTheCommandLineAreSetByTheUser) {
    const auto r = run_cachesim("simulate --preset h200 --block-start-skip 0 --sms 64 --l1-size 32K --explain");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const std::string option : {"block-start-skip", "sms", "l1-size"})
        EXPECT_NE(line_of(r.out, option).find("set by the user"), std::string::npos) << line_of(r.out, option);
    EXPECT_NE(line_of(r.out, "block-start-skip").find(" 0 "), std::string::npos);
    EXPECT_NE(line_of(r.out, "l1-size").find(" 32768 "), std::string::npos);
    // The measured floorplan fits 132 SMs only: with 64 the first wave goes round robin.
    const std::string order = line_of(r.out, "cta-order");
    EXPECT_NE(order.find(" round-robin "), std::string::npos) << order;
    EXPECT_EQ(order.find("measured:"), std::string::npos) << order;
    EXPECT_EQ(line_of(r.out, "warp-rate-spread").find("set by the user"), std::string::npos);
}

// A value a --config file gave says which file and line; --sms moves the floorplan's choices.
TEST(CliExplain, ValuesAConfigFileGaveNameTheFile) {
    const std::string config = (test::temp_dir() / "explain.cfg").string();
    std::ofstream(config) << "# a GPU of 64 SMs\nsms = 64\n";
    const auto r = run_cachesim("simulate --preset h200 --config '" + config + "' --explain");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(line_of(r.out, "sms").find("set by the user in --config " + config + " line 2 (h200: 132, measured)"),
              std::string::npos) << line_of(r.out, "sms");
    EXPECT_NE(line_of(r.out, "cta-order").find("follows --sms"), std::string::npos) << line_of(r.out, "cta-order");
}

TEST(CliExplain, ModelGpuWithoutPresetExplainsTheDefaultPreset) {
    const auto r = run_cachesim("simulate --model gpu --explain");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("preset h200"), std::string::npos);
}

TEST(CliExplain, TheThreadModelHasNoGpuParameters) {
    const auto r = run_cachesim("simulate --explain");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--explain"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace cachesim
