// --plot-x and --plot-y name one of the sweep's options as it is written on the command line
// (--l1-size), without its dashes (l1-size) or as a CSV column (l1_size): all draw the same
// heat map. A name the sweep is not given, or no option at all, is refused with that reason and
// the sweep's options; --plot-value takes a column in the same spellings.
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/cli_util.hpp"
#include "tests/scratch_dir.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;

const std::string kSweep = "sweep -q --size 32x32 --stencil 3x3 --l1-size 512,1K --l1-ways 1,2";

std::string heat_map(const fs::path& dir, const std::string& name, const std::string& plot_options) {
    const fs::path png = dir / (name + ".png");
    const auto r = test::run_cachesim(kSweep + " -o '" + (dir / (name + ".csv")).string() + "' --plot '" +
                                      png.string() + "' " + plot_options);
    EXPECT_EQ(r.exit_code, 0) << plot_options << ": " << r.err;
    return test::read_file(png);
}

TEST(CliSweepPlotAxisSpellings, TheOptionWithDashesOrAsAColumnDrawsTheSameHeatMap) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "axis-spellings");
    // Axes swapped from the default (x: the last varied option, --l1-ways), so that the spelling
    // is what decides them.
    const std::string plain = heat_map(dir, "plain", "--plot-x l1-size --plot-y l1-ways");
    ASSERT_FALSE(plain.empty());
    EXPECT_NE(plain, heat_map(dir, "default", ""));
    EXPECT_EQ(heat_map(dir, "dashes", "--plot-x --l1-size --plot-y=--l1-ways"), plain);
    EXPECT_EQ(heat_map(dir, "column", "--plot-x l1_size --plot-y l1_ways"), plain);
    // --plot-value: l1_hit_rate is the default column.
    EXPECT_EQ(heat_map(dir, "value", "--plot-x l1-size --plot-y l1-ways --plot-value --l1-hit-rate"), plain);
}

TEST(CliSweepPlotAxisSpellings, AnOptionTheSweepIsNotGivenIsRefusedWithThatReason) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "axis-refused");
    const std::string sweep = kSweep + " -o '" + (dir / "r.csv").string() + "' --plot '" + (dir / "r.png").string() + "' ";
    struct Case {
        std::string options, message;
    };
    for (const Case& c : std::vector<Case>{
             {"--plot-x --l1-lines", "--plot-x --l1-lines: the sweep is not given --l1-lines (its options: --size, "
                                     "--stencil, --l1-size, --l1-ways)"},
             {"--plot-y l2_size", "--plot-y l2_size: the sweep is not given --l2-size"},
             {"--plot-x colour", "--plot-x colour: --colour is not an option of cachesim simulate"},
             {"--plot-x ''", "--plot-x '': name one of the sweep's options"},
             {"--plot-value l1-lines", "--plot-value: no column 'l1-lines'"}}) {
        const auto r = test::run_cachesim(sweep + c.options);
        EXPECT_EQ(r.exit_code, 2) << c.options;
        EXPECT_NE(r.err.find(c.message), std::string::npos) << c.options << ": " << r.err;
        EXPECT_EQ(test::files_in(dir), 0u) << c.options << ": the sweep ran or left a file";
    }
}

}  // namespace
}  // namespace cachesim
