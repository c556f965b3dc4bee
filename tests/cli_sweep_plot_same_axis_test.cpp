// --plot-x and --plot-y naming one option, in any spelling, would draw a heat map whose cells off
// the diagonal are empty: refused, naming both as given.
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/cli_util.hpp"
#include "tests/scratch_dir.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;

TEST(CliSweepPlotSameAxis, OneOptionOnBothAxesIsRefusedNamingBoth) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "same-axis");
    const std::string sweep = "sweep -q --size 32x32 --stencil 3x3 --l1-size 512,1K --l1-ways 1,2 -o '" +
                              (dir / "s.csv").string() + "' --plot '" + (dir / "s.png").string() + "' ";
    for (const auto& [x, y] : std::vector<std::pair<std::string, std::string>>{
             {"l1-size", "l1-size"}, {"l1-ways", "--l1-ways"}, {"l1_size", "--l1-size"}}) {
        const auto r = test::run_cachesim(sweep + "--plot-x " + x + " --plot-y " + y);
        EXPECT_EQ(r.exit_code, 2) << x << " " << y << ": " << r.err;
        EXPECT_NE(r.err.find("--plot-x " + x + " and --plot-y " + y + " name the same option"), std::string::npos)
            << r.err;
        EXPECT_EQ(test::files_in(dir), 0u) << "the sweep ran or left a file";
    }
}

}  // namespace
}  // namespace cachesim
