// What a resumed sweep reads back is checked and kept: impossible values edited into a partial
// log or the CSV are errors naming the file and line; rows of configurations outside a narrower
// rerun are kept (and said so) unless --fresh; bad output options fail before anything runs.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "apps/cachesim/report.hpp"
#include "apps/cachesim/sweep_results.hpp"
#include "tests/cli_util.hpp"
#include "tests/scratch_dir.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;
using test::run_cachesim;

const std::string kSweep = "sweep -q --size 40x24 --stencil 3x3 --l1-line 32 --l1-ways 2";

std::string with_value(const std::string& key, const cli::SweepColumns& columns, const std::string& name,
                       const std::string& value) {
    cli::SweepColumns changed = columns;
    for (auto& [n, v] : changed)
        if (n == name) v = value;
    return cli::encode_results({{key, changed}});
}

TEST(CliSweepRecords, ImpossibleValuesInAPartialLogNameTheFileAndLine) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "records");
    const fs::path csv = dir / "out.csv";
    ASSERT_EQ(run_cachesim(kSweep + " --l1-size 256,512 -o '" + csv.string() + "'").exit_code, 0);
    const auto rows = cli::parse_csv(test::read_file(csv));
    cli::SweepColumns columns;
    for (std::size_t c = 1; c < rows[0].size(); ++c) columns.emplace_back(rows[0][c], rows[1][c]);
    const std::string key = rows[1][0];
    fs::remove(csv);
    struct Case {
        std::string column, value, complaint;
    };
    // Each value is impossible by the column's meaning: a rate above 1, a negative or fractional
    // count, an unknown policy, hits that do not add up with the misses to the accesses.
    for (const Case& c : std::vector<Case>{{"l1_hit_rate", "1.5", "a rate within 0..1"},
                                           {"l1_misses", "-3", "a whole number"},
                                           {"accesses", "12.5", "a whole number"},
                                           {"l1_policy", "newest", "a replacement policy"},
                                           {"l1_hits", "0", "l1_hits + l1_misses differ from l1_accesses"}}) {
        // Line 1 is blank, as a log may be; line 2 the edited record.
        std::ofstream(csv.string() + ".partial") << "\n" << with_value(key, columns, c.column, c.value);
        const auto r = run_cachesim(kSweep + " --l1-size 256,512 -o '" + csv.string() + "'");
        EXPECT_EQ(r.exit_code, 2) << c.column;
        EXPECT_NE(r.err.find(csv.string() + ".partial line 2: "), std::string::npos) << r.err;
        EXPECT_NE(r.err.find(c.complaint), std::string::npos) << r.err;
        EXPECT_FALSE(fs::exists(csv));
    }
    // A record missing a column this configuration reports
    cli::SweepColumns shorter(columns.begin(), columns.end() - 1);
    std::ofstream(csv.string() + ".partial") << cli::encode_results({{key, shorter}});
    const auto r = run_cachesim(kSweep + " --l1-size 256,512 -o '" + csv.string() + "'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find(csv.string() + ".partial line 1: column '" + columns.back().first + "' is missing"),
              std::string::npos) << r.err;
}

TEST(CliSweepRecords, AnImpossibleValueInTheCsvNamesItsLine) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "records-csv");
    const fs::path csv = dir / "out.csv";
    ASSERT_EQ(run_cachesim(kSweep + " --l1-size 256,512 -o '" + csv.string() + "'").exit_code, 0);
    std::string text = test::read_file(csv);
    // The third line's L1 hit rate becomes 2.
    auto rows = cli::parse_csv(text);
    const std::size_t rate = static_cast<std::size_t>(std::find(rows[0].begin(), rows[0].end(), "l1_hit_rate") - rows[0].begin());
    rows[2][rate] = "2";
    std::string edited;
    for (const auto& row : rows) {
        for (std::size_t i = 0; i < row.size(); ++i) edited += (i ? "," : "") + cli::csv_field(row[i]);
        edited += "\n";
    }
    std::ofstream(csv) << edited;
    const auto r = run_cachesim(kSweep + " --l1-size 256,512 -o '" + csv.string() + "'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find(csv.string() + " line 3: column 'l1_hit_rate' is '2'"), std::string::npos) << r.err;
    EXPECT_EQ(test::read_file(csv), edited);  // untouched
}

TEST(CliSweepRecords, ANarrowerRerunKeepsTheEarlierRowsAndSaysSo) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "narrower");
    const fs::path csv = dir / "out.csv";
    ASSERT_EQ(run_cachesim(kSweep + " --l1-size 256,512,1K -o '" + csv.string() + "'").exit_code, 0);
    const auto wide = cli::parse_csv(test::read_file(csv));
    const auto r = run_cachesim(kSweep + " --l1-size 512 -o '" + csv.string() + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("kept 2 earlier rows of " + csv.string()), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--fresh"), std::string::npos) << r.err;
    const auto after = cli::parse_csv(test::read_file(csv));
    // This sweep's row first, then the two others in their earlier order: nothing dropped.
    EXPECT_EQ(after, (std::vector<std::vector<std::string>>{wide[0], wide[2], wide[1], wide[3]}));
    const auto fresh = run_cachesim(kSweep + " --l1-size 512 --fresh -o '" + csv.string() + "'");
    ASSERT_EQ(fresh.exit_code, 0) << fresh.err;
    EXPECT_EQ(cli::parse_csv(test::read_file(csv)), (std::vector<std::vector<std::string>>{wide[0], wide[2]}));
}

TEST(CliSweepRecords, BadOutputOptionsFailBeforeTheFirstConfigurationRuns) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "early");
    const fs::path csv = dir / "out.csv";
    // A sweep that would take about a second (eight configurations of 16.6 million accesses): a
    // failure only after some of it ran would show as a partial log.
    const std::string slow = "sweep -q --size 800x800 --stencil 5x5 --l1-size 1K..128K*2 -o '" + csv.string() + "'";
    struct Case {
        std::string options, message;
    };
    for (const Case& c : std::vector<Case>{
             {"--plot '" + (dir / "missing" / "p.png").string() + "'", "--plot " + (dir / "missing" / "p.png").string()},
             {"--plot '" + dir.string() + "'", dir.string() + ": is a directory"},
             {"--plot '" + (dir / "p.png").string() + "' --plot-value l1_policy", "--plot-value: column 'l1_policy' is not numeric"},
             {"--plot '" + (dir / "p.png").string() + "' --plot-value nothing", "--plot-value: no column 'nothing'"},
             {"--plot '" + (dir / "p.png").string() + "' --plot-x l2-size", "--plot-x l2-size: the sweep is not given --l2-size"}}) {
        const auto r = run_cachesim(slow + " " + c.options);
        EXPECT_EQ(r.exit_code, 2) << c.options;
        EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
        EXPECT_FALSE(fs::exists(csv.string() + ".partial")) << c.options << ": configurations ran first";
    }
    const auto r = run_cachesim("sweep -q --size 8x8 -o '" + (dir / "missing" / "out.csv").string() + "'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--output " + (dir / "missing" / "out.csv").string()), std::string::npos) << r.err;
}

}  // namespace
}  // namespace cachesim
