// The cache options that the thread model reads as numbers (--l1-line, --l1-sector, --l2-line,
// --l2-sector) are GPU model parameters too: given with --model gpu they are read, not an internal
// error. Given at the H200's own values they change nothing; a different sector size is used.
#include <gtest/gtest.h>

#include <string>

#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

using test::run_cachesim;

const std::string kRun = "simulate --model gpu --size 32x32 --stencil 3x3 --sms 4";

// The report without its timing line.
std::string counters(const std::string& report) { return report.substr(0, report.rfind("simulated in")); }

TEST(CliGpuCacheOptions, NumericCacheOptionsAreReadByTheGpuModel) {
    const auto plain = run_cachesim(kRun);
    ASSERT_EQ(plain.exit_code, 0) << plain.err;
    // The H200 preset's values: 128 B lines of 32 B sectors in both levels.
    const auto same = run_cachesim(kRun + " --l1-line 128 --l1-sector 32 --l2-line 128 --l2-sector 32");
    ASSERT_EQ(same.exit_code, 0) << same.err;
    EXPECT_EQ(counters(same.out), counters(plain.out));
    const auto whole = run_cachesim(kRun + " --l1-sector 128");
    ASSERT_EQ(whole.exit_code, 0) << whole.err;
    EXPECT_NE(plain.out.find(" lines of 128 B (32 B sectors)"), std::string::npos) << plain.out;
    EXPECT_NE(whole.out.find(" lines of 128 B, fully associative"), std::string::npos) << whole.out;  // one sector a line
}

}  // namespace
}  // namespace cachesim
