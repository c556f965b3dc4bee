// A --config file's settings for a cache level go only to the sweep's rows that have the level,
// as the same options on the command line do; a setting that applies to no row is still an error.
#include <gtest/gtest.h>

#include <fstream>

#include "apps/cachesim/sweep_results.hpp"
#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

using test::run_cachesim;

std::string config_file(const std::string& name, const std::string& text) {
    const std::string path = (test::temp_dir() / name).string();
    std::ofstream(path) << text;
    return path;
}

TEST(CliSweepConfigFileLevels, ALevelsFileSettingsSkipRowsWithoutTheLevel) {
    const std::string config = config_file("l2_ways.cfg", "l2-ways = 8\n");
    const auto from_file = run_cachesim("sweep -q --size 32x32 --stencil 3x3 --config " + config + " --l2-size 0,8K");
    ASSERT_EQ(from_file.exit_code, 0) << from_file.err;
    const auto on_command_line = run_cachesim("sweep -q --size 32x32 --stencil 3x3 --l2-ways 8 --l2-size 0,8K");
    ASSERT_EQ(on_command_line.exit_code, 0) << on_command_line.err;
    const auto file_rows = cli::parse_csv(from_file.out), line_rows = cli::parse_csv(on_command_line.out);
    ASSERT_EQ(file_rows.size(), 1u + 2u);  // --l2-size 0 and 8K
    ASSERT_EQ(line_rows.size(), file_rows.size());
    // The results are those of the command line's options (only sweep_config differs: --config).
    for (std::size_t r = 0; r < file_rows.size(); ++r)
        EXPECT_EQ(std::vector<std::string>(file_rows[r].begin() + 1, file_rows[r].end()),
                  std::vector<std::string>(line_rows[r].begin() + 1, line_rows[r].end()));
}

TEST(CliSweepConfigFileLevels, ASettingNoRowCanUseIsStillAnError) {
    const std::string config = config_file("l2_ways_unused.cfg", "l2-ways = 8\n");
    const auto r = run_cachesim("sweep -q --size 32x32 --stencil 3x3 --config " + config + " --l1-size 1K,2K");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("l2-ways"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("does not apply"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace cachesim
