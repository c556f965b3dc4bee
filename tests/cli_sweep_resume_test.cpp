// A sweep is resumable: finished configurations (in the CSV or in a partial log left by an
// interrupted run, even with a torn last line) are not simulated again.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "apps/cachesim/report.hpp"
#include "apps/cachesim/sweep_results.hpp"
#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

using test::run_cachesim;

const std::string kBase = "sweep -q --size 40x24 --stencil 3x3 --l1-line 32 --l1-ways 2 --schedule linear,column:4";

std::size_t column(const std::vector<std::string>& header, const std::string& name) {
    return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin());
}

TEST(CliSweepResume, FinishedRowsAreKeptAndOnlyNewOnesRun) {
    const std::string csv = (test::temp_dir() / "resume.csv").string();
    std::filesystem::remove(csv);
    const auto first = run_cachesim(kBase + " --l1-size 256,512 -o " + csv);
    ASSERT_EQ(first.exit_code, 0) << first.err;
    // Mark a finished row: if it were recomputed the mark would disappear. The mark is a valid
    // value (a resumed sweep checks what it reads back), in a column the LRU cache ignores.
    auto rows = cli::parse_csv(test::read_file(csv));
    const std::size_t mark = column(rows[0], "seed");
    rows[1][mark] = "999999";
    std::string marked;
    for (const auto& row : rows) {
        for (std::size_t i = 0; i < row.size(); ++i) marked += (i ? "," : "") + cli::csv_field(row[i]);
        marked += "\n";
    }
    std::ofstream(csv, std::ios::binary) << marked;

    const auto r = run_cachesim(kBase + " --l1-size 256,512,1K -o " + csv);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto after = cli::parse_csv(test::read_file(csv));
    ASSERT_EQ(after.size(), 7u);
    EXPECT_EQ(after[1][mark], "999999");  // kept, not re-simulated
    EXPECT_NE(after[3][mark], "999999");
    EXPECT_NE(after[3][mark], "");
}

TEST(CliSweepResume, PartialLogOfAnInterruptedRunIsUsedThenRemoved) {
    const std::string csv = (test::temp_dir() / "interrupted.csv").string();
    const std::string args = kBase + " --l1-size 256,512 -o " + csv;
    const auto first = run_cachesim(args);
    ASSERT_EQ(first.exit_code, 0) << first.err;
    const auto complete = cli::parse_csv(test::read_file(csv));
    std::filesystem::remove(csv);
    // What an interrupted run leaves: two finished configurations and a torn third line.
    std::vector<std::pair<std::string, cli::SweepColumns>> done;
    for (std::size_t r : {std::size_t{1}, std::size_t{4}}) {
        cli::SweepColumns columns;
        for (std::size_t c = 1; c < complete[0].size(); ++c)
            columns.emplace_back(complete[0][c], c == column(complete[0], "seed") ? "424242" : complete[r][c]);
        done.emplace_back(complete[r][0], columns);
    }
    std::ofstream(csv + ".partial", std::ios::binary) << cli::encode_results(done) << "{\"key\": \"--size=40";

    const auto r = run_cachesim(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto after = cli::parse_csv(test::read_file(csv));
    ASSERT_EQ(after.size(), 5u);
    const std::size_t mark = column(after[0], "seed");
    EXPECT_EQ(after[1][mark], "424242");
    EXPECT_EQ(after[4][mark], "424242");
    EXPECT_EQ(after[2][mark], complete[2][mark]);
    EXPECT_FALSE(std::filesystem::exists(csv + ".partial"));
}

TEST(CliSweepResume, AChangedInputFileRunsItsConfigurationAgain) {
    const std::string csv = (test::temp_dir() / "inputs.csv").string(), config = (test::temp_dir() / "inputs.cfg").string();
    std::filesystem::remove(csv);
    std::ofstream(config) << "schedule = linear\n";
    const std::string sweep = "sweep --size 40x24 --stencil 3x3 --config " + config + " --l1-size 256 -o " + csv;
    ASSERT_EQ(run_cachesim(sweep).exit_code, 0);
    // The same file again: nothing to do.
    auto r = run_cachesim(sweep);
    EXPECT_NE(r.err.find("(1 already done)"), std::string::npos) << r.err;
    // An edit (a longer file, so its size changes whatever the clock's resolution): the row is stale.
    std::ofstream(config) << "schedule = column:4   \n";
    r = run_cachesim(sweep);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("(0 already done)"), std::string::npos) << r.err;
    const auto rows = cli::parse_csv(test::read_file(csv));
    ASSERT_EQ(rows.size(), 3u);  // the new row, then the stale one, kept as another configuration's
    EXPECT_EQ(rows[1][column(rows[0], "schedule")], "column:4");
    EXPECT_EQ(rows[2][column(rows[0], "schedule")], "linear");
    EXPECT_NE(rows[1][0], rows[2][0]);  // the same options, other inputs
    EXPECT_NE(rows[1][0].find(" inputs="), std::string::npos) << rows[1][0];
}

// The options written in another order, files among them, name the same configurations.
TEST(CliSweepResume, OptionsInAnotherOrderFindTheirRows) {
    const std::string csv = (test::temp_dir() / "order.csv").string(), config = (test::temp_dir() / "order.cfg").string();
    const std::string trace = (test::temp_dir() / "order.cst").string();
    std::filesystem::remove(csv);
    std::ofstream(config) << "l1-line = 32\n";
    ASSERT_EQ(run_cachesim("trace -q --size 16x16 --stencil 3x3 -o " + trace).exit_code, 0);
    ASSERT_EQ(run_cachesim("sweep -q --trace " + trace + " --config " + config + " --l1-size 256,512 -o " + csv).exit_code, 0);
    const auto r = run_cachesim("sweep --l1-size 256,512 --config " + config + " --trace " + trace + " -o " + csv);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("(2 already done)"), std::string::npos) << r.err;
    EXPECT_EQ(cli::parse_csv(test::read_file(csv)).size(), 3u);  // the header and the two rows, none twice
}

TEST(CliSweepResume, StandardInputAlwaysRunsAgain) {
    const std::string csv = (test::temp_dir() / "stdin.csv").string();
    std::filesystem::remove(csv);
    const std::string sweep = "sweep -q --trace - --l1-size 256 -o " + csv;
    ASSERT_EQ(test::run_shell("printf '0 1000\\n0 1000\\n' | CACHESIM " + sweep).exit_code, 0);
    ASSERT_EQ(test::run_shell("printf '0 1000\\n0 2000\\n0 3000\\n' | CACHESIM " + sweep).exit_code, 0);
    const auto rows = cli::parse_csv(test::read_file(csv));
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[1][column(rows[0], "accesses")], "3");
}

TEST(CliSweepResume, AForeignFileIsNotOverwritten) {
    const std::string csv = (test::temp_dir() / "foreign.csv").string();
    std::ofstream(csv) << "name,value\na,1\n";
    // --fresh discards a sweep's rows, not a file of another kind.
    for (const std::string fresh : {"", " --fresh"}) {
        const auto r = run_cachesim(kBase + fresh + " -o " + csv);
        EXPECT_EQ(r.exit_code, 2) << fresh;
        EXPECT_NE(r.err.find("not a sweep result"), std::string::npos) << r.err;
        EXPECT_EQ(test::read_file(csv), "name,value\na,1\n");
    }
}

}  // namespace
}  // namespace cachesim
