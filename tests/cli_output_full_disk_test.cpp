// A full disk (a 64 KiB tmpfs) in the middle of a write: the trace's target keeps its old content
// and no temporary is left; a sweep stops with an error naming its log, and once there is room
// again the rerun resumes and ends with an uninterrupted run's rows. Needs root to mount; the
// same failures are injected without a mount in atomic_file_fault_test.
#include <gtest/gtest.h>

#include <sys/mount.h>

#include <cerrno>
#include <cstring>

#include <filesystem>
#include <fstream>

#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;

class CliOutputFullDisk : public ::testing::Test {
protected:
    void SetUp() override {
        disk_ = test::temp_dir() / ("disk-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
        fs::create_directories(disk_);
        if (::mount("tmpfs", disk_.c_str(), "tmpfs", 0, "size=64k") != 0)
            GTEST_SKIP() << "cannot mount a small tmpfs here (" << std::strerror(errno) << "): needs root";
        mounted_ = true;
    }
    void TearDown() override {
        if (mounted_) ::umount(disk_.c_str());
    }
    // Fills the disk until `free_pages` pages of 4 KiB are left.
    void fill_leaving(std::size_t free_pages) {
        std::ofstream(disk_ / "filler", std::ios::binary) << std::string((16 - free_pages) * 4096, 'f');
    }
    std::size_t files() const {
        std::size_t n = 0;
        for ([[maybe_unused]] const auto& e : fs::directory_iterator(disk_)) ++n;
        return n;
    }
    fs::path disk_;
    bool mounted_ = false;
};

TEST_F(CliOutputFullDisk, ATraceThatDoesNotFitLeavesTheOldFile) {
    std::ofstream(disk_ / "out.cst") << "old";
    const auto r = test::run_cachesim("trace -q --backend generator --size 512x512 --stencil 9x9 -o '" +
                                      (disk_ / "out.cst").string() + "'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find((disk_ / "out.cst").string() + ": write failed (No space left on device)"), std::string::npos)
        << r.err;
    EXPECT_EQ(test::read_file(disk_ / "out.cst"), "old");
    EXPECT_EQ(files(), 1u) << "a temporary was left";
}

TEST_F(CliOutputFullDisk, ASweepResumesOnceThereIsRoomAgain) {
    const std::string sweep = "sweep -q -j 1 --size 40x24 --stencil 3x3 --l1-line 32 --l1-size 256..512K*2 -o ";
    const fs::path reference = test::temp_dir() / "full-disk-reference.csv";
    ASSERT_EQ(test::run_cachesim(sweep + "'" + reference.string() + "'").exit_code, 0);
    const fs::path csv = disk_ / "out.csv";
    fill_leaving(3);
    const auto full = test::run_cachesim(sweep + "'" + csv.string() + "'");
    EXPECT_EQ(full.exit_code, 2);
    EXPECT_NE(full.err.find(csv.string() + ".partial: write failed (No space left on device)"), std::string::npos)
        << full.err;
    EXPECT_FALSE(fs::exists(csv));
    EXPECT_GT(fs::file_size(csv.string() + ".partial"), 0u) << "no row was logged before the disk filled up";
    fs::remove(disk_ / "filler");
    const auto resumed = test::run_cachesim(sweep + "'" + csv.string() + "'");
    ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
    EXPECT_EQ(test::read_file(csv), test::read_file(reference));
    EXPECT_EQ(files(), 1u);
}

}  // namespace
}  // namespace cachesim
