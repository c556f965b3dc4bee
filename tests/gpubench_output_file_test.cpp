// gpubench's CSV outputs (apps/gpubench/output_file.hpp): a file appears only once complete
// (its rows go to FILE.partial meanwhile); a symlink keeps pointing at the file it names, which is
// replaced; a FIFO or a device (/dev/null) is written through, never replaced by a file renamed
// over it (a FIFO stands for both here: a test must not risk the machine's /dev/null).
#include <gtest/gtest.h>

#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "apps/gpubench/output_file.hpp"

namespace gpubench {
namespace {

namespace fs = std::filesystem;

class GpubenchOutputFile : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("gpubench_output_file_" + std::to_string(::getpid()));
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }
    std::string path(const std::string& name) const { return (dir_ / name).string(); }
    fs::path dir_;
};

std::string contents(const std::string& path) {
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

TEST_F(GpubenchOutputFile, AFileAppearsOnlyWhenComplete) {
    OutputFile out(path("rows.csv"));
    out.stream() << "kernel,time_ms\n";
    out.stream().flush();
    EXPECT_FALSE(fs::exists(path("rows.csv")));
    EXPECT_EQ(contents(path("rows.csv.partial")), "kernel,time_ms\n");
    out.commit();
    EXPECT_EQ(contents(path("rows.csv")), "kernel,time_ms\n");
    EXPECT_FALSE(fs::exists(path("rows.csv.partial")));
}

TEST_F(GpubenchOutputFile, ASymlinksTargetIsReplacedAndTheLinkKept) {
    std::ofstream(path("target.csv")) << "old\n";
    fs::create_symlink("target.csv", path("link.csv"));
    OutputFile out(path("link.csv"));
    out.stream() << "new\n";
    out.commit();
    EXPECT_TRUE(fs::is_symlink(path("link.csv")));
    EXPECT_EQ(contents(path("target.csv")), "new\n");
}

TEST_F(GpubenchOutputFile, AFifoIsWrittenThrough) {
    const std::string fifo = path("rows.fifo");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    // the reading end first, not waiting for a writer, so that the writer's open does not block
    const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
    ASSERT_GE(reader, 0);
    OutputFile out(fifo);
    out.stream() << "a,b\n";
    out.commit();
    char buffer[16] = {};
    const ssize_t n = ::read(reader, buffer, sizeof buffer);
    ::close(reader);
    EXPECT_EQ(std::string(buffer, n > 0 ? static_cast<std::size_t>(n) : 0), "a,b\n");
    struct stat st {};
    ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
    EXPECT_TRUE(S_ISFIFO(st.st_mode));
    EXPECT_FALSE(fs::exists(fifo + ".partial"));
}

}  // namespace
}  // namespace gpubench
