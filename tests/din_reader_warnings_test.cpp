// The din reader keeps what it notices (a last line with no newline) as warnings for the command
// to show; it writes nothing to a stream itself.
#include <gtest/gtest.h>

#include <fstream>

#include "tests/cli_util.hpp"
#include "traces/trace_readers.hpp"

namespace cachesim {
namespace {

std::uint64_t read_through(AccessSource& source) {
    std::uint64_t accesses = 0;
    AccessBatch batch;
    while (source.next(batch, 2)) accesses += batch.accesses.size();
    return accesses;
}

TEST(DinReaderWarnings, LastLineWithoutNewlineIsKeptOnceNotPrinted) {
    const std::string path = (test::temp_dir() / "unterminated.din").string();
    std::ofstream(path) << "0 10\n1 20\n0 3";  // three records, the third unterminated
    DinTraceSource source(path);
    testing::internal::CaptureStderr();
    testing::internal::CaptureStdout();
    EXPECT_EQ(read_through(source), 3u);
    source.rewind();  // a second pass (as OPT makes) notices it again, but it is one warning
    EXPECT_EQ(read_through(source), 3u);
    EXPECT_EQ(testing::internal::GetCapturedStdout(), "");
    EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
    // By hand: the third record is on line 3.
    const std::vector<std::string> expected = {path +
                                               ": the last line has no newline: the file may be cut short (line 3)"};
    EXPECT_EQ(source.warnings(), expected);
}

TEST(DinReaderWarnings, TerminatedFileHasNone) {
    const std::string path = (test::temp_dir() / "terminated.din").string();
    std::ofstream(path) << "0 10\n1 20\n0 3\n";
    DinTraceSource source(path);
    EXPECT_EQ(read_through(source), 3u);
    EXPECT_TRUE(source.warnings().empty());
}

}  // namespace
}  // namespace cachesim
