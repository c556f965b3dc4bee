// compare --measured -: the measured CSV from standard input (a pipe), named "standard input" in
// messages and in set "stdin"; standard input given twice is refused, as it can be read once.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/cli_util.hpp"
#include "tests/csv_table.hpp"
#include "tests/measured_stencil_rows.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;

const std::string kRow = test::stencil_row("NVIDIA H200");

fs::path dir() {
    const fs::path d = test::temp_dir() / "measured-stdin";
    fs::create_directories(d);
    return d;
}

TEST(CompareMeasuredStdin, APipedCsvIsComparedAsTheFile) {
    std::ofstream(dir() / "mine.csv") << test::kCounterHeader << kRow;
    const std::string mine = (dir() / "mine.csv").string();
    const auto file = test::run_cachesim("compare --no-progress --measured '" + mine + "'");
    const auto piped = test::run_shell("cat '" + mine + "' | CACHESIM compare --no-progress --measured - --out '" +
                                       (dir() / "joined.csv").string() + "'");
    ASSERT_EQ(file.exit_code, 0) << file.err;
    ASSERT_EQ(piped.exit_code, 0) << piped.err;
    EXPECT_EQ(piped.out, file.out);  // one row, one set: the same report
    const test::CsvTable joined = test::CsvTable::from_file((dir() / "joined.csv").string());
    ASSERT_EQ(joined.rows(), 1u);
    EXPECT_EQ(joined.at(0, "set"), "stdin");
}

TEST(CompareMeasuredStdin, AnErrorNamesStandardInputAndItsLine) {
    std::ofstream(dir() / "short.csv") << test::kCounterHeader << kRow << "stencil,64\n";  // line 3: 2 fields of 17
    const auto r = test::run_shell("cat '" + (dir() / "short.csv").string() + "' | CACHESIM compare --no-progress --measured -");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("standard input:3: 2 fields, but the header has 17"), std::string::npos) << r.err;
}

TEST(CompareMeasuredStdin, StandardInputTwiceIsRefused) {
    const auto r = test::run_shell("CACHESIM compare --no-progress --measured - --measured other=- < /dev/null");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("standard input is given more than once"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace cachesim
