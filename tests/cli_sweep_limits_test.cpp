// A range expands to at most 100,000 values and a sweep to at most 1,000,000 configurations: past
// either, exit 2 before anything runs, naming the limit and the options that reach it.
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/cli_util.hpp"
#include "tests/scratch_dir.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;

TEST(CliSweepLimits, ARangeOfMoreThanOneHundredThousandValuesIsRefused) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "sweep-range-limit");
    // 1..100001 (step 1) is 100,001 values: one more than a range may have.
    const auto r = test::run_cachesim("sweep -q --size 32x32 --stencil 3x3 --seed 1..100001 -o '" +
                                      (dir / "s.csv").string() + "'");
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("--seed range '1..100001': more than 100000 values"), std::string::npos) << r.err;
    EXPECT_EQ(test::files_in(dir), 0u) << "the sweep ran or left a file";
}

TEST(CliSweepLimits, ASweepOfMoreThanOneMillionConfigurationsIsRefusedNamingItsOptions) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "sweep-product-limit");
    // 1..100000 is 100,000 values, a range's most, so the range itself passes; times the 11 values of
    // 1..11 it is 1,100,000 configurations, past the sweep's 1,000,000.
    const auto r = test::run_cachesim("sweep -q --size 32x32 --stencil 3x3 --seed 1..100000 --l1-ways 1..11 -o '" +
                                      (dir / "s.csv").string() + "'");
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("more than 1000000 configurations"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--seed (100000 values) x --l1-ways (11 values)"), std::string::npos) << r.err;
    EXPECT_EQ(test::files_in(dir), 0u) << "the sweep ran or left a file";
}

}  // namespace
}  // namespace cachesim
