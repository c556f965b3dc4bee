// A record whose every field is empty (",,,,", as spreadsheets write trailing empty rows) is no
// data and is skipped like a blank line; a record with only some fields empty stays an error
// naming the column.
#include <gtest/gtest.h>

#include <string>

#include "tests/measured_csv_test_util.hpp"
#include "traces/csv_table.hpp"
#include "traces/input_error.hpp"
#include "traces/measured_csv.hpp"

namespace cachesim {
namespace {

TEST(CsvBlankRecord, EveryFieldEmptyIsSkippedAtAnyWidth) {
    // Lines 3 and 5 are empty records, one as wide as the header, one narrower; line 6 quoted.
    const CsvTable t = parse_csv("a,b,c\n1,2,3\n,,\n4,5,6\n,\n\"\",\"\",\"\"\n", "t.csv");
    ASSERT_EQ(t.rows.size(), 2u);
    EXPECT_EQ(t.rows[1][0], "4");
    EXPECT_EQ(t.lines[0], 2u);
    EXPECT_EQ(t.lines[1], 4u);
}

TEST(CsvBlankRecord, AnEmptyRecordIsNoHeader) {
    const CsvTable t = parse_csv(",,\na,b\n1,2\n", "t.csv");
    ASSERT_EQ(t.header.size(), 2u);
    EXPECT_EQ(t.header[0], "a");
    ASSERT_EQ(t.rows.size(), 1u);
}

TEST(CsvBlankRecord, SomeFieldsEmptyIsStillAWidthError) {
    try {
        parse_csv("a,b,c\n1,,\n,\n1,2\n", "t.csv");
        FAIL() << "a two-field record under a three-column header was read";
    } catch (const InputError& e) {
        // Line 2 (1,,) is as wide as the header; line 3 is skipped; line 4 has 2 fields.
        EXPECT_NE(std::string(e.what()).find("t.csv:4: 2 fields, but the header has 3"), std::string::npos) << e.what();
    }
}

const std::string& kHeader = test::kMeasuredHeader;
const std::string& kRow = test::kMeasuredRow;

TEST(CsvBlankRecord, AMeasuredCsvWithASpreadsheetsTrailingRowsReadsItsRows) {
    // 18 columns: 17 commas make an empty record.
    const std::string blank = std::string(17, ',') + "\n";
    const auto runs = parse_measured_csv(kHeader + kRow + blank + blank, "m.csv");
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].line, 2u);
}

TEST(CsvBlankRecord, AMeasuredRowWithAnEmptyFieldNamesTheColumn) {
    // The width (second field) left empty.
    const std::string row = "stencil,,32,3,5,0,linear,128,4,H200,0.5,10,40,30,75,20,15,2048\n";
    try {
        parse_measured_csv(kHeader + row, "m.csv");
        FAIL() << "a row without its width was read";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("m.csv:2, column 'width'"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace cachesim
