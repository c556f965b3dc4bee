// cachesim compare on several measurement sets: a row whose counters contradict each other refuses
// the file, named by file:line and counters, unless --skip-invalid-rows leaves it out and lists it;
// rows are reported per set (the file's set column, SET=FILE, else the file name) and per
// compilation variant, each with its own summary, and the joined CSV says each row's set.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;

const char* kHeader =
    "kernel,width,height,stencil_w,stencil_h,depth,schedule,block,elem_bytes,gpu,variant,"
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,"
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,"
    "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,"
    "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,dram__bytes_read.sum\n";

// A small stencil launch (quick to simulate); the counters are made up but consistent unless
// `l2_hits` exceeds the 100 L2 lookups by more than 10%.
std::string row(const char* schedule, const char* variant, int l2_hits = 50) {
    return std::string("stencil,64,64,3,3,0,") + schedule + ",128,4,NVIDIA H200," + variant + ",1000,4000,3000,75,100," +
           std::to_string(l2_hits) + ",6400\n";
}

fs::path write(const std::string& name, const std::string& text) {
    const fs::path dir = test::temp_dir() / "compare-sets";
    fs::create_directories(dir);
    std::ofstream(dir / name) << text;
    return dir / name;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    for (std::size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
        lines.push_back(text.substr(start, end - start));
    return lines;
}

TEST(CliCompareSets, AnInconsistentRowRefusesTheFileNamingLineAndCounters) {
    // line 3 (the second data row): 130 L2 hits of 100 lookups
    const fs::path file = write("training_bad.csv", std::string(kHeader) + row("linear", "index64") +
                                                        row("column:8", "index64", 130) + row("column:16", "index64"));
    const fs::path out = file.parent_path() / "refused.csv";
    fs::remove(out);
    const auto r = test::run_cachesim("compare --no-progress --measured '" + file.string() + "' --out '" + out.string() + "'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("training_bad.csv:3: inconsistent counters"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum 130 is more than 110% of "
                         "lts__t_sectors_srcunit_tex_op_read.sum 100"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("--skip-invalid-rows"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(out));
}

TEST(CliCompareSets, SkipInvalidRowsLeavesTheRowOutAndListsIt) {
    const fs::path file = write("training_skip.csv", std::string(kHeader) + row("linear", "index64") +
                                                         row("column:8", "index64", 130) + row("column:16", "index64"));
    const fs::path out = file.parent_path() / "skipped.csv";
    const auto r = test::run_cachesim("compare --no-progress --skip-invalid-rows --measured '" + file.string() +
                                      "' --out '" + out.string() + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("2 runs:"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("left out (--skip-invalid-rows), 1 rows with inconsistent counters:"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("training_skip.csv:3: lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum 130"), std::string::npos)
        << r.out;
    const auto lines = lines_of(test::read_file(out));
    ASSERT_EQ(lines.size(), 3u);  // header and the rows of lines 2 and 4
    EXPECT_EQ(lines[1].substr(0, 2), "2,");
    EXPECT_EQ(lines[2].substr(0, 2), "4,");
}

TEST(CliCompareSets, EachSetAndVariantHasItsOwnTableAndSummary) {
    const fs::path training = write("training_small.csv", std::string(kHeader) + row("linear", "index64") +
                                                              row("column:8", "index64") + row("column:16", "index64"));
    const fs::path heldout = write("heldout_small.csv", std::string(kHeader) + row("linear", "index64") +
                                                            row("linear", "unroll1") + row("column:8", "unroll1"));
    const fs::path named = write("fidelity_small.csv", std::string(kHeader) + row("column:32", "index64"));
    const fs::path out = training.parent_path() / "sets.csv";
    const auto r = test::run_cachesim("compare --no-progress --measured '" + training.string() + "' --measured '" +
                                      heldout.string() + "' --measured 'extra=" + named.string() + "' --out '" +
                                      out.string() + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string& o = r.out;
    const auto training_at = o.find("== training =="), heldout_at = o.find("== heldout =="),
               unroll_at = o.find("== heldout unroll1 =="), extra_at = o.find("== extra =="),
               all_at = o.find("== all sets ==");
    ASSERT_NE(training_at, std::string::npos) << o;
    ASSERT_NE(heldout_at, std::string::npos) << o;
    ASSERT_NE(unroll_at, std::string::npos) << o;
    ASSERT_NE(extra_at, std::string::npos) << o;
    ASSERT_NE(all_at, std::string::npos) << o;
    EXPECT_LT(training_at, heldout_at);
    EXPECT_LT(heldout_at, unroll_at);
    EXPECT_LT(unroll_at, extra_at);
    EXPECT_LT(extra_at, all_at);
    // each set's summary counts its own rows; the last counts all seven
    EXPECT_NE(o.find("3 runs:", training_at), std::string::npos);
    EXPECT_LT(o.find("1 run:", heldout_at), unroll_at);
    EXPECT_LT(o.find("2 runs:", unroll_at), extra_at);
    EXPECT_NE(o.find("7 runs:", all_at), std::string::npos);
    EXPECT_NE(o.find("targets: L1 within 3 pp", all_at), std::string::npos);
    const auto lines = lines_of(test::read_file(out));
    ASSERT_EQ(lines.size(), 8u);
    EXPECT_NE(lines[0].find(",set,variant,l2_start,simulated:l1_hit_rate_other_block.pct,"
                            "measured:loop_cycles_per_request,measured:loop_busiest"),
              std::string::npos);
    // (every row started cold: the files have no l2_start column; the simulated points from other
    // blocks and the loop's counters, which these files do not have, follow)
    const char* expected_tail[] = {",training,index64,cold", ",training,index64,cold", ",training,index64,cold",
                                   ",heldout,index64,cold",  ",heldout,unroll1,cold",   ",heldout,unroll1,cold",
                                   ",extra,index64,cold"};
    for (std::size_t i = 0; i < 7; ++i) {
        const std::string tail = expected_tail[i];
        std::string line = lines[i + 1];
        for (int field = 0; field < 3; ++field) line.erase(line.rfind(','));
        EXPECT_EQ(line.substr(line.size() - tail.size()), tail) << line;
    }
}

TEST(CliCompareSets, ASetColumnWinsOverTheFileName) {
    const fs::path file = write("training_column.csv",
                                "set," + std::string(kHeader) + "heldout," + row("linear", "index64") + "training," +
                                    row("column:8", "index64"));
    const auto r = test::run_cachesim("compare --no-progress --measured '" + file.string() + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_LT(r.out.find("== heldout =="), r.out.find("== training =="));
}

TEST(CliCompareSets, AnUnknownVariantIsRefusedNamingTheLine) {
    const fs::path file = write("training_variant.csv", std::string(kHeader) + row("linear", "index16"));
    const auto r = test::run_cachesim("compare --no-progress --measured '" + file.string() + "'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("training_variant.csv:2, column 'variant': unknown compilation 'index16'"), std::string::npos)
        << r.err;
}

}  // namespace
}  // namespace cachesim
