// cachesim compare writes files only when asked: without --out/--plot the current directory is
// left as it was; with them, exactly those files appear.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;

// One measured H200 row, its launch shrunk to 128 x 128 so that simulating it is quick (the
// measured values no longer match it; only the files written matter here).
std::string small_measured_csv() {
    std::ifstream in(std::string(CACHESIM_TEST_DATA_DIR) + "/h200/fidelity_stencil.csv");
    std::string header, row;
    std::getline(in, header);
    std::getline(in, row);
    row.replace(row.find(",4096,4096,"), 11, ",128,128,");
    const fs::path file = test::temp_dir() / "small_measured.csv";
    std::ofstream(file) << header << "\n" << row << "\n";
    return file.string();
}

// Runs compare inside `dir`.
int compare_in(const fs::path& dir, const std::string& options) {
    const char* bin = std::getenv("CACHESIM_BIN");
    if (!bin) return -1;
    const std::string command = "cd '" + dir.string() + "' && '" + bin + "' compare --measured '" + small_measured_csv() +
                                "' --no-progress " + options +
                                " >/dev/null 2>'" + (dir.parent_path() / "compare_err.txt").string() + "'";
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::vector<std::string> names_in(const fs::path& dir) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

TEST(CliCompareOutputs, NothingIsWrittenUnlessAsked) {
    const fs::path dir = test::temp_dir() / "compare-cwd";
    fs::remove_all(dir);
    fs::create_directories(dir);
    ASSERT_EQ(compare_in(dir, ""), 0) << test::read_file(dir.parent_path() / "compare_err.txt");
    EXPECT_TRUE(names_in(dir).empty());
    ASSERT_EQ(compare_in(dir, "--out joined.csv --plot plot.png"), 0);
    EXPECT_EQ(names_in(dir), (std::vector<std::string>{"joined.csv", "plot.png"}));
}

TEST(CliCompareOutputs, AnUnwritablePathFailsBeforeSimulating) {
    const fs::path dir = test::temp_dir() / "compare-bad";
    fs::remove_all(dir);
    fs::create_directories(dir);
    EXPECT_EQ(compare_in(dir, "--plot missing/plot.png"), 2);
    EXPECT_NE(test::read_file(dir.parent_path() / "compare_err.txt").find("--plot missing/plot.png"), std::string::npos);
}

}  // namespace
}  // namespace cachesim
