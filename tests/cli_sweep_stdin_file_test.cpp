// A sweep reading standard input redirected from a file (`--trace - < FILE`) reads that file whole
// for every configuration, one after another (-j 1) or at once (-j 2), in din, u64 and cst: its
// rows are those of the same sweep given the file by name, and the counts are the ones worked out
// by hand. Standard input that starts partway into the file is read from there each time.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli_util.hpp"
#include "tests/scratch_dir.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;
using test::csv_rows;

// Reads of 0x1000, 0x1010, 0x1000, 0x1010: two 16-byte lines, each used twice. By hand, with the
// L1 fully associative: one line holds one of them at a time (4 misses); two or four lines keep
// both after their first use (2 misses, 2 hits).
const std::vector<std::uint64_t> kAddresses = {0x1000, 0x1010, 0x1000, 0x1010};
const std::string kConfigurations = " --l1-line 16 --l1-lines 1,2,4";
const std::vector<std::string> kHitsByLines = {"0", "2", "2"};

std::size_t column(const std::vector<std::string>& header, const std::string& name) {
    for (std::size_t c = 0; c < header.size(); ++c)
        if (header[c] == name) return c;
    ADD_FAILURE() << "no column " << name;
    return 0;
}

// Runs the sweep on `redirected` (a shell command holding CACHESIM and `< FILE`) and on `by_name`,
// and compares: the same columns, the same values but for the key and the trace's name, and the
// hand-worked hit counts.
void expect_same_sweep(const std::string& redirected, const std::string& by_name) {
    const auto from_stdin = test::run_shell(redirected);
    const auto from_file = test::run_shell(by_name);
    ASSERT_EQ(from_stdin.exit_code, 0) << redirected << "\n" << from_stdin.err;
    ASSERT_EQ(from_file.exit_code, 0) << by_name << "\n" << from_file.err;
    const auto a = csv_rows(from_stdin.out), b = csv_rows(from_file.out);
    ASSERT_EQ(a.size(), 1 + kHitsByLines.size()) << from_stdin.out;
    ASSERT_EQ(b.size(), a.size()) << from_file.out;
    ASSERT_EQ(a[0], b[0]);
    const std::size_t key = column(a[0], "sweep_config"), trace = column(a[0], "trace");
    const std::size_t accesses = column(a[0], "l1_accesses"), hits = column(a[0], "l1_hits");
    for (std::size_t r = 1; r < a.size(); ++r) {
        ASSERT_EQ(a[r].size(), b[r].size()) << redirected << " row " << r;
        for (std::size_t c = 0; c < a[r].size(); ++c)
            if (c != key && c != trace) EXPECT_EQ(a[r][c], b[r][c]) << redirected << " row " << r << ", " << a[0][c];
        EXPECT_EQ(a[r][accesses], "4") << redirected << " row " << r;
        EXPECT_EQ(a[r][hits], kHitsByLines[r - 1]) << redirected << " row " << r;
    }
}

std::string quoted(const fs::path& path) { return "'" + path.string() + "'"; }

TEST(CliSweepStdinFile, DinRedirectedFromAFile) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "din");
    std::ofstream(dir / "t.din") << "0 1000\n0 1010\n0 1000\n0 1010\n";
    for (const char* jobs : {"1", "2"})
        expect_same_sweep("CACHESIM sweep -q -j " + std::string(jobs) + " --trace -" + kConfigurations + " < " +
                              quoted(dir / "t.din"),
                          "CACHESIM sweep -q -j " + std::string(jobs) + " --trace " + quoted(dir / "t.din") +
                              kConfigurations);
}

TEST(CliSweepStdinFile, U64RedirectedFromAFile) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "u64");
    {
        std::ofstream out(dir / "t.u64", std::ios::binary);
        for (std::uint64_t a : kAddresses)
            for (int b = 0; b < 8; ++b) out.put(static_cast<char>((a >> (8 * b)) & 0xff));
    }
    for (const char* jobs : {"1", "2"})
        expect_same_sweep("CACHESIM sweep -q -j " + std::string(jobs) + " --trace - --trace-format u64" +
                              kConfigurations + " < " + quoted(dir / "t.u64"),
                          "CACHESIM sweep -q -j " + std::string(jobs) + " --trace " + quoted(dir / "t.u64") +
                              " --trace-format u64" + kConfigurations);
}

TEST(CliSweepStdinFile, CstRedirectedFromAFile) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "cst");
    std::ofstream(dir / "t.din") << "0 1000\n0 1010\n0 1000\n0 1010\n";
    const auto converted = test::run_cachesim("trace -q --trace " + quoted(dir / "t.din") + " -o " + quoted(dir / "t.cst"));
    ASSERT_EQ(converted.exit_code, 0) << converted.err;
    for (const char* jobs : {"1", "2"})
        expect_same_sweep("CACHESIM sweep -q -j " + std::string(jobs) + " --trace -" + kConfigurations + " < " +
                              quoted(dir / "t.cst"),
                          "CACHESIM sweep -q -j " + std::string(jobs) + " --trace " + quoted(dir / "t.cst") +
                              kConfigurations);
}

TEST(CliSweepStdinFile, StandardInputThatStartsPartwayIsReadFromThereEachTime) {
    // `read` consumes the first line from the shared descriptor; every configuration then starts
    // at the second line, as the shell handed it over.
    const fs::path dir = test::fresh_dir(test::temp_dir() / "partway");
    std::ofstream(dir / "t.din") << "0 9000\n0 1000\n0 1010\n0 1000\n0 1010\n";
    std::ofstream(dir / "rest.din") << "0 1000\n0 1010\n0 1000\n0 1010\n";
    for (const char* jobs : {"1", "2"})
        expect_same_sweep("{ read -r skipped; CACHESIM sweep -q -j " + std::string(jobs) + " --trace -" +
                              kConfigurations + "; } < " + quoted(dir / "t.din"),
                          "CACHESIM sweep -q -j " + std::string(jobs) + " --trace " + quoted(dir / "rest.din") +
                              kConfigurations);
}

}  // namespace
}  // namespace cachesim
