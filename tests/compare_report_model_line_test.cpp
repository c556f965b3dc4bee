// compare's report begins by naming the model the rows were simulated with (the preset and its
// overrides, or the --config file and the GPU it describes) and the GPUs the rows were measured
// on, so that a report saved from stdout says what it compared.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/cli_util.hpp"
#include "tests/measured_stencil_rows.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;


std::string row(const std::string& schedule, const std::string& gpu) { return test::stencil_row(gpu, schedule); }

std::string first_line(const std::string& out) { return out.substr(0, out.find('\n')); }

fs::path write(const std::string& name, const std::string& text) {
    const fs::path dir = test::temp_dir() / "report-model-line";
    fs::create_directories(dir);
    std::ofstream(dir / name) << text;
    return dir / name;
}

TEST(CompareReportModelLine, TheDescriptionAndTheRowsGpusAreNamed) {
    // two rows of the described RTX 4090, one of an L4 measured beside them
    const fs::path csv = write("mixed.csv", test::kCounterHeader + row("linear", "NVIDIA GeForce RTX 4090") +
                                                row("column:8", "NVIDIA GeForce RTX 4090") + row("linear", "NVIDIA L4"));
    const fs::path cfg = write("rtx4090.cfg", "# device: NVIDIA GeForce RTX 4090\npreset = a100\nsms = 128\n");
    const auto r = test::run_cachesim("compare --no-progress --config '" + cfg.string() + "' --measured '" +
                                      csv.string() + "' --gpu warp-rate-spread=0");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(first_line(r.out),
              "GPU model: a100 config=rtx4090.cfg warp-rate-spread=0 (describing NVIDIA GeForce RTX 4090); rows measured "
              "on NVIDIA GeForce RTX 4090 (2 rows), NVIDIA L4 (1 row)");
}

TEST(CompareReportModelLine, APresetAndRowsNamingNoGpu) {
    const fs::path csv = write("unnamed.csv", test::kCounterHeader + row("linear", ""));
    const auto r = test::run_cachesim("compare --no-progress --preset h100 --measured '" + csv.string() + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(first_line(r.out), "GPU model: h100; rows measured on a GPU they do not name (1 row)");
}

}  // namespace
}  // namespace cachesim
