// Every kind of bad input: one clear message on stderr, exit code 2, no crash.
#include <gtest/gtest.h>

#include <fstream>

#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

struct BadInput {
    std::string args;
    std::string message;  // a fragment the error must contain
};

TEST(CliBadInput, ClearMessageAndExitCode2) {
    const auto dir = test::temp_dir();
    std::ofstream(dir / "bad.din") << "0 10\n0 nothex\n";
    std::ofstream(dir / "odd.u64", std::ios::binary) << std::string(13, 'x');
    const std::vector<BadInput> cases = {
        {"simulate --l1-size 1000 --l1-line 64", "not a whole number of 64 B lines"},
        {"simulate --l1-size 4K --l1-ways 3", "set count must be a whole number"},
        {"simulate --l1-sector 48", "sector size 48"},
        {"simulate --l1-line 0", "power of two"},
        {"simulate --l1-size 4K --l1-ways 0", "ways must be positive"},
        {"simulate --l1-policy mru", "unknown policy 'mru'"},
        {"simulate --schedule spiral", "unknown schedule 'spiral'"},
        {"simulate --schedule column:0", "width must be positive"},
        {"simulate --size 0x16", "must be positive"},
        {"simulate --size 4000000000x4000000000", "overflow the address space"},
        {"simulate --l1-size 99999999999999999999K", "not a whole number in range"},
        {"simulate --l1-size 20000000000G", "size overflows"},
        {"simulate --workload fft", "unknown workload 'fft'"},
        {"simulate --trace '" + (dir / "bad.din").string() + "'", "bad.din:2: address is not a hexadecimal number"},
        {"simulate --trace '" + (dir / "odd.u64").string() + "' --trace-format u64", "not a multiple of 8"},
        {"simulate --trace /nonexistent/file.din", "no such file"},
        {"simulate --trace-format xyz --trace /tmp/x", "unknown trace format"},
        {"simulate --bogus-option", "unrecognised option '--bogus-option'"},
        {"simulate --format yaml", "expected table, json or csv"},
        {"simulate --preset nosuch", "unknown preset 'nosuch'"},
        {"simulate --config /nonexistent.cfg", "cannot open"},
        {"simulate --l1-write sometimes", "expected through or back"},
        {"simulate --model gpu --warp-age-dram-blocks nonsense", "expected first-reads or first-wave, not 'nonsense'"},
        {"simulate --model gpu --warp-age-rank warps", "expected scheduler or block, not 'warps'"},
        {"simulate --model gpu --warp-age-warm-step 0.9", "--warp-age-warm-step below 1 needs --warp-age-rank block"},
        {"simulate --model gpu --warp-age-warm-step 1.5", "a number above 0 and at most 1"},
        {"simulate --l1-policy plru --l1-size 96 --l1-line 16", "power-of-two number of ways"},
        {"nosuchcommand", "unknown subcommand 'nosuchcommand'"},
    };
    for (const BadInput& c : cases) {
        const auto r = test::run_cachesim(c.args);
        EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.err;
        EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << "\nstderr: " << r.err;
        EXPECT_TRUE(r.out.empty()) << c.args;
    }
}

// Boost.Program_options builds its messages by replacing %tokens%: a name or value that contains a
// token once made that replacement endless. Now the percent signs come back escaped, at once.
TEST(CliBadInput, OptionTextContainingMessagePlaceholders) {
    const auto dir = test::temp_dir();
    std::ofstream(dir / "odd.cfg") << "workload = matmul\nsize option %canonical_option%= 64x64\n";
    const std::vector<BadInput> cases = {
        {"simulate --config '" + (dir / "odd.cfg").string() + "'",
         "unrecognised option 'size option %25canonical_option%25'"},
        {"simulate --threads %value%", "the argument ('%25value%25') for option '--threads' is invalid"},
        {"simulate --%canonical_option%", "unrecognised option '--%25canonical_option%25'"},
    };
    for (const BadInput& c : cases) {
        const auto r = test::run_cachesim(c.args);
        EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.err;
        EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << "\nstderr: " << r.err;
    }
}

TEST(CliBadInput, FailedRunLeavesNoOutputFile) {
    const auto path = test::temp_dir() / "never.json";
    const auto r = test::run_cachesim("simulate --schedule column:0 -o '" + path.string() + "'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_FALSE(std::filesystem::exists(path));
}

}  // namespace
}  // namespace cachesim
