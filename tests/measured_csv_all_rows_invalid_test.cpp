// --skip-invalid-rows where every row of a file has inconsistent counters: nothing is left to
// compare, and the message lists the rows left out and why, one a line, as the report lists them
// otherwise.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/measured_csv_test_util.hpp"
#include "traces/input_error.hpp"
#include "traces/measured_csv.hpp"

namespace cachesim {
namespace {

const std::string& kHeader = test::kMeasuredHeader;
// 50 L1 hits of 40 sectors: 125%, beyond the 110% that separate passes explain.
const std::string kBroken = "stencil,64,32,3,5,0,linear,128,4,H200,0.5,10,40,50,75,20,15,2048\n";
const std::string& kSound = test::kMeasuredRow;  // 30 hits of 40 sectors, 75%

std::string error_with_skipping(const std::string& text) {
    std::vector<InvalidMeasuredRow> invalid;
    try {
        parse_measured_csv(text, "m.csv", &invalid);
    } catch (const InputError& e) {
        return e.what();
    }
    return "(no error)";
}

std::string repeated(const std::string& row, int times) {
    std::string rows;
    for (int i = 0; i < times; ++i) rows += row;
    return rows;
}

TEST(MeasuredCsvAllRowsInvalid, TheMessageListsEachRowAndWhy) {
    const std::string error = error_with_skipping(kHeader + kBroken + kBroken);
    // Data rows 1 and 2 are on lines 2 and 3 (the header is line 1).
    EXPECT_NE(error.find("m.csv: every row was left out by --skip-invalid-rows:\n  row 1 (line 2): "), std::string::npos)
        << error;
    EXPECT_NE(error.find("\n  row 2 (line 3): "), std::string::npos) << error;
    EXPECT_NE(error.find("l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum 50"), std::string::npos) << error;
    EXPECT_EQ(error.find("\n  and "), std::string::npos) << error;
}

TEST(MeasuredCsvAllRowsInvalid, ALongListIsCutSayingHowManyMore) {
    // 7 rows: the first 5 listed, the other 2 counted.
    const std::string error = error_with_skipping(kHeader + repeated(kBroken, 7));
    EXPECT_NE(error.find("row 5 (line 6): "), std::string::npos) << error;
    EXPECT_EQ(error.find("row 6 (line 7)"), std::string::npos) << error;
    EXPECT_NE(error.find("\n  and 2 more"), std::string::npos) << error;
}

TEST(MeasuredCsvAllRowsInvalid, OneSoundRowIsKeptWithTheOthersListed) {
    std::vector<InvalidMeasuredRow> invalid;
    const auto runs = parse_measured_csv(kHeader + kBroken + kSound, "m.csv", &invalid);
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].line, 3u);
    ASSERT_EQ(invalid.size(), 1u);
    EXPECT_EQ(invalid[0].line, 2u);
    EXPECT_EQ(invalid[0].row, 1u);
}

TEST(MeasuredCsvAllRowsInvalid, AFileWithoutRowsSaysSoWithoutListing) {
    const std::string error = error_with_skipping(kHeader);
    EXPECT_NE(error.find("m.csv: no measured rows"), std::string::npos) << error;
    EXPECT_EQ(error.find("every row"), std::string::npos) << error;
}

}  // namespace
}  // namespace cachesim
