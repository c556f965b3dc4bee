// What limits a compiled loop, from its own Nsight Compute counters (traces/loop_counters.hpp). The
// expected values are the H200's issue-cost table, derived from the same counters by an independent
// implementation (scripts/issue_cost_table.py, tests/data/h200/issue_cost/issue_cost.csv).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "traces/csv_table.hpp"
#include "traces/input_error.hpp"
#include "traces/loop_counters.hpp"

namespace cachesim {
namespace {

double number(std::string text) {
    std::erase(text, ',');  // ncu writes thousands separators inside its quoted fields
    return std::stod(text);
}

const std::string kData = CACHESIM_TEST_DATA_DIR "/h200/issue_cost/";

// Each of the 24 compiled loops of the H200's issue-cost probes comes out as the table has it:
// its busiest unit and that unit's cycles per load request.
TEST(LoopCounters, TheProbesGiveTheIssueCostTable) {
    const CsvTable table = read_csv_file(kData + "issue_cost.csv");  // kernel,...,busiest,cycles_per_request
    const std::vector<std::vector<std::string>>& expected = table.rows;
    // The launches of ncu's raw pages: the header starts with "ID", a row of units follows it.
    std::vector<std::pair<const CsvTable*, std::size_t>> launches;
    const CsvTable pages[] = {read_csv_file(kData + "ncu_stencil.csv", "\"ID\""),
                              read_csv_file(kData + "ncu_matmul.csv", "\"ID\"")};
    for (const CsvTable& page : pages)
        for (std::size_t r = 1; r < page.rows.size(); ++r) launches.push_back({&page, r});
    ASSERT_EQ(launches.size(), expected.size());
    ASSERT_EQ(expected.size(), 24u);
    for (std::size_t i = 0; i < launches.size(); ++i) {
        const auto& [page, r] = launches[i];
        double requests = 0, instructions = 0;
        std::vector<PipeCycles> pipes;
        for (std::size_t c = 0; c < page->header.size(); ++c) {
            const std::string& column = page->header[c];
            const std::string& value = page->rows[r][c];
            if (column == ncu::kL1Requests) requests = number(value);
            else if (column == ncu::kInstExecuted) instructions = number(value);
            else if (std::string pipe = pipe_of_metric(column); !pipe.empty()) pipes.push_back({pipe, number(value)});
        }
        EXPECT_EQ(pipes.size(), 6u);  // alu, fma, fmaheavy, fmalite, fp64, tensor
        const LoopCounters loop = loop_counters(requests, instructions, pipes);
        const std::vector<std::string>& row = expected[i];
        EXPECT_EQ(loop.busiest, row[11]) << "row " << i + 1;
        EXPECT_NEAR(loop.cycles_per_request, std::stod(row[12]), 0.005) << "row " << i + 1;
        EXPECT_EQ(loop.pipe_bound(), row[11] != "issue") << "row " << i + 1;
    }
}

// The fma pipe's active cycles are its heavy and lite halves side by side: they count half.
TEST(LoopCounters, TheFmaPipeCountsHalf) {
    const LoopCounters loop = loop_counters(100, 300, {{"fma", 700}, {"alu", 320}});
    EXPECT_EQ(loop.busiest, "fma");
    EXPECT_DOUBLE_EQ(loop.cycles_per_request, 3.5);
    EXPECT_EQ(loop_counters(100, 300, {{"fma", 590}}).busiest, "issue");
}

// A pipe as busy as the issue port does not make the loop pipe-bound.
TEST(LoopCounters, TheIssuePortWinsATie) {
    const LoopCounters loop = loop_counters(10, 52, {{"alu", 52}});
    EXPECT_EQ(loop.busiest, "issue");
    EXPECT_FALSE(loop.pipe_bound());
    EXPECT_DOUBLE_EQ(loop.cycles_per_request, 5.2);
}

// Counters that cannot be one launch's are refused, naming the counters.
TEST(LoopCounters, CountersOfDifferentLaunchesAreRefused) {
    try {
        loop_counters(1000, 999, {{"alu", 10}});
        FAIL() << "fewer instructions than requests was taken";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("smsp__inst_executed.sum 999 is less than"), std::string::npos) << e.what();
    }
    EXPECT_THROW(loop_counters(0, 10, {{"alu", 10}}), InputError);
}

TEST(LoopCounters, PipeColumnsAreRecognisedByName) {
    EXPECT_EQ(pipe_of_metric("sm__pipe_fmaheavy_cycles_active.sum"), "fmaheavy");
    EXPECT_EQ(pipe_of_metric("sm__pipe_alu_cycles_active.sum"), "alu");
    EXPECT_EQ(pipe_of_metric("sm__pipe_alu_cycles_active.sum:min"), "");  // gpubench's run-to-run columns
    EXPECT_EQ(pipe_of_metric("sm__pipe__cycles_active.sum"), "");
    EXPECT_EQ(pipe_of_metric("sm__inst_executed_pipe_lsu.sum"), "");
    EXPECT_EQ(pipe_of_metric("smsp__inst_executed.sum"), "");
}

}  // namespace
}  // namespace cachesim
