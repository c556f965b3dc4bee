// A din or u64 reading forced on a cst file would take its header and zstd bytes for addresses:
// the file starts with the cst magic, so it is refused, naming the file and what it is.
#include <gtest/gtest.h>

#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

std::string written_cst() {
    const std::string path = (test::temp_dir() / "forced.cst").string();
    EXPECT_EQ(test::run_cachesim("trace --preset thesis-stencil -o '" + path + "'").exit_code, 0);
    return path;
}

TEST(CliTraceFormatForcedOnCst, U64AndDinAreRefused) {
    const std::string cst = written_cst();
    for (const std::string format : {"u64", "din"}) {
        const auto r = test::run_cachesim("simulate --trace '" + cst + "' --trace-format " + format);
        EXPECT_EQ(r.exit_code, 2) << format;
        EXPECT_TRUE(r.out.empty()) << format;
        EXPECT_NE(r.err.find(cst + ": a cst trace"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("drop --trace-format " + format + " or use --trace-format cst"), std::string::npos) << r.err;
    }
}

TEST(CliTraceFormatForcedOnCst, CompressedCstIsRefusedToo) {
    const std::string cst = written_cst();
    ASSERT_EQ(std::system(("gzip -kf '" + cst + "'").c_str()), 0);
    const auto r = test::run_cachesim("simulate --trace '" + cst + ".gz' --trace-format u64");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find(cst + ".gz: a cst trace"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace cachesim
