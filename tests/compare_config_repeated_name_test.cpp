// compare --config: a description giving one name on two lines (two presets, two SM counts) is
// refused naming both lines, rather than simulated with whichever line comes last.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/cli_util.hpp"
#include "tests/measured_stencil_rows.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;

const std::string kMeasured = test::kCounterHeader + test::stencil_row("NVIDIA L4");

test::CommandResult compare_with(const std::string& name, const std::string& description) {
    const fs::path dir = test::temp_dir() / "config-repeated-name";
    fs::create_directories(dir);
    std::ofstream(dir / "mine.csv") << kMeasured;
    std::ofstream(dir / name) << description;
    return test::run_cachesim("compare --no-progress --config '" + (dir / name).string() + "' --measured '" +
                              (dir / "mine.csv").string() + "'");
}

TEST(CompareConfigRepeatedName, TwoPresetLinesAreRefused) {
    const auto r = compare_with("presets.cfg", "# device: NVIDIA L4\npreset = a100\nsms = 58\npreset = h100\n");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("presets.cfg:4: 'preset' is given twice, on line 2 and here"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty());
}

TEST(CompareConfigRepeatedName, TwoLinesOfAParameterAreRefused) {
    // (spaces around the name do not make it another)
    const auto r = compare_with("sms.cfg", "preset = a100\nsms = 58\n# edited by hand\n  sms   = 60\n");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("sms.cfg:4: 'sms' is given twice, on line 2 and here"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty());
}

}  // namespace
}  // namespace cachesim
