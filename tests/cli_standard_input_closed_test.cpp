// `--trace -` and `info -` run with standard input closed (`<&-`) say that standard input is not
// open, rather than reporting a failed stat or read with the system's "Bad file descriptor".
#include <gtest/gtest.h>

#include "tests/cli_util.hpp"

namespace cachesim::test {
namespace {

const std::string kMessage = "standard input: is not open (the command ran with standard input closed)";

TEST(CliStandardInputClosed, EveryReaderOfStandardInputSaysItIsClosed) {
    for (const std::string command : {"simulate --trace -", "simulate --trace - --trace-format u64",
                                      "trace --trace - -o /dev/null", "info -"}) {
        const CommandResult r = run_shell("CACHESIM " + command + " <&-");
        EXPECT_EQ(r.exit_code, 2) << command;
        EXPECT_TRUE(r.out.empty()) << command << ": " << r.out;
        EXPECT_NE(r.err.find(kMessage), std::string::npos) << command << ": " << r.err;
    }
}

}  // namespace
}  // namespace cachesim::test
