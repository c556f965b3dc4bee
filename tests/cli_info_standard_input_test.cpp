// cachesim info reads a cst redirected from a file on standard input (seekable) and refuses a
// pipe; --verify on a corrupted cst exits 2 with nothing on stdout.
#include <gtest/gtest.h>

#include <fstream>

#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

std::string written_cst(const std::string& name) {
    const std::string path = (test::temp_dir() / name).string();
    EXPECT_EQ(test::run_cachesim("trace --preset thesis-stencil -o '" + path + "'").exit_code, 0);
    return path;
}

TEST(CliInfoStandardInput, RedirectedFileIsRead) {
    const std::string cst = written_cst("stdin.cst");
    const auto r = test::run_shell("CACHESIM info - < '" + cst + "'");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("format:            cst version"), std::string::npos) << r.out;
}

TEST(CliInfoStandardInput, PipeIsRefused) {
    const std::string cst = written_cst("pipe.cst");
    const auto r = test::run_shell("cat '" + cst + "' | CACHESIM info -");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(r.out.empty());
    EXPECT_NE(r.err.find("standard input is not a regular file"), std::string::npos) << r.err;
}

TEST(CliInfoStandardInput, FailedVerifyPrintsNothing) {
    const std::string cst = written_cst("corrupt.cst");
    // One byte flipped inside the last block's payload, which ends 32 bytes (the end record) before the file
    std::fstream f(cst, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(0, std::ios::end);
    const auto size = static_cast<long>(f.tellg());
    f.seekg(size - 40);
    char byte = 0;
    f.read(&byte, 1);
    byte = static_cast<char>(~byte);
    f.seekp(size - 40);
    f.write(&byte, 1);
    f.close();
    const auto r = test::run_cachesim("info '" + cst + "' --verify");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_NE(r.err.find("checksum mismatch"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace cachesim
