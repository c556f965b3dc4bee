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

TEST(SweepResults, PartialLogLinesDecodeAndTornLinesAreSkippedAndCounted) {
    const std::string two = encode_results({{"k1", {{"a", "1"}}}, {"k2", {{"a", "2"}, {"b", "x"}}}});
    std::vector<std::size_t> torn;
    const auto decoded = decode_results(two + "{\"key\":\"k3\",\"colu", "log", &torn);
    ASSERT_EQ(decoded.size(), 2u);
    EXPECT_EQ(decoded[1].first, "k2");
    EXPECT_EQ(decoded[1].second[1].second, "x");
    EXPECT_EQ(torn, std::vector<std::size_t>{3});
    // A torn record glued to the next one (an append after an interruption) is one torn line.
    torn.clear();
    const auto glued = decode_results("{\"key\":\"k0\",\"co" + two, "log", &torn);
    ASSERT_EQ(glued.size(), 1u);
    EXPECT_EQ(glued[0].first, "k2");
    EXPECT_EQ(torn, std::vector<std::size_t>{1});
    // Without a list for torn lines (the MPI wire format), any bad line is an error naming its source.
    try {
        decode_results(two + "{\"key\":", "rank 1");
        FAIL() << "no error";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("rank 1 line 3"), std::string::npos) << e.what();
    }
    // JSON that is not a record is damage, not a torn write.
    EXPECT_THROW(decode_results("{\"key\": 5, \"columns\": []}\n", "log", &torn), InputError);
}

}  // namespace
}  // namespace cachesim::cli
