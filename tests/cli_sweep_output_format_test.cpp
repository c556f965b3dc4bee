// A sweep writes CSV only: an output named for another format (.json, .png, a compressed .gz) is
// refused naming the file, before anything runs; --format says the output is always CSV, and
// --format csv changes nothing.
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/cli_util.hpp"
#include "tests/scratch_dir.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;

const std::string kSweep = "sweep -q --size 32x32 --stencil 3x3 --l1-size 512,1K";

TEST(CliSweepOutputFormat, AnOutputNamedForAnotherFormatIsRefused) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "named");
    for (const std::string name : {"x.json", "x.PNG", "x.csv.gz"}) {
        const fs::path out = dir / name;
        const auto r = test::run_cachesim(kSweep + " -o '" + out.string() + "'");
        EXPECT_EQ(r.exit_code, 2) << name;
        EXPECT_NE(r.err.find("--output " + out.string() + ": a sweep writes CSV"), std::string::npos) << r.err;
        EXPECT_EQ(test::files_in(dir), 0u) << name << ": a file was left";
    }
    // Names that say nothing against CSV are written.
    for (const std::string name : {"x.csv", "x.txt", "x"}) {
        const auto r = test::run_cachesim(kSweep + " -o '" + (dir / name).string() + "'");
        EXPECT_EQ(r.exit_code, 0) << name << ": " << r.err;
    }
}

TEST(CliSweepOutputFormat, FormatSaysTheOutputIsAlwaysCsv) {
    for (const std::string format : {"json", "table", "--format=json"}) {
        const std::string option = format.rfind("--", 0) == 0 ? format : "--format " + format;
        const auto r = test::run_cachesim(kSweep + " " + option);
        EXPECT_EQ(r.exit_code, 2) << option;
        EXPECT_NE(r.err.find("a sweep's output is always CSV"), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find("unrecognised"), std::string::npos) << r.err;
        EXPECT_EQ(r.out, "");
    }
    const auto plain = test::run_cachesim(kSweep);
    const auto csv = test::run_cachesim(kSweep + " --format csv");
    ASSERT_EQ(plain.exit_code, 0) << plain.err;
    ASSERT_EQ(csv.exit_code, 0) << csv.err;
    EXPECT_EQ(csv.out, plain.out);
}

}  // namespace
}  // namespace cachesim
