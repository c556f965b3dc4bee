// compare --where: when filters leave no row, the message lists each field's values in the rows
// once, even where the field is filtered twice (--where block=128 --where block=256).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/cli_util.hpp"
#include "tests/measured_stencil_rows.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;

const std::string kMeasured =
    test::kCounterHeader + test::stencil_row("NVIDIA H200", "linear", "128") + test::stencil_row("NVIDIA H200", "linear", "256");

TEST(CompareWhereFieldTwice, TheFieldsValuesAreListedOnce) {
    const fs::path dir = test::temp_dir() / "where-field-twice";
    fs::create_directories(dir);
    std::ofstream(dir / "mine.csv") << kMeasured;
    const auto r = test::run_cachesim("compare --no-progress --measured '" + (dir / "mine.csv").string() +
                                      "' --where block=128 --where block=256");
    EXPECT_EQ(r.exit_code, 2);
    // the rows' blocks, 128 and 256, in numeric order, once
    EXPECT_NE(r.err.find("no measured rows left after --rows/--where (block in the rows: 128, 256)\n"),
              std::string::npos)
        << r.err;
}

}  // namespace
}  // namespace cachesim
