// A CSV header naming a column twice is refused, naming the column and both positions (a reader
// would take one of the two silently); a measured CSV's run-to-run range column (`<metric>:min`,
// `<metric>:max`) without its partner is refused naming both.
#include <gtest/gtest.h>

#include <string>

#include "tests/measured_csv_test_util.hpp"
#include "traces/csv_table.hpp"
#include "traces/input_error.hpp"
#include "traces/measured_csv.hpp"

namespace cachesim {
namespace {

std::string csv_error(const std::string& text) {
    try {
        parse_csv(text, "t.csv");
    } catch (const InputError& e) {
        return e.what();
    }
    return "(no error)";
}

TEST(CsvDuplicateColumn, IsRefusedNamingTheColumnAndBothPositions) {
    const std::string error = csv_error("a,b,c,b\n1,2,3,4\n");
    // 'b' is the 2nd and the 4th column, on line 1.
    EXPECT_NE(error.find("t.csv:1: column 'b' is named twice in the header (columns 2 and 4)"), std::string::npos)
        << error;
}

TEST(CsvDuplicateColumn, UnnamedColumnsMayRepeat) {
    // Two trailing commas: two unnamed columns, which no reader can look up.
    const CsvTable t = parse_csv("a,b,,\n1,2,,\n", "t.csv");
    EXPECT_EQ(t.header.size(), 4u);
    EXPECT_EQ(t.rows.size(), 1u);
}


TEST(CsvDuplicateColumn, AMeasuredCsvNamingAMetricTwiceIsRefused) {
    // dram__bytes_read.sum is the 18th column and, added at the end, the 19th.
    const std::string error = test::measured_csv_error(test::header_with("dram__bytes_read.sum") + test::row_with("99999999"));
    EXPECT_NE(error.find("m.csv:1: column 'dram__bytes_read.sum' is named twice in the header (columns 18 and 19)"),
              std::string::npos)
        << error;
}

TEST(CsvDuplicateColumn, ARangeMinWithoutItsMaxIsRefusedNamingBoth) {
    const std::string rate = "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct";
    const std::string error = test::measured_csv_error(test::header_with(rate + ":min") + test::row_with("74"));
    EXPECT_NE(error.find("m.csv: column '" + rate + ":min' without its partner '" + rate + ":max'"), std::string::npos)
        << error;
}

TEST(CsvDuplicateColumn, ARangeMaxWithoutItsMinIsRefusedNamingBoth) {
    const std::string rate = "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct";
    const std::string error = test::measured_csv_error(test::header_with(rate + ":max") + test::row_with("76"));
    EXPECT_NE(error.find("m.csv: column '" + rate + ":max' without its partner '" + rate + ":min'"), std::string::npos)
        << error;
}

TEST(CsvDuplicateColumn, ARangeWithBothColumnsIsRead) {
    const std::string rate = "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct";
    const auto runs = parse_measured_csv(test::header_with(rate + ":min," + rate + ":max") + test::row_with("74,76"), "m.csv");
    ASSERT_EQ(runs.size(), 1u);
    ASSERT_TRUE(runs[0].metrics.l1_hit_rate_range);
    EXPECT_DOUBLE_EQ(runs[0].metrics.l1_hit_rate_range->min, 74);
    EXPECT_DOUBLE_EQ(runs[0].metrics.l1_hit_rate_range->max, 76);
}

}  // namespace
}  // namespace cachesim
