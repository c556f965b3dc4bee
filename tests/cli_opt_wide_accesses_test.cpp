// OPT's pre-pass records one lookup per sector an access spans, so accesses wider than two lines
// (a 4 KiB record, 64-byte elements on 16-byte lines) run through OPT from every kind of input.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/cli_util.hpp"
#include "tests/scratch_dir.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;
using test::run_cachesim;

nlohmann::json l1_of(const std::string& args) {
    const auto r = run_cachesim(args + " --format json");
    EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.err;
    if (r.exit_code != 0) return {};
    return nlohmann::json::parse(r.out)["levels"][0];
}

TEST(CliOptWideAccesses, OneAccessOfFourKibIsItsSixteenByteLines) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "opt_wide");
    const std::string din = (dir / "wide.din").string(), cst = (dir / "wide.cst").string();
    std::ofstream(din) << "0 1000 1000\n";  // one read of 0x1000 bytes at 0x1000: 256 lines of 16 B
    ASSERT_EQ(run_cachesim("trace -q --trace '" + din + "' -o '" + cst + "'").exit_code, 0);
    for (const std::string& trace : {din, cst}) {
        const nlohmann::json l1 = l1_of("simulate -q --trace '" + trace + "' --l1-policy opt");
        EXPECT_EQ(l1.value("reads", 0), 256) << trace;  // by hand: 0x1000 / 16 lookups, each a first touch
        EXPECT_EQ(l1.value("read_hits", -1), 0) << trace;
    }
}

TEST(CliOptWideAccesses, WideElementsOfABuiltInWorkloadAndAnL2) {
    // 64-byte elements on 16-byte lines: each access spans 4 lines (5 when unaligned, which the
    // built-in arrays are not). OPT is optimal, so it hits at least as often as LRU on the same
    // lookups, at both levels.
    const std::string workload = "simulate -q --size 24x24 --stencil 3x3 --elem-bytes 64 --l1-size 1K --l2-size 8K";
    const nlohmann::json opt = l1_of(workload + " --l1-policy opt --l2-policy opt");
    const nlohmann::json lru = l1_of(workload);
    ASSERT_FALSE(opt.is_null());
    EXPECT_EQ(opt.value("reads", 0), lru.value("reads", 1));
    EXPECT_EQ(opt.value("reads", 0), 24 * 24 * 9 * 4);  // by hand: items x box x lines per element
    EXPECT_GE(opt.value("read_hits", 0), lru.value("read_hits", 0));
}

}  // namespace
}  // namespace cachesim
