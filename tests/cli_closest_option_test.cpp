// A mistyped option names the closest one the command knows, in every subcommand that parses its
// own options (compare, sweep, info) and on a --config file's line, which also gives its number;
// every command words an unknown option alike ("unrecognised option").
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "tests/cli_util.hpp"
#include "tests/scratch_dir.hpp"

namespace cachesim {
namespace {

using test::run_cachesim;

void expect_message(const std::string& args, const std::string& err) {
    const auto r = run_cachesim(args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_EQ(r.err, err) << args;
    EXPECT_TRUE(r.out.empty()) << args;
}

std::string write_config(const std::string& name, const std::string& text) {
    const auto path = test::temp_dir() / name;
    std::ofstream(path) << text;
    return path.string();
}

TEST(CliClosestOption, CompareNamesItsOwnOption) {
    // --mesured is --measured less one letter.
    expect_message("compare --mesured x.csv",
                   "cachesim compare: error: unrecognised option '--mesured' (did you mean --measured? see cachesim "
                   "compare --help)\n");
}

TEST(CliClosestOption, SweepNamesItsOwnOptionsAndSimulates) {
    // --plot-z is one letter from the sweep's --plot-x; --l1-sise one from simulate's --l1-size,
    // which the sweep passes on to every configuration.
    expect_message("sweep --plot-z l1-size --l1-size 1K,2K",
                   "cachesim sweep: error: unrecognised option '--plot-z' (did you mean --plot-x? see cachesim sweep "
                   "--help)\n");
    expect_message("sweep --l1-sise 1K,2K",
                   "cachesim sweep: error: unrecognised option '--l1-sise' (did you mean --l1-size? see cachesim sweep "
                   "--help)\n");
}

TEST(CliClosestOption, SweepWordsAnUnknownOptionAsTheOthers) {
    // Nothing the sweep or simulate takes is within two letters of --frobnicate.
    expect_message("sweep --frobnicate 1,2",
                   "cachesim sweep: error: unrecognised option '--frobnicate' (see cachesim sweep --help)\n");
}

TEST(CliClosestOption, InfoNamesItsOwnOption) {
    // --verfy is --verify less one letter.
    expect_message("info --verfy x.cst",
                   "cachesim info: error: unrecognised option '--verfy' (did you mean --verify? see cachesim info "
                   "--help)\n");
}

TEST(CliClosestOption, ConfigFileLineNamesItsNumberAndTheOptionMeant) {
    // The mistake is on the file's third line (after a comment and a blank line); l1-sise is one
    // letter from l1-size, written as a config file writes it.
    const std::string path = write_config("typo.cfg", "# a setup\n\nl1-sise = 1K\n");
    expect_message("simulate --config '" + path + "'",
                   "cachesim simulate: error: --config " + path +
                       ": line 3: unrecognised option 'l1-sise' (did you mean l1-size = ...?)\n");
    // A name unlike any: the line alone.
    const std::string other = write_config("unlike.cfg", "size = 64x64\nfrobnicate = 1\n");
    expect_message("simulate --config '" + other + "'",
                   "cachesim simulate: error: --config " + other + ": line 2: unrecognised option 'frobnicate'\n");
}

}  // namespace
}  // namespace cachesim
