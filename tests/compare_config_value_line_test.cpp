// compare --config: a value the GPU model refuses in a description's line is named by the file
// and line that hold it, not as a --gpu option the user never gave.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/cli_util.hpp"
#include "tests/measured_stencil_rows.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;

// A small stencil launch on an RTX 4090 (made-up but consistent counters: 3000 of 4000 sectors hit, 75%).
const std::string kMeasured = test::kCounterHeader + test::stencil_row("NVIDIA GeForce RTX 4090");

// Lines 1-4 as gpubench --describe writes them for the RTX 4090 (compute capability 8.9).
const std::string kDescription =
    "# device: NVIDIA GeForce RTX 4090\n"  // line 1
    "preset = a100\n"                      // line 2
    "sms = 128\n"                          // line 3
    "l2-size = 75497472\n";                // line 4

test::CommandResult compare_with(const std::string& name, const std::string& description) {
    const fs::path dir = test::temp_dir() / "config-value-line";
    fs::create_directories(dir);
    std::ofstream(dir / "mine.csv") << kMeasured;
    std::ofstream(dir / name) << description;
    return test::run_cachesim("compare --no-progress --config '" + (dir / name).string() + "' --measured '" +
                              (dir / "mine.csv").string() + "'");
}

TEST(CompareConfigValueLine, AValueTheModelRefusesNamesItsLine) {
    // line 5: a size with a unit the model does not take
    const auto r = compare_with("unit.cfg", kDescription + "unified-l1 = 128KB\n");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("unit.cfg:5: --unified-l1: '128KB' is not a size"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("--gpu"), std::string::npos) << "no --gpu was given: " << r.err;
    EXPECT_TRUE(r.out.empty());
}

TEST(CompareConfigValueLine, TwoLinesThatContradictNameTheOneTheMessageIsAbout) {
    // line 6's carve-out of 132 KiB does not fit line 5's 128 KiB array
    const auto r = compare_with("carve.cfg", kDescription + "unified-l1 = 128K\ncarveouts = 0,8,16,32,64,100,132\n");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("carve.cfg:6: --carveouts: 132 KiB is more than"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty());
}

}  // namespace
}  // namespace cachesim
