// compare: a directory given as --measured or --config is said to be one, not read as a file
// without a header or a preset line.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;

TEST(CompareInputDirectory, MeasuredDirectoryIsNamed) {
    const fs::path folder = test::temp_dir() / "measurements";
    fs::create_directories(folder);
    const auto r = test::run_cachesim("compare --no-progress --preset h200 --measured '" + folder.string() + "'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--measured: " + folder.string() + ": a directory, not a measured CSV"), std::string::npos)
        << r.err;
}

TEST(CompareInputDirectory, ConfigDirectoryIsNamed) {
    const fs::path folder = test::temp_dir() / "configs";
    fs::create_directories(folder);
    std::ofstream(test::temp_dir() / "m.csv") << "kernel\n";  // never read: the description is refused first
    const auto r = test::run_cachesim("compare --no-progress --config '" + folder.string() + "' --measured '" +
                                      (test::temp_dir() / "m.csv").string() + "'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--config " + folder.string() + ": a directory, not a description file"), std::string::npos)
        << r.err;
}

}  // namespace
}  // namespace cachesim
