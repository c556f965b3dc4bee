// A message about a value a --config file set says where the file set it: options are checked
// long after the file is read, so the check itself cannot name the file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "apps/common/config_origins.hpp"
#include "tests/cli_util.hpp"

using namespace cachesim;
using namespace cachesim::cli;

TEST(ConfigOrigins, TheLineThatSetsAnOptionFirst) {
    const std::string text = "# a comment\n\nsize = 64x64\n  l1-size=12Q \nl1-size-lines = 3\nl1-size = 4K\n";
    EXPECT_EQ(config_line_of(text, "size"), 3);
    EXPECT_EQ(config_line_of(text, "l1-size"), 4);  // the first, spaces or none around '='
    EXPECT_EQ(config_line_of(text, "l1-size-lines"), 5);
    EXPECT_EQ(config_line_of(text, "l2-size"), 0);
    EXPECT_EQ(config_line_of("depth = 8", "depth"), 1);  // no newline at the end
}

TEST(ConfigOrigins, TheNoteNamesTheSettingAMessageIsAbout) {
    remember_config_origins({{"l1-size", "12Q", "f.cfg", 4}, {"schedule", "bogus", "f.cfg", 2}, {"trace", "k.din", "f.cfg", 0}});
    EXPECT_EQ(config_origin_note("--l1-size: '12Q' is not a size"), " (set in --config f.cfg line 4: l1-size = 12Q)");
    EXPECT_EQ(config_origin_note("unknown schedule 'bogus'"), " (set in --config f.cfg line 2: schedule = bogus)");
    EXPECT_EQ(config_origin_note("k.din: no such file"), " (set in --config f.cfg: trace = k.din)");
    // Another option that starts with the same name, a value not quoted, nothing from the file.
    EXPECT_EQ(config_origin_note("--l1-size-lines: too many"), "");
    EXPECT_EQ(config_origin_note("bogus is not quoted here"), "");
    EXPECT_EQ(config_origin_note("--l2-size: too small"), "");
    remember_config_origins({});
    EXPECT_EQ(config_origin_note("--l1-size: '12Q' is not a size"), "");
}

TEST(ConfigOrigins, CliMessagesSayWhereTheFileSetTheValue) {
    const auto dir = test::temp_dir() / "config_origins";
    std::filesystem::create_directories(dir);
    const std::string config = (dir / "f.cfg").string();
    const auto expect_message = [&](const std::string& text, const std::string& message) {
        std::ofstream(config, std::ios::binary) << text;
        const auto r = test::run_cachesim("simulate --config '" + config + "'");
        EXPECT_EQ(r.exit_code, 2) << text;
        EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    };
    expect_message("size = 64x64\nl1-size = 12Q\n", "--l1-size: '12Q' is not a size");
    expect_message("size = 64x64\nl1-size = 12Q\n", "(set in --config " + config + " line 2: l1-size = 12Q)");
    expect_message("# the schedule\nschedule = bogus\n", "(set in --config " + config + " line 2: schedule = bogus)");
    expect_message("trace = nothere.din\n", "nothere.din: no such file (set in --config " + config + " line 1: trace = nothere.din)");
    // The command line's own value is not the file's: no note.
    std::ofstream(config, std::ios::binary) << "schedule = linear\n";
    const auto r = test::run_cachesim("simulate --config '" + config + "' --schedule bogus");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err.find("set in --config"), std::string::npos) << r.err;
}
