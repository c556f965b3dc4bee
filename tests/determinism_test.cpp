// The same command with the same seed gives byte-identical outputs: simulate (CSV, and JSON
// without its timing fields), sweeps, and trace files.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

using test::run_cachesim;

const std::string kWorkload = "--size 64x48 --stencil 5x5 --schedule morton";
const std::string kRandomConfig =
    kWorkload + " --l1-size 2K --l1-ways 8 --l1-policy random4 --l2-size 16K --l2-ways 4 --l2-policy random --seed 7";

std::string without_timing(const std::string& json_text) {
    auto j = nlohmann::json::parse(json_text);
    j.erase("seconds");
    j.erase("accesses_per_second");
    return j.dump();
}

TEST(Determinism, SimulateCsvAndJson) {
    const auto a = run_cachesim("simulate --format csv " + kRandomConfig);
    const auto b = run_cachesim("simulate --format csv " + kRandomConfig);
    ASSERT_EQ(a.exit_code, 0) << a.err;
    EXPECT_EQ(a.out, b.out);
    const auto c = run_cachesim("simulate --format json " + kRandomConfig);
    const auto d = run_cachesim("simulate --format json " + kRandomConfig);
    EXPECT_EQ(without_timing(c.out), without_timing(d.out));
    // A different seed changes the random policies' result, so the seed is really used.
    const auto e = run_cachesim("simulate --format csv " + kRandomConfig + "1");
    EXPECT_NE(a.out, e.out);
}

TEST(Determinism, SweepWithRandomPolicies) {
    const std::string sweep = "sweep -q --jobs 2 " + kRandomConfig + " --l1-line 16,32,64";
    const auto a = run_cachesim(sweep);
    const auto b = run_cachesim(sweep);
    ASSERT_EQ(a.exit_code, 0) << a.err;
    EXPECT_EQ(a.out, b.out);
}

TEST(Determinism, TraceFiles) {
    const std::string a = (test::temp_dir() / "det-a.cst").string(), b = (test::temp_dir() / "det-b.cst").string();
    // (trace takes the workload alone: cache options are refused there)
    ASSERT_EQ(run_cachesim("trace -q " + kWorkload + " -o " + a).exit_code, 0);
    ASSERT_EQ(run_cachesim("trace -q " + kWorkload + " -o " + b).exit_code, 0);
    EXPECT_EQ(test::read_file(a), test::read_file(b));
}

}  // namespace
}  // namespace cachesim
