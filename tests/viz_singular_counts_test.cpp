// The diagram's notes and messages say "1 line", "1 step" (not "1 lines"), and a count of any
// other size in the plural.
#include <gtest/gtest.h>

#include "traces/input_error.hpp"
#include "viz/analytic.hpp"
#include "viz/line_range.hpp"
#include "viz/notes.hpp"

using namespace cachesim;
using namespace cachesim::viz;

namespace {

CacheConfig cache(std::uint64_t bytes) {
    CacheConfig c;
    c.size_bytes = bytes;
    c.line_bytes = 16;
    return c;
}

std::string row_range_error(const char* text, const RowLayout& rows) {
    try {
        parse_row_range(text, rows);
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

// By hand: a 2x1 output with a 1x1 stencil reads 2 + 1 = 3 elements a row, ceil(3 / 4) = 1 line
// (eq. 3.2, L = 16 B / 4 B); the 384-byte cache holds 24 lines.
TEST(VizSingularCounts, OneLineFits) {
    WorkloadSpec w;
    w.width = 2;
    w.height = 1;
    w.stencil_w = w.stencil_h = 1;
    EXPECT_EQ(analytic::summarize(w, cache(384)).fetch_condition, "eq. 3.2's 1 line fits in 24");
}

// By hand, Table 3.1: ceil((16 + 7) / 4) * 7 = 42 lines, more than the 24 lines of 384 B.
TEST(VizSingularCounts, ManyLinesExceed) {
    WorkloadSpec w;  // 16x16, 7x7
    EXPECT_EQ(analytic::summarize(w, cache(384)).fetch_condition, "eq. 3.2's 42 lines exceed 24");
}

TEST(VizSingularCounts, OneLineCache) {
    EXPECT_NE(describe_level(cache(16)).find(": 1 line x 16 B"), std::string::npos) << describe_level(cache(16));
    EXPECT_NE(describe_level(cache(32)).find(": 2 lines x 16 B"), std::string::npos) << describe_level(cache(32));
}

// One array of four 4-byte elements: one 16-byte line, one row.
TEST(VizSingularCounts, OneRowDiagram) {
    const RowLayout rows({{"a", 0, 4, 4, 1}}, 16);
    ASSERT_EQ(rows.rows(), 1u);
    const std::string message = row_range_error("0:2", rows);
    EXPECT_NE(message.find("(the diagram has 1 line)"), std::string::npos) << message;
}
