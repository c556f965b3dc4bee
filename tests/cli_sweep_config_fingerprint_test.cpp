// A resumed sweep tells a changed --config file by what it means for each configuration: an edit
// that changes no setting a row takes from the file (a comment, the layout, the other workload's
// shape, an option the command line gives) reruns nothing; an edit of a setting reruns exactly the
// rows that take it.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "apps/cachesim/report.hpp"
#include "apps/cachesim/sweep_results.hpp"
#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

using test::run_cachesim;
using Rows = std::vector<std::vector<std::string>>;

// A valid seed the sweep never gives (it gives the default, 1): a row that still holds it after a
// resumed sweep was reused, not simulated again. The LRU caches here do not read the seed.
const std::string kMark = "999999";

std::size_t column(const Rows& rows, const std::string& name) {
    return static_cast<std::size_t>(std::find(rows[0].begin(), rows[0].end(), name) - rows[0].begin());
}

void write_text(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

// Sets every row's seed to kMark.
void mark_every_row(const std::string& csv) {
    Rows rows = cli::parse_csv(test::read_file(csv));
    const std::size_t seed = column(rows, "seed");
    std::string marked;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        if (r > 0) rows[r][seed] = kMark;
        for (std::size_t i = 0; i < rows[r].size(); ++i) marked += (i ? "," : "") + cli::csv_field(rows[r][i]);
        marked += "\n";
    }
    write_text(csv, marked);
}

// Runs `sweep`, which must succeed, and returns its CSV.
Rows run_sweep(const std::string& sweep, const std::string& csv, const std::string& expect_on_stderr) {
    const auto r = run_cachesim(sweep);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find(expect_on_stderr), std::string::npos) << r.err;
    return cli::parse_csv(test::read_file(csv));
}

TEST(CliSweepConfigFingerprint, EditsOfWhatNoRowTakesRerunNothing) {
    const std::string csv = (test::temp_dir() / "unused.csv").string(), config = (test::temp_dir() / "unused.cfg").string();
    std::filesystem::remove(csv);
    write_text(config, "stencil = 3x3\ndepth = 8\n");
    const std::string sweep = "sweep --size 16x8 --workload matmul --config " + config + " --l1-size 256,512 -o " + csv;
    ASSERT_EQ(run_cachesim(sweep).exit_code, 0);
    mark_every_row(csv);
    const Rows before = cli::parse_csv(test::read_file(csv));
    ASSERT_EQ(before.size(), 3u);

    // Each edit leaves the matmul rows' settings as they were: the stencil's box (the matmul does
    // not use it), a comment and the layout, an L1 size the command line gives.
    const std::string edits[] = {
        "stencil = 5x5\ndepth = 8\n",
        "# the matmul's depth\n\n   depth=8   \nstencil = 5x5\n",
        "depth = 8\nl1-size = 1K\n",
    };
    for (const std::string& edit : edits) {
        write_text(config, edit);
        const Rows after = run_sweep(sweep, csv, "(2 already done)");
        EXPECT_EQ(after, before) << edit;  // the same rows, marks and all, none stale
    }
}

TEST(CliSweepConfigFingerprint, AnEditedSettingRerunsTheRowsThatTakeIt) {
    const std::string csv = (test::temp_dir() / "used.csv").string(), config = (test::temp_dir() / "used.cfg").string();
    std::filesystem::remove(csv);
    write_text(config, "stencil = 3x3\ndepth = 8\n");
    // Rows 1-2 the stencil's (3x3 box from the file), rows 3-4 the matmul's (depth 8 from the file).
    const std::string sweep =
        "sweep --size 16x8 --workload stencil,matmul --config " + config + " --l1-size 256,512 -o " + csv;
    ASSERT_EQ(run_cachesim(sweep).exit_code, 0);
    mark_every_row(csv);
    const Rows first = cli::parse_csv(test::read_file(csv));
    ASSERT_EQ(first.size(), 5u);

    // The depth: the matmul's rows run again at depth 4, the stencil's are reused.
    write_text(config, "stencil = 3x3\ndepth = 4\n");
    Rows rows = run_sweep(sweep, csv, "(2 already done)");
    ASSERT_EQ(rows.size(), 7u);  // this sweep's 4 rows, then the 2 stale matmul rows
    const std::size_t seed = column(rows, "seed"), depth = column(rows, "depth"), box = column(rows, "stencil_w");
    for (std::size_t r : {1u, 2u}) {
        EXPECT_EQ(rows[r], first[r]) << "stencil row " << r;
        EXPECT_EQ(rows[r][seed], kMark);
    }
    for (std::size_t r : {3u, 4u}) {
        EXPECT_EQ(rows[r][column(rows, "workload")], "matmul");
        EXPECT_EQ(rows[r][depth], "4");
        EXPECT_EQ(rows[r][seed], "1");
        EXPECT_NE(rows[r][0], first[r][0]);
        EXPECT_EQ(rows[r + 2], first[r]);  // the stale row, kept as another configuration's
    }

    // The box: the stencil's rows run again with a 5x5 box, the matmul's (depth 4) are reused.
    mark_every_row(csv);
    const Rows second = cli::parse_csv(test::read_file(csv));
    write_text(config, "stencil = 5x5\ndepth = 4\n");
    rows = run_sweep(sweep, csv, "(2 already done)");
    ASSERT_EQ(rows.size(), 9u);
    for (std::size_t r : {1u, 2u}) {
        EXPECT_EQ(rows[r][box], "5");
        EXPECT_EQ(rows[r][seed], "1");
    }
    for (std::size_t r : {3u, 4u}) EXPECT_EQ(rows[r], second[r]) << "matmul row " << r;
}

}  // namespace
}  // namespace cachesim
