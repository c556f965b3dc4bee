// The heat map's options (--plot-x, --plot-y, --plot-value) without --plot would go unused: each
// is refused, naming it and saying it needs --plot FILE.png, before any configuration runs.
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/cli_util.hpp"
#include "tests/scratch_dir.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;

TEST(CliSweepPlotNeedsPlot, EachHeatMapOptionWithoutPlotIsRefusedBeforeAnythingRuns) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "needs-plot");
    const fs::path csv = dir / "y.csv";
    const std::string sweep = "sweep -q --size 64x64 --stencil 3x3 --l1-size 8K,16K -o '" + csv.string() + "' ";
    for (const std::string option : {"--plot-x l1-size", "--plot-y l1-size", "--plot-value l2_hits", "--plot-x=stencil"}) {
        const auto r = test::run_cachesim(sweep + option);
        EXPECT_EQ(r.exit_code, 2) << option << ": " << r.err;
        const std::string name = option.substr(0, option.find_first_of(" ="));
        EXPECT_NE(r.err.find(name), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("needs --plot FILE.png"), std::string::npos) << r.err;
        EXPECT_EQ(test::files_in(dir), 0u) << option << ": the sweep ran or left a file";
    }
    // The same options with --plot draw it.
    const auto r = test::run_cachesim(sweep + "--plot-x l1-size --plot '" + (dir / "y.png").string() + "'");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(fs::exists(dir / "y.png"));
}

}  // namespace
}  // namespace cachesim
