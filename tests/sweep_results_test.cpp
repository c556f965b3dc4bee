// Sweep result files: CSV parsing of our own output, the union of columns, partial logs.
#include <gtest/gtest.h>

#include "apps/cachesim/sweep_results.hpp"
#include "traces/input_error.hpp"

namespace cachesim::cli {
namespace {

TEST(SweepResults, CsvRoundTripsQuotesCommasAndNewlines) {
    std::vector<SweepConfiguration> configs(2);
    configs[0].key = "--trace=a,b.cst";
    configs[1].key = "--trace=\"q\".cst";
    const std::vector<SweepColumns> rows = {{{"model", "thread"}, {"trace", "a,b.cst"}},
                                            {{"model", "thr\nead"}, {"extra", "1"}}};
    const std::string csv = format_sweep_csv(configs, rows);
    const auto parsed = parse_csv(csv);
    ASSERT_EQ(parsed.size(), 3u);
    EXPECT_EQ(parsed[0], (std::vector<std::string>{"sweep_config", "model", "trace", "extra"}));
    EXPECT_EQ(parsed[1], (std::vector<std::string>{"--trace=a,b.cst", "thread", "a,b.cst", ""}));
    EXPECT_EQ(parsed[2], (std::vector<std::string>{"--trace=\"q\".cst", "thr\nead", "", "1"}));
}

TEST(SweepResults, PartialLogLinesDecodeAndOnlyATornTailIsTolerated) {
    const std::string two = encode_results({{"k1", {{"a", "1"}}}, {"k2", {{"a", "2"}, {"b", "x"}}}});
    const auto decoded = decode_results(two + "{\"key\":\"k3\",\"colu", true);
    ASSERT_EQ(decoded.size(), 2u);
    EXPECT_EQ(decoded[1].first, "k2");
    EXPECT_EQ(decoded[1].second[1].second, "x");
    EXPECT_THROW(decode_results("garbage\n" + two, true), InputError);
    EXPECT_THROW(decode_results(two + "{\"key\":", false), InputError);
}

}  // namespace
}  // namespace cachesim::cli
