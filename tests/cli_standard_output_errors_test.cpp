// A report that cannot be written to standard output (a full disk, a closed descriptor) is an
// error with exit 2, not a silent success.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

// Exit status and stderr of the binary run with its stdout redirected as `redirect` says.
test::CommandResult run_redirected(const std::string& args, const std::string& redirect) {
    const char* bin = std::getenv("CACHESIM_BIN");
    const std::string err = (test::temp_dir() / "stdout_errors.txt").string();
    // Appended piecewise: GCC 12 warns (-Wrestrict, falsely) on the chained operator+ form.
    std::string command = "'";
    command.append(bin ? bin : "cachesim").append("' ").append(args).append(" ").append(redirect).append(" 2>'").append(err).append("'");
    const int status = std::system(command.c_str());
    test::CommandResult r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.err = test::read_file(err);
    return r;
}

TEST(CliStandardOutputErrors, AFullDiskIsAnError) {
    for (const std::string args : {"simulate -q", "simulate -q --format json", "sweep -q --l1-size 256,512"}) {
        const auto r = run_redirected(args, ">/dev/full");
        EXPECT_EQ(r.exit_code, 2) << args;
        EXPECT_NE(r.err.find("writing standard output failed"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("No space left"), std::string::npos) << r.err;
    }
}

TEST(CliStandardOutputErrors, AClosedStandardOutputIsAnError) {
    const auto r = run_redirected("simulate -q", ">&-");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("writing standard output failed"), std::string::npos) << r.err;
}

TEST(CliStandardOutputErrors, AWrittenReportIsNoError) {
    const auto r = run_redirected("simulate -q", ">/dev/null");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(r.err.empty()) << r.err;
}

}  // namespace
}  // namespace cachesim
