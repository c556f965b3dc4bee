// `cachesim info` reads plain cst files only; given a din, u64 or Accel-Sim trace it says how that
// trace is read and converted, and given compressed data that it is compressed, instead of only
// that the magic is wrong.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "tests/cli_util.hpp"

namespace cachesim::test {
namespace {

TEST(CliInfoOtherFormats, ADinTraceNamesTheConversion) {
    const std::filesystem::path din = temp_dir() / "plain.din";
    std::ofstream(din) << "0 10\n1 20\n";
    const CommandResult r = run_cachesim("info '" + din.string() + "'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_NE(r.err.find("plain.din: byte 0: not a cachesim trace"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("converted to cst by `cachesim trace --trace FILE -o OUT.cst`"), std::string::npos) << r.err;
}

TEST(CliInfoOtherFormats, ACompressedFileIsNamedAsCompressed) {
    const std::filesystem::path din = temp_dir() / "packed.din";
    std::ofstream(din) << "0 10\n1 20\n";
    ASSERT_EQ(std::system(("gzip -f '" + din.string() + "'").c_str()), 0);  // leaves packed.din.gz
    const CommandResult r = run_cachesim("info '" + din.string() + ".gz'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("packed.din.gz: byte 0: not a cachesim trace"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("it is gzip or zstd data: decompress a cst trace to a file"), std::string::npos) << r.err;
}

TEST(CliInfoOtherFormats, ACstTraceIsStillDescribed) {
    const std::filesystem::path din = temp_dir() / "two.din";
    const std::filesystem::path cst = temp_dir() / "two.cst";
    std::ofstream(din) << "0 10\n1 20\n";
    ASSERT_EQ(run_cachesim("trace -q --trace '" + din.string() + "' -o '" + cst.string() + "'").exit_code, 0);
    const CommandResult r = run_cachesim("info '" + cst.string() + "'");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("accesses:          2\n"), std::string::npos) << r.out;  // the din's two lines
}

}  // namespace
}  // namespace cachesim::test
