// gpubench checks where its outputs go before it touches the GPU, so that a sweep of hours does
// not end in "cannot rename": an output that is a directory, one in a folder that does not exist,
// and two outputs that are one file are refused naming the option; standard output and a file
// already there (replaced when the run completes) are taken, and the check leaves nothing behind.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "apps/gpubench/options.hpp"
#include "traces/input_error.hpp"

namespace gpubench {
namespace {

namespace fs = std::filesystem;

class GpubenchOutputPaths : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("gpubench_output_paths_" + std::to_string(::getpid()));
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }
    std::string path(const std::string& name) const { return (dir_ / name).string(); }
    fs::path dir_;
};

std::string refusal(const Options& options) {
    try {
        check_output_paths(options);
        return "(accepted)";
    } catch (const cachesim::InputError& e) {
        return e.what();
    }
}

TEST_F(GpubenchOutputPaths, ADirectoryIsRefusedForEachOutput) {
    Options out;
    out.out_path = dir_.string();
    EXPECT_EQ(refusal(out), "--out: " + dir_.string() + ": is a directory");
    Options placement;
    placement.placement_path = dir_.string();
    EXPECT_EQ(refusal(placement), "--placement: " + dir_.string() + ": is a directory");
    Options describe;
    describe.describe_path = dir_.string();
    EXPECT_EQ(refusal(describe), "--describe: " + dir_.string() + ": is a directory");
}

TEST_F(GpubenchOutputPaths, AFolderThatDoesNotExistIsRefused) {
    Options o;
    o.warp_times_path = path("missing/warps.csv");
    EXPECT_TRUE(refusal(o).starts_with("--warp-times " + o.warp_times_path + ": cannot write: directory " +
                                       path("missing")))
        << refusal(o);
}

TEST_F(GpubenchOutputPaths, TwoOutputsThatAreOneFileAreRefused) {
    Options o;
    o.out_path = path("rows.csv");
    o.warp_ends_path = dir_.string() + "/./rows.csv";  // the same file, named differently
    EXPECT_EQ(refusal(o), "--out " + o.out_path + " and --warp-ends " + o.warp_ends_path +
                              " are the same file: one would replace the other");
}

TEST_F(GpubenchOutputPaths, StandardOutputAndAFileAlreadyThereAreTaken) {
    std::ofstream(path("rows.csv")) << "old rows\n";
    Options o;  // --out - (standard output)
    o.placement_path = path("rows.csv");
    o.warp_times_path = path("warps.csv");  // nothing there yet
    EXPECT_EQ(refusal(o), "(accepted)");
    // the check wrote nothing: the old file as it was, no new file beside it
    std::ifstream old(path("rows.csv"));
    std::string line;
    std::getline(old, line);
    EXPECT_EQ(line, "old rows");
    EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
}

TEST_F(GpubenchOutputPaths, DescribeChecksOnlyItsOwnOutput) {
    const std::string standard_output = "-";
    Options o;
    o.describe_path = standard_output;  // beside the default --out -, which --describe does not write
    EXPECT_EQ(refusal(o), "(accepted)");
}

}  // namespace
}  // namespace gpubench
