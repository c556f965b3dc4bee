// Every subcommand that writes a file takes -o, --out and --output for it.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

using test::run_cachesim;

std::string path(const std::string& name) { return (test::temp_dir() / name).string(); }

void expect_writes(const std::string& command, const std::string& file) {
    std::filesystem::remove(file);
    const auto r = run_cachesim(command);
    ASSERT_EQ(r.exit_code, 0) << command << "\n" << r.err;
    EXPECT_TRUE(std::filesystem::exists(file)) << command;
    EXPECT_GT(std::filesystem::file_size(file), 0u) << command;
}

TEST(CliOutputOption, SweepTakesOut) {
    const std::string sweep = "sweep --size 16x16 --l1-size 256,512";
    for (const std::string flag : {"-o", "--out", "--output"}) {
        const std::string csv = path("sweep" + std::string(flag) + ".csv");
        expect_writes(sweep + " " + flag + " " + csv, csv);
        EXPECT_NE(test::read_file(csv).find("l1_size"), std::string::npos);
    }
}

TEST(CliOutputOption, EverySubcommandTakesAllThreeSpellings) {
    for (const std::string flag : {"-o", "--out", "--output"}) {
        const std::string report = path("report" + flag + ".json"), trace = path("trace" + flag + ".cst"),
                          png = path("diagram" + flag + ".png");
        expect_writes("simulate --format json " + flag + " " + report, report);
        expect_writes("trace --size 8x8 " + flag + " " + trace, trace);
        expect_writes("diagram --size 8x8 " + flag + " " + png, png);
    }
}

}  // namespace
}  // namespace cachesim
