// Every output operation (each write, the fsync, the rename) of the atomic writer, the cst trace
// writer and the sweep's partial log fails once, injected through output_faults: the target
// keeps its old content (or stays absent), no temporary is left, and a sweep log stays usable.
#include <gtest/gtest.h>

#include <filesystem>

#include "apps/cachesim/sweep_results.hpp"
#include "tests/scratch_dir.hpp"
#include "tests/trace_format_test_util.hpp"
#include "traces/atomic_output.hpp"
#include "traces/input_error.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;

// How many output operations `write` makes when nothing fails.
template <class Write>
std::uint64_t operations_of(Write write) {
    const std::uint64_t before = output_faults::operations();
    write();
    return output_faults::operations() - before;
}

TEST(AtomicFileFault, EveryFailedOperationLeavesTheOldFile) {
    const fs::path dir = test::fresh_dir(test::trace_temp_dir() / "fault-atomic");
    const fs::path target = dir / "out.txt";
    const std::string content(100000, 'x');
    const std::uint64_t operations = operations_of([&] { write_output_file(target.string(), content); });
    ASSERT_GE(operations, 3u);  // a write, the fsync, the rename
    for (std::uint64_t n = 1; n <= operations; ++n) {
        test::spit(target, "old");
        output_faults::fail_operation(n);
        try {
            write_output_file(target.string(), content);
            FAIL() << "operation " << n << " did not fail";
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find(target.string()), std::string::npos) << e.what();
        }
        output_faults::fail_operation(0);
        EXPECT_EQ(test::slurp(target), "old") << "operation " << n;
        EXPECT_EQ(test::files_in(dir), 1u) << "operation " << n << " left a temporary";
    }
    write_output_file(target.string(), content);
    EXPECT_EQ(test::slurp(target), content);
}

TEST(AtomicFileFault, EveryFailedOperationOfATraceWriteLeavesTheOldFile) {
    const fs::path dir = test::fresh_dir(test::trace_temp_dir() / "fault-trace");
    const fs::path target = dir / "out.cst";
    WorkloadSpec spec = test::small_stencil();
    spec.width = spec.height = 64;  // several blocks
    auto write = [&] {
        WorkloadSource source(spec);
        cst::write_trace(source, target.string(), {});
    };
    const std::uint64_t operations = operations_of(write);
    ASSERT_GE(operations, 6u);
    const std::string complete = test::slurp(target);
    for (std::uint64_t n = 1; n <= operations; ++n) {
        test::spit(target, "old");
        output_faults::fail_operation(n);
        EXPECT_THROW(write(), InputError) << "operation " << n;
        output_faults::fail_operation(0);
        EXPECT_EQ(test::slurp(target), "old") << "operation " << n;
        EXPECT_EQ(test::files_in(dir), 1u) << "operation " << n << " left a temporary";
    }
    fs::remove(target);
    for (std::uint64_t n = 1; n <= operations; ++n) {  // and where there was no file: none appears
        output_faults::fail_operation(n);
        EXPECT_THROW(write(), InputError);
        output_faults::fail_operation(0);
        EXPECT_EQ(test::files_in(dir), 0u) << "operation " << n;
    }
    write();
    EXPECT_EQ(test::slurp(target), complete);
}

TEST(AtomicFileFault, AFailedLogAppendLosesNothingOnResume) {
    const fs::path dir = test::fresh_dir(test::trace_temp_dir() / "fault-log");
    std::vector<std::pair<std::string, cli::SweepColumns>> records;
    for (int i = 0; i < 6; ++i)
        records.push_back({"--l1-size=" + std::to_string(256 << i), {{"model", "thread"}, {"l1_hits", std::to_string(i)}}});
    for (std::uint64_t n = 1; n <= records.size(); ++n) {
        const std::string log = (dir / ("log" + std::to_string(n))).string();
        std::size_t done = 0;
        {
            cli::PartialLog first(log);
            output_faults::fail_operation(n);
            try {
                for (; done < records.size(); ++done) first.append(records[done].first, records[done].second);
            } catch (const InputError& e) {
                EXPECT_NE(std::string(e.what()).find(log), std::string::npos) << e.what();
            }
            output_faults::fail_operation(0);
        }
        EXPECT_EQ(done, n - 1);
        {
            cli::PartialLog rerun(log);  // a resumed run appends the rest
            EXPECT_EQ(rerun.torn_bytes_removed(), 0u) << "the failed append left a torn record";
            for (; done < records.size(); ++done) rerun.append(records[done].first, records[done].second);
        }
        std::vector<std::size_t> torn;
        const auto read = cli::decode_results(test::slurp(log), log, &torn);
        EXPECT_TRUE(torn.empty());
        EXPECT_EQ(read, records) << "operation " << n;
    }
}

TEST(AtomicFileFault, ATornLogTailIsCutOffBeforeTheNextAppend) {
    const fs::path dir = test::fresh_dir(test::trace_temp_dir() / "fault-torn");
    const std::string log = (dir / "log").string();
    const std::string one = cli::encode_results({{"k1", {{"a", "1"}}}});
    test::spit(log, one + "{\"key\":\"k2\",\"col");  // what kill -9 in the middle of a write leaves
    {
        cli::PartialLog rerun(log);
        EXPECT_EQ(rerun.torn_bytes_removed(), 16u);
        rerun.append("k3", {{"a", "3"}});
    }
    std::vector<std::size_t> torn;
    const auto read = cli::decode_results(test::slurp(log), log, &torn);
    EXPECT_TRUE(torn.empty());
    ASSERT_EQ(read.size(), 2u);
    EXPECT_EQ(read[1].first, "k3");
}

}  // namespace
}  // namespace cachesim
