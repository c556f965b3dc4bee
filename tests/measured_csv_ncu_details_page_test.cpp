// Nsight Compute's default CSV page ("details": one metric per row, in "Metric Name" and
// "Metric Value") given to compare, which reads the raw page (one launch per row): refused with
// the command that exports the raw page, not as a page missing its metric columns.
#include <gtest/gtest.h>

#include <fstream>

#include "tests/cli_util.hpp"
#include "traces/input_error.hpp"
#include "traces/measured_csv.hpp"

namespace cachesim {
namespace {

// `ncu --csv` without `--page raw`: one launch's two metrics, one per row.
const std::string kDetailsPage =
    "\"ID\",\"Kernel Name\",\"Block Size\",\"Grid Size\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
    "\"0\",\"stencil\",\"(256, 1, 1)\",\"(16, 1, 1)\",\"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum\","
    "\"request\",\"1152\"\n"
    "\"0\",\"stencil\",\"(256, 1, 1)\",\"(16, 1, 1)\",\"dram__bytes_read.sum\",\"byte\",\"32768\"\n";

std::string details_page_error() {
    WorkloadSpec base;
    base.width = base.height = 64;
    try {
        parse_ncu_raw_csv(kDetailsPage, "d.csv", base, {parse_schedule("linear")});
    } catch (const InputError& e) {
        return e.what();
    }
    return "(no error)";
}

TEST(MeasuredCsvNcuDetailsPage, IsRefusedNamingThePageAndTheRawExport) {
    const std::string error = details_page_error();
    EXPECT_NE(error.find("d.csv: "), std::string::npos) << error;
    EXPECT_NE(error.find("Nsight Compute's details page"), std::string::npos) << error;
    EXPECT_NE(error.find("one metric per row"), std::string::npos) << error;
    // The export docs/cli.md and docs/gpubench.md give for the raw page.
    EXPECT_NE(error.find("ncu --csv --page raw --print-units base"), std::string::npos) << error;
    EXPECT_EQ(error.find("missing column"), std::string::npos) << error;
}

TEST(MeasuredCsvNcuDetailsPage, CompareExitsWithTheMessageAndNoLaunchNote) {
    const std::string file = (test::temp_dir() / "ncu_details_page.csv").string();
    std::ofstream(file) << kDetailsPage;
    const auto r = test::run_cachesim("compare -q --measured '" + file + "'");
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("details page"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("ncu --csv --page raw --print-units base"), std::string::npos) << r.err;
    // A page refused is not simulated, so no note on which launch it would be simulated as.
    EXPECT_EQ(r.err.find("default launch"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace cachesim
