// A version 1 cst trace of a workload (`cachesim trace --trace-version 1`) holds the workload's
// arrays, so `diagram` draws it like the workload itself; one converted from a din trace has no
// 2D arrays and is refused with a message naming the command that records a drawable trace.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;
using test::run_cachesim;

std::string quoted(const fs::path& p) { return "'" + p.string() + "'"; }

TEST(CliDiagramVersion1Trace, WorkloadTraceDraws) {
    const fs::path v1 = test::temp_dir() / "v1_workload.cst", png = test::temp_dir() / "v1_workload.png";
    ASSERT_EQ(run_cachesim("trace -q --size 16x16 --trace-version 1 -o " + quoted(v1)).exit_code, 0);
    for (const char* view : {"time", "array"}) {
        fs::remove(png);
        const auto r = run_cachesim("diagram -q --trace " + quoted(v1) + " --view " + view + " --out " + quoted(png));
        EXPECT_EQ(r.exit_code, 0) << view << "\n" << r.err;
        EXPECT_TRUE(fs::exists(png)) << view;
    }
}

TEST(CliDiagramVersion1Trace, ConvertedPlainTraceNamesTheFix) {
    const fs::path din = test::temp_dir() / "v1_plain.din", v1 = test::temp_dir() / "v1_plain.cst";
    const fs::path png = test::temp_dir() / "v1_plain.png";
    std::ofstream(din) << "0 1000\n1 2000\n";
    ASSERT_EQ(run_cachesim("trace -q --trace " + quoted(din) + " -o " + quoted(v1)).exit_code, 0);
    const auto r = run_cachesim("diagram --trace " + quoted(v1) + " --out " + quoted(png));
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("v1_plain.cst: a version 1 cst trace converted from a plain (din/u64) trace"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("cachesim trace --workload"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(png));
}

}  // namespace
}  // namespace cachesim
