// `cachesim diagram --dry-run`, as for simulate and sweep: checks the options, prints what would
// be drawn and the memory estimate, and exits 0 without simulating or writing the PNG; bad
// options are still refused.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;
using test::run_cachesim;

std::string quoted(const fs::path& p) { return "'" + p.string() + "'"; }

TEST(CliDiagramDryRun, PrintsThePlanAndTheEstimateWithoutDrawing) {
    const fs::path png = test::temp_dir() / "dry_run.png";
    fs::remove(png);
    const auto r = run_cachesim("diagram --dry-run --size 16x16 --view array --out " + quoted(png));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("would draw the array view of stencil 16x16"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("memory estimate: "), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("wrote "), std::string::npos) << r.out;
    EXPECT_FALSE(fs::exists(png));
}

TEST(CliDiagramDryRun, BadOptionsAreStillRefused) {
    const fs::path png = test::temp_dir() / "dry_run_bad.png";
    const auto r = run_cachesim("diagram --dry-run --size 16x16 --view sideways --out " + quoted(png));
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--view"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(png));
}

}  // namespace
}  // namespace cachesim
